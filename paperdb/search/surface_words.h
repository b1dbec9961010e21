// Words to show for index terms in a query's rewrites.
//
// Thread safety: pure functions of the store's state.

#ifndef PAPERDB_SEARCH_SURFACE_WORDS_H_
#define PAPERDB_SEARCH_SURFACE_WORDS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "paperdb/search/cancel.h"
#include "paperdb/storage/store.h"

namespace paperdb::search {

// For each of `terms`, the word of a stored abstract that analyzes to it,
// case-folded ("indicators" for "indic"), or the term itself if none is
// found: what a user recognises in a rewrite. Each abstract is read and
// analyzed once, however many of the terms it holds first (a prefix's 64
// terms may all come from one long abstract). CANCELLED once `cancelled`
// says so; store errors.
absl::StatusOr<std::vector<std::string>> SurfaceWords(
    const storage::Store& store, const std::vector<std::string>& terms,
    const CancelFn& cancelled);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_SURFACE_WORDS_H_
