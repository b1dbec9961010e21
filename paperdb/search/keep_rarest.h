// KeepRarestWords: a top-level conjunction of more than kMaxConjunctionTerms
// words (a pasted abstract) keeps its rarest ones; the others are dropped,
// and a kDropped rewrite names them.

#ifndef PAPERDB_SEARCH_KEEP_RAREST_H_
#define PAPERDB_SEARCH_KEEP_RAREST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "paperdb/search/query.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/storage/store.h"

namespace paperdb::search {

// Keeps the kMaxConjunctionTerms (query_expander.h) rarest unexcluded words
// among `root`'s direct kTerm children, in query order, and appends a
// kDropped rewrite naming the others' terms to `rewrites`. `dfs` caches
// document frequencies by term: read from it, filled from the store for
// terms it lacks. No change at or under the limit. Store errors; DATA_LOSS
// for a bad document frequency.
absl::Status KeepRarestWords(const storage::Store& store, QueryNode* root,
                             absl::flat_hash_map<std::string, uint32_t>* dfs,
                             std::vector<QueryRewrite>* rewrites);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_KEEP_RAREST_H_
