// QueryEngine::SimilarPapers: "more like this" (query_engine.h).

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/util/field_mask_util.h"
#include "paperdb/common/error_details.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/search/searcher.h"
#include "paperdb/search/similar_terms.h"
#include "paperdb/text/utf8.h"
#include "query_service/query_engine.h"
#include "query_service/read_mask.h"
#include "query_service/reply_budget.h"
#include "query_service/request_limits.h"

namespace paperdb::query {
namespace {

constexpr size_t kMaxSimilarTextBytes = 65536;
constexpr size_t kMaxSimilarTerms = 25;

}  // namespace

absl::Status QueryEngine::SimilarPapers(
    const v1::SimilarPapersRequest& request,
    v1::SimilarPapersResponse* response,
    const search::CancelFn& cancelled) const {
  PAPERDB_ASSIGN_OR_RETURN(const int page_size,
                           PageSize(request.page_size(), kDefaultSearchPageSize,
                                    kMaxSearchPageSize));
  PAPERDB_RETURN_IF_ERROR(WithField(
      CheckReadMask(v1::SimilarPaper::descriptor(), request.read_mask(),
                    "paper, or paths under it such as paper.venue; \"*\" "
                    "alone for all; in JSON lowerCamelCase, e.g. sharedTerms"),
      "read_mask"));
  const bool full_mask = IsFullMask(request.read_mask());
  absl::ReaderMutexLock lock(&mu_);
  std::string text;
  std::optional<uint32_t> source_doc;
  switch (request.source_case()) {
    case v1::SimilarPapersRequest::kName: {
      PAPERDB_ASSIGN_OR_RETURN(const std::string id,
                               PaperIdFromName(request.name()));
      PAPERDB_ASSIGN_OR_RETURN(source_doc, table_.FindDocId(id));
      PAPERDB_ASSIGN_OR_RETURN(storage::v1::PaperRecord record,
                               table_.Get(*source_doc));
      text = record.paper().abstract();
      break;
    }
    case v1::SimilarPapersRequest::kText:
      if (request.text().size() > kMaxSimilarTextBytes) {
        return WithField(
            absl::InvalidArgumentError(absl::StrCat(
                "text of ", request.text().size(),
                " bytes is longer than the limit of ", kMaxSimilarTextBytes)),
            "text");
      }
      if (text::FindInvalidUtf8(request.text()).has_value()) {
        return WithField(absl::InvalidArgumentError("text is not valid UTF-8"),
                         "text");
      }
      if (text::StripUnicodeWhitespace(request.text()).empty()) {
        return WithField(
            absl::InvalidArgumentError(
                "text is empty: give the text to find similar papers to"),
            "text");
      }
      text = request.text();
      break;
    default:
      return absl::InvalidArgumentError(
          "set name (a paper to start from) or text");
  }
  PAPERDB_ASSIGN_OR_RETURN(
      const std::vector<search::SimilarTerm> terms,
      search::SelectSimilarTerms(*store_, text, source_doc.has_value(),
                                 kMaxSimilarTerms));
  search::Query query;
  query.root.kind = search::QueryNode::Kind::kAnd;
  search::QueryNode any;
  any.kind = search::QueryNode::Kind::kOr;
  absl::flat_hash_map<std::string, const search::SimilarTerm*> by_term;
  for (const search::SimilarTerm& term : terms) {
    response->add_query_terms(term.word);
    by_term[term.term] = &term;
    search::QueryNode node;
    node.terms.push_back(term.term);
    // Each term counts in proportion to its weight (tf x idf), the best
    // term fully: Lucene's MoreLikeThis with boost on. A word the source
    // repeats outweighs a rare word it writes once.
    node.boost = term.weight / terms.front().weight;
    any.children.push_back(std::move(node));
  }
  if (any.children.empty()) return absl::OkStatus();
  ReplyBudget budget(response->ByteSizeLong());
  query.root.children.push_back(std::move(any));
  const search::Searcher searcher(store_.get(), StatsOrNull());
  PAPERDB_ASSIGN_OR_RETURN(
      const search::SearchHits hits,
      searcher.Search(query, static_cast<size_t>(page_size) + 1, cancelled));
  for (const search::ScoredDoc& hit : hits.top) {
    if (source_doc == hit.doc) continue;
    if (response->results_size() >= page_size) break;
    PAPERDB_ASSIGN_OR_RETURN(storage::v1::PaperRecord record,
                             table_.Get(hit.doc));
    v1::SimilarPaper* similar = response->add_results();
    *similar->mutable_paper() = std::move(*record.mutable_paper());
    similar->set_score(hit.score);
    if (!full_mask) {
      google::protobuf::util::FieldMaskUtil::TrimMessage(request.read_mask(),
                                                         similar);
    }
    if (!budget.Take(ElementBytes(*similar))) {
      // The reply is full (reply_budget.h): fewer results.
      response->mutable_results()->RemoveLast();
      break;
    }
    if (!full_mask &&
        !absl::c_linear_search(request.read_mask().paths(), "shared_terms")) {
      continue;
    }
    PAPERDB_ASSIGN_OR_RETURN(
        const std::vector<search::TermContribution> shared,
        searcher.Explain(query, search::Searcher::MatchedAs::kAllTerms,
                         hit.doc));
    std::vector<const search::SimilarTerm*> shared_terms;
    for (const search::TermContribution& c : shared) {
      if (auto it = by_term.find(c.term); it != by_term.end()) {
        shared_terms.push_back(it->second);
      }
    }
    std::sort(shared_terms.begin(), shared_terms.end(),
              [](const search::SimilarTerm* a, const search::SimilarTerm* b) {
                return a->weight > b->weight;
              });
    for (const search::SimilarTerm* t : shared_terms) {
      similar->add_shared_terms(t->word);
    }
  }
  return absl::OkStatus();
}

}  // namespace paperdb::query
