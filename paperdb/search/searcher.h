// Searcher: evaluates a Query against the inverted index, document at a
// time, and returns the top-k papers by BM25 (bm25.h) with the total number
// of matches.
//
// All required clauses must match (conjunctive evaluation by leapfrogging
// posting iterators, the rarest term leading). If that matches nothing, the
// searcher falls back to papers matching any required clause (disjunctive
// evaluation; a phrase stays one unit), and says so. Phrases are verified
// with positions only on papers that contain all their terms. Excluded
// clauses remove papers in both passes.
//
// Thread safety: Search() may run concurrently. Holds a Store it does not own.

#ifndef PAPERDB_SEARCH_SEARCHER_H_
#define PAPERDB_SEARCH_SEARCHER_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "paperdb/index/bm25.h"
#include "paperdb/search/query.h"
#include "paperdb/storage/store.h"

namespace paperdb::search {

// Returns true once the caller no longer wants the answer.
using CancelFn = std::function<bool()>;

struct ScoredDoc {
  uint32_t doc = 0;    // Internal doc id.
  double score = 0.0;  // BM25 sum over the query's terms.
};

struct SearchHits {
  std::vector<ScoredDoc> top;  // Best first; ties in doc (ingest) order.
  uint64_t total = 0;          // Number of matching papers.
  bool any_terms = false;      // The any-term fallback produced these hits.
};

class Searcher {
 public:
  // `store` must outlive the searcher.
  explicit Searcher(const storage::Store* store, index::Bm25Params params = {})
      : store_(store), params_(params) {}

  // The `top_k` best matches of `query` and the count of all matches.
  // `cancelled`, if set, is polled during evaluation; once it returns true
  // the search stops with CANCELLED.
  // DATA_LOSS if the index is malformed; INTERNAL for store errors.
  absl::StatusOr<SearchHits> Search(const Query& query, size_t top_k,
                                    const CancelFn& cancelled = nullptr) const;

 private:
  const storage::Store* store_;  // Not owned.
  index::Bm25Params params_;
};

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_SEARCHER_H_
