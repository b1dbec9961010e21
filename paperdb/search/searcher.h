// Searcher: evaluates an expanded Query (query_expander.h) against the
// inverted index, document at a time (doc_iterator.h), and returns the top
// k papers with the number of matches: exact up to kExactTotalUpTo, and
// past it, in relevance order, an estimate, so that block-max pruning can
// skip the matches that cannot reach the top k instead of counting them.
//
// If a conjunction of several words and phrases matches nothing, the
// searcher falls back to papers matching any of them (a phrase stays one
// unit; field filters and exclusions still apply), and says so. If it
// matches fewer than kFillBelow papers, in relevance order, those come
// first and papers matching some of the words follow (Meilisearch's
// matching strategy "last" and Lucene's coordination in one rule), unless
// the words' postings exceed kMaxFillPostings. Ranking is
// BM25 (bm25.h), or year or ingest order on request, ties always broken by
// doc id (ingest order).
//
// Paging is by keyset cursor (search_after): a next page holds the results
// strictly after the previous page's last one (SearchOptions::after), scored
// with the statistics the first page used (ScoringPin), so that a paper the
// store held unchanged throughout appears exactly once however papers are
// ingested or deleted between pages.
//
// Thread safety: Search() may run concurrently. Holds a Store it does not own.

#ifndef PAPERDB_SEARCH_SEARCHER_H_
#define PAPERDB_SEARCH_SEARCHER_H_

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/index/bm25.h"
#include "paperdb/search/doc_iterator.h"
#include "paperdb/search/query.h"
#include "paperdb/storage/store.h"
#include "paperdb/storage/v1/records.pb.h"

namespace paperdb::search {

// Results' scores are BM25 rounded down to a multiple of kScoreUnit
// (2^-20, about 1e-6): a paper scored with sums in another order (a later
// page evaluated by another strategy) then compares with a page cursor as
// it did, and papers whose scores round alike rank by doc id.
inline constexpr double kScoreUnit = 1.0 / 1048576.0;
inline double RoundedScore(double score) {
  // Truncation is floor for the scores BM25 gives (non-negative, small),
  // and much cheaper than std::floor without SSE4.1.
  if (score >= 0.0 && score < 1e12) {
    return static_cast<double>(static_cast<int64_t>(score / kScoreUnit)) *
           kScoreUnit;
  }
  return std::floor(score / kScoreUnit) * kScoreUnit;
}

// A paper's year as year orders sort it: kNoYear for none (sorted last).
inline constexpr int32_t kNoYear = -1;

struct ScoredDoc {
  uint32_t doc = 0;    // Internal doc id.
  double score = 0.0;  // BM25 over the query's terms (RoundedScore()).
  // In year orders, the year the paper sorted by (kNoYear: none); else
  // kNoYear.
  int32_t year = kNoYear;
};

// A result's place in its listing, for keyset paging: its tier (0: the
// full matches, or the any-term fallback's matches; 1: the partial matches
// after a few full ones, SearchHits::full_matches), then its key in the
// order: score (relevance), year (year orders), and doc id.
struct ResultKey {
  int tier = 0;
  ScoredDoc doc;
};

// How a search matched and scored, for later pages to match and score the
// same way however the store changed since: the statistics of a point in
// time, carried by the page token rather than held by the server.
struct ScoringPin {
  enum class Mode {
    kAllTerms,  // Full matches only.
    kThenSome,  // Full matches, then partial ones (tier 1).
    kAnyTerms,  // The any-term fallback.
  };
  Mode mode = Mode::kAllTerms;
  uint64_t doc_count = 0;               // BM25's N.
  uint64_t total_doc_length_terms = 0;  // N times the average doc length.
  // Document frequency of each term the search read, by PinnedTermHash().
  absl::flat_hash_map<uint32_t, uint32_t> dfs;
};

// The key of `term` in ScoringPin::dfs: 32 bits of Hash64 (a collision
// among one query's terms is a 1 in 10^7 event at 300 terms).
uint32_t PinnedTermHash(absl::string_view term);

enum class SortOrder {
  kRelevance,       // BM25, best first (default).
  kYearDescending,  // Newest first (papers without a year last).
  kYearAscending,   // Oldest first (papers without a year last).
  kIngestOrder,     // Doc id ascending: first ingested first.
  kIngestDescending,
};

// With fewer full matches than this (but some), in relevance order, the
// results continue with papers matching part of the query.
inline constexpr size_t kFillBelow = 10;
// ... unless the words' posting lists hold more than this many postings in
// all (a very common word among them): then the full matches stand alone.
inline constexpr uint64_t kMaxFillPostings = 20000;

// Relevance-ordered searches count matches exactly until this many are
// found; past it, matches in blocks that cannot reach the top k are skipped
// uncounted and the total is an estimate. As Lucene's default total-hits
// threshold (TotalHits.Relation) and Meilisearch's estimatedTotalHits.
inline constexpr uint64_t kExactTotalUpTo = 1000;

struct SearchOptions {
  size_t top_k = 10;
  SortOrder order = SortOrder::kRelevance;
  // Also return every matching doc id (for facet counts).
  bool collect_matches = false;
  // Skip scoring matches whose blocks cannot reach the top k (block-max
  // pruning of a conjunction's or any other tree's matches). The results
  // are the same either way. false turns it off; with collect_matches too
  // (which rules out the single-term and MaxScore disjunction paths),
  // every match is scored: the reference in tests of the pruning.
  bool prune = true;
  // Count exactly up to this many matches (relevance order without
  // collect_matches; other searches always count exactly). UINT64_MAX
  // counts every match.
  uint64_t exact_total_up_to = kExactTotalUpTo;
  // Papers matching part of the query may follow the full matches (fewer
  // than kFillBelow of them) or replace them (none: the any-term fallback).
  // false: full matches only, a boolean AND.
  bool partial_matches = true;
  // Only results strictly after this one in `order` (search_after; the last
  // result of the previous page). Totals still count every match.
  std::optional<ResultKey> after = std::nullopt;
  // Score and match as this pin says (a first page's SearchHits::pin)
  // rather than by the store's current statistics. A term the pin lacks
  // uses its current document frequency. Not owned; may be null.
  const ScoringPin* pin = nullptr;
};

struct SearchHits {
  std::vector<ScoredDoc> top;  // In the requested order.
  // Number of matching papers; with total_estimated, an estimate that is
  // at least exact_total_up_to (and at least the matches counted).
  uint64_t total = 0;
  bool total_estimated = false;
  bool any_terms = false;  // The any-term fallback produced these.
  // top[0, full_matches) match the whole query; the rest (relevance order
  // only, when fewer than kFillBelow papers match it all) match part of it.
  size_t full_matches = 0;
  // Matches of the whole query over all pages (total counts partial ones
  // too); 0 with any_terms. Estimated when total is.
  uint64_t full_total = 0;
  std::vector<uint32_t> matches;  // Sorted; with collect_matches only.
  // What this search matched and scored with: SearchOptions::pin for the
  // next pages.
  ScoringPin pin = {};
};

class Searcher {
 public:
  // `store` must outlive the searcher.
  explicit Searcher(const storage::Store* store, index::Bm25Params params = {})
      : store_(store), params_(params) {}

