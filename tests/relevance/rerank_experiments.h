// Two published reranking models, measured on the judged splits beside
// paperdb's ranking and not adopted by it (docs/relevance.md says why):
//
//  - RM3 pseudo-relevance feedback (Lavrenko and Croft, 2001; the
//    parameters are Anserini's defaults): the 10 most probable terms of a
//    relevance model estimated from the top `rm3_docs` results, each
//    document weighted by its share of their scores and each term by its
//    frequency over the document's length, interpolated with the query at
//    `rm3_original_weight`.
//  - The sequential dependence model (Metzler and Croft, 2005; weights
//    0.85 / 0.10 / 0.05): BM25 of each pair of adjacent query words as an
//    ordered pair (at most one stopword between them) and as an unordered
//    pair within 8 words, added to the words' score.
//
// Both rerank the results paperdb returned (full matches before partial
// ones, as paperdb ranks them), with BM25 (k1 1.2, b 0.75) over the corpus
// as paperdb's analyzer reads it: stopwords, function words, numbers and
// joined compounds left out.

#ifndef PAPERDB_TESTS_RELEVANCE_RERANK_EXPERIMENTS_H_
#define PAPERDB_TESTS_RELEVANCE_RERANK_EXPERIMENTS_H_

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/v1/query_service.pb.h"

namespace paperdb::relevance {

struct RerankOptions {
  // RM3: the original query's weight in (0, 1]; 1 turns RM3 off.
  double rm3_original_weight = 1.0;
  int rm3_docs = 10;
  int rm3_terms = 10;
  // The sequential dependence model's weights of the ordered and unordered
  // pair features, relative to the words' 0.85; 0 turns each off.
  double sdm_ordered = 0.0;
  double sdm_unordered = 0.0;

  bool enabled() const {
    return rm3_original_weight < 1.0 || sdm_ordered > 0.0 ||
           sdm_unordered > 0.0;
  }
};

class RerankCorpus {
 public:
  // Analyzes every paper's abstract. INTERNAL if the analyzer cannot be made.
  static absl::StatusOr<std::unique_ptr<RerankCorpus>> Build(
      const std::vector<v1::Paper>& papers);

  // The ids of `response`'s results reranked for `query` by `options`:
  // full matches first, each tier by its score plus the models' terms.
  std::vector<std::string> Rerank(const std::string& query,
                                  const v1::SearchPapersResponse& response,
                                  const RerankOptions& options);

 private:
  struct Doc {
    std::map<std::string, int> tf;
    std::vector<std::pair<std::string, uint32_t>> words;  // Term, position.
    int length = 0;
  };

  explicit RerankCorpus(std::unique_ptr<text::Analyzer> analyzer)
      : analyzer_(std::move(analyzer)) {}
  std::vector<std::pair<std::string, uint32_t>> ContentWords(
      const std::string& text);
  double Bm25(int tf, int df, int length) const;
  // Occurrences in `doc` of `a` followed by `b` within the window: at most
  // `window` positions after it (ordered), or either side (unordered).
  static int PairCount(const Doc& doc, const std::string& a,
                       const std::string& b, bool ordered, uint32_t window);
  double PairScore(const std::vector<std::string>& words, const Doc& doc,
                   bool ordered, uint32_t window);
  double Rm3Score(const std::vector<std::pair<double, std::string>>& model,
                  const Doc& doc) const;

  std::unique_ptr<text::Analyzer> analyzer_;
  std::map<std::string, Doc> docs_;
  std::map<std::string, int> df_;
  std::map<std::string, int> pair_df_;  // Cache of PairScore's dfs.
  double average_length_ = 0.0;
};

}  // namespace paperdb::relevance

#endif  // PAPERDB_TESTS_RELEVANCE_RERANK_EXPERIMENTS_H_
