// The positions of one term in one paper, for highlighting a page of
// results: from the term's cached posting list if the cache holds it, else
// from the single posting block that covers the paper.

#ifndef PAPERDB_INDEX_DOC_POSITIONS_H_
#define PAPERDB_INDEX_DOC_POSITIONS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/index/posting_cache.h"
#include "paperdb/storage/store.h"

namespace paperdb::index {

// Token positions of `term` in paper `doc`, ascending; empty if the paper
// does not hold the term. Reads through `cache` without filling it (a list
// too large to cache costs one block read, not the whole list). DATA_LOSS
// for a malformed block; INTERNAL for store errors.
absl::StatusOr<std::vector<uint32_t>> TermPositionsInDoc(
    const storage::Store& store, PostingCache& cache, absl::string_view term,
    uint32_t doc);

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_DOC_POSITIONS_H_
