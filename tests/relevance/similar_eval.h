// SimilarPapers judged by the query splits' judgments: papers a judged
// query is clearly about (graded kMrrMinGrade or more) are similar to one
// another. Each such paper of a query with two or more is a source; the
// query's other judged papers, with their grades, are what its similar
// papers should be. (The source's own grade does not enter.)

#ifndef PAPERDB_TESTS_RELEVANCE_SIMILAR_EVAL_H_
#define PAPERDB_TESTS_RELEVANCE_SIMILAR_EVAL_H_

#include <vector>

#include "absl/status/statusor.h"
#include "query_service/query_engine.h"
#include "tests/relevance/relevance.h"

namespace paperdb::relevance {

struct SimilarScore {
  int pairs = 0;      // (query, source paper) pairs scored.
  double ndcg = 0.0;  // Mean nDCG@10 of SimilarPapers over the pairs.
};

// SimilarPapers (page_size kCutoff) of each source through `engine`, scored
// by Ndcg() against its query's other judged papers. An error of the
// engine is returned as is.
absl::StatusOr<SimilarScore> EvaluateSimilarPapers(
    const query::QueryEngine& engine, const std::vector<JudgedQuery>& queries);

}  // namespace paperdb::relevance

#endif  // PAPERDB_TESTS_RELEVANCE_SIMILAR_EVAL_H_