  // With `stats`, the store's corpus statistics (PaperTable::Stats()) as the
  // caller keeps them, read once instead of at every search. `stats` must
  // outlive the searcher and match the store as it is searched.
  Searcher(const storage::Store* store, const storage::v1::CorpusStats* stats,
           index::Bm25Params params = {})
      : store_(store), stats_(stats), params_(params) {}

  // The best `options.top_k` matches of `query` (already expanded) and the
  // count of all matches (SearchHits::total). `cancelled`, if set, is polled
  // during evaluation; once it returns true the search stops with CANCELLED.
  // DATA_LOSS if the index is malformed; INTERNAL for store errors.
  absl::StatusOr<SearchHits> Search(const Query& query,
                                    const SearchOptions& options,
                                    const CancelFn& cancelled = nullptr) const;

  // Shorthand for relevance order without collecting matches.
  absl::StatusOr<SearchHits> Search(const Query& query, size_t top_k,
                                    const CancelFn& cancelled = nullptr) const {
    return Search(query, SearchOptions{.top_k = top_k}, cancelled);
  }

  // How a result was matched, for Explain().
  enum class MatchedAs {
    kAllTerms,   // A full match.
    kSomeTerms,  // A partial match after the full ones (top[full_matches..]).
    kAnyTerms,   // The any-term fallback (any_terms).
  };

  // The query a result matched `as`: `query.root` for a full match; for a
  // partial one (kSomeTerms) or the any-term fallback (kAnyTerms), the
  // disjunction of its words and phrases that ranked it (a hyphenated
  // word's parts counted one by one, function words only when the query
  // has nothing else), with its filters and exclusions. What Explain() scores,
  // and what highlights should show.
  static QueryNode MatchedQuery(const Query& query, MatchedAs as);

  // The BM25 contribution of each query term to `doc`'s score, as it was
  // scored when matched `as`, with `pin`'s statistics if given. Empty if
  // `doc` does not match.
  absl::StatusOr<std::vector<TermContribution>> Explain(
      const Query& query, MatchedAs as, uint32_t doc,
      const ScoringPin* pin = nullptr) const;

 private:
  const storage::Store* store_;                      // Not owned.
  const storage::v1::CorpusStats* stats_ = nullptr;  // Not owned; optional.
  index::Bm25Params params_;
};

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_SEARCHER_H_
