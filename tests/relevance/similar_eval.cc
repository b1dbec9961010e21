// SimilarPapers against the judged splits (similar_eval.h).

#include "tests/relevance/similar_eval.h"

#include <map>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "paperdb/v1/query_service.pb.h"

namespace paperdb::relevance {

absl::StatusOr<SimilarScore> EvaluateSimilarPapers(
    const query::QueryEngine& engine, const std::vector<JudgedQuery>& queries) {
  std::map<std::string, Ranking> similar_to;  // Source id -> its results.
  SimilarScore score;
  double sum = 0.0;
  for (const JudgedQuery& query : queries) {
    std::vector<std::string> sources;
    for (const auto& [id, grade] : query.grades) {
      if (grade >= kMrrMinGrade) sources.push_back(id);
    }
    if (sources.size() < 2) continue;
    for (const std::string& source : sources) {
      auto [it, inserted] = similar_to.try_emplace(source);
      if (inserted) {
        v1::SimilarPapersRequest request;
        request.set_name(source);
        request.set_page_size(kCutoff);
        request.mutable_read_mask()->add_paths("paper.id");
        v1::SimilarPapersResponse response;
        if (absl::Status status = engine.SimilarPapers(request, &response);
            !status.ok()) {
          return status;
        }
        for (const v1::SimilarPaper& result : response.results()) {
          it->second.ids.push_back(result.paper().id());
        }
      }
      JudgedQuery others = query;
      others.grades.erase(source);
      sum += Ndcg(others, it->second);
      ++score.pairs;
    }
  }
  if (score.pairs > 0) score.ndcg = sum / score.pairs;
  return score;
}

}  // namespace paperdb::relevance
