// The pieces of the relevance evaluation (tests/relevance/README.md) that
// do not need a store: the judged query set, the metrics, and the
// translation of a paperdb query into SQLite FTS5's query syntax.

#ifndef PAPERDB_TESTS_RELEVANCE_RELEVANCE_H_
#define PAPERDB_TESTS_RELEVANCE_RELEVANCE_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace paperdb::relevance {

// The tier of queries that no abstract is about. What makes a query scored
// by NoRelevantScore() is having no judged paper, whatever its tier; this
// name only lets LoadJudgedQueries() warn about a mix-up.
inline constexpr absl::string_view kNoRelevantTier = "none";

// Results considered per query: nDCG@10 and MRR@10.
inline constexpr int kCutoff = 10;

// Lowest grade that counts as a hit for MRR ("clearly relevant").
inline constexpr int kMrrMinGrade = 2;

struct JudgedQuery {
  std::string id;                     // e.g. "typo-03"
  std::string tier;                   // e.g. "typo"
  std::string text;                   // The query as a user types it.
  std::map<std::string, int> grades;  // Paper id -> grade 1..3.

  // No paper is relevant: scored by NoRelevantScore().
  bool no_relevant() const { return grades.empty(); }
};

// Reads queries.tsv (query_id TAB tier TAB query) and judgments.tsv
// (query_id TAB paper_id TAB grade [TAB note]); lines starting with '#' and
// the header lines (first field "query_id") are skipped. INVALID_ARGUMENT
// naming file and line for a malformed line, a duplicate query id, a grade
// outside 0..3 or a judgment for an unknown query. `notes` (if set)
// receives paper id -> note; `warnings` (if set) a line for each query of
// the kNoRelevantTier with a judged paper (it is then scored by nDCG and
// MRR), each query of another tier with none (scored as no-relevant), and
// each judged query without a paper graded kMrrMinGrade or more (its MRR is
// always 0).
absl::StatusOr<std::vector<JudgedQuery>> LoadJudgedQueries(
    const std::string& queries_path, const std::string& judgments_path,
    std::map<std::string, std::string>* notes = nullptr,
    std::vector<std::string>* warnings = nullptr);

// What an engine returned for one query.
struct Ranking {
  std::vector<std::string> ids;  // Paper ids, best first, at most kCutoff.
  bool any_terms = false;        // The engine fell back to any-term matching.
  std::string error;             // Non-empty if the engine rejected the query.
};

// nDCG@kCutoff with gains 2^grade - 1, log2(rank + 1) discounts, and the
// ideal ranking built from all of the query's judgments. 0 if none.
double Ndcg(const JudgedQuery& query, const Ranking& ranking);

// Reciprocal rank of the first result graded >= kMrrMinGrade within
// kCutoff, else 0.
double ReciprocalRank(const JudgedQuery& query, const Ranking& ranking);

// For a query without relevant paper (JudgedQuery::no_relevant(), the
// kNoRelevantTier): 1 if the engine returned nothing or said that it
// fell back to any-term matching (nothing matched every term), else 0.
double NoRelevantScore(const Ranking& ranking);

// Translates a paperdb query into an FTS5 MATCH expression over one
// column: each word becomes a quoted string ("ResNet-18" is then matched as
// FTS5 tokenizes it, i.e. as a phrase), "quoted phrases" stay phrases, and
// terms are ANDed, or ORed if `any_terms`; -word and -"phrase" become NOT;
// word* stays a prefix, "phrase"~N becomes NEAR(...,N), OR and parentheses
// are kept (when not `any_terms`). Unquoted stopwords (Lucene's English
// list, as paperdb) are dropped. Field filters (venue:ICLR, year:2024,
// has:code, host:...) are dropped, since the FTS5 table holds only
// abstracts; method:X and dataset:X keep X as a word. Returns "" when
// nothing is left to match.
std::string ToFts5Query(absl::string_view query, bool any_terms);

// Per-tier (and overall) means of the per-query scores.
struct Summary {
  std::string tier;  // "all" for the overall row.
  int queries = 0;
  double ndcg[2] = {0, 0};  // [engine]: 0 paperdb, 1 FTS5.
  double mrr[2] = {0, 0};
};

}  // namespace paperdb::relevance

#endif  // PAPERDB_TESTS_RELEVANCE_RELEVANCE_H_
