#include "paperdb/index/doc_positions.h"

#include <algorithm>
#include <memory>

#include "absl/strings/match.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/posting_block.h"
#include "paperdb/storage/keys.h"

namespace paperdb::index {
namespace {

// The positions of `doc` in the block `value` starting at `first_doc`.
absl::StatusOr<std::vector<uint32_t>> PositionsInBlock(uint32_t first_doc,
                                                       absl::string_view value,
                                                       uint32_t doc) {
  PostingBlock block;
  PAPERDB_RETURN_IF_ERROR(block.DecodeInPlace(first_doc, value));
  size_t lo = 0, hi = block.size();
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (block.doc(mid) < doc) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  std::vector<uint32_t> positions;
  if (lo == block.size() || block.doc(lo) != doc) return positions;
  PAPERDB_RETURN_IF_ERROR(block.DecodeFrequencies());
  PAPERDB_RETURN_IF_ERROR(block.Positions(lo, &positions));
  return positions;
}

}  // namespace

absl::StatusOr<std::vector<uint32_t>> TermPositionsInDoc(
    const storage::Store& store, PostingCache& cache, absl::string_view term,
    uint32_t doc) {
  if (std::shared_ptr<const PostingList> list = cache.Peek(store, term)) {
    // The last block starting at or before `doc`.
    auto it = std::upper_bound(list->blocks.begin(), list->blocks.end(), doc,
                               [](uint32_t d, const PostingList::Block& b) {
                                 return d < b.first_doc;
                               });
    if (it == list->blocks.begin()) return std::vector<uint32_t>();
    --it;
    if (doc > it->header.last_doc) return std::vector<uint32_t>();
    const size_t i = static_cast<size_t>(it - list->blocks.begin());
    return PositionsInBlock(it->first_doc, list->value(i), doc);
  }
  std::unique_ptr<storage::StoreIterator> it =
      store.NewIterator(storage::Column::kPostings);
  const std::string prefix = storage::PostingPrefix(term);
  it->SeekForPrev(storage::PostingKey(term, doc));
  if (!it->Valid()) {
    PAPERDB_RETURN_IF_ERROR(it->status());
    return std::vector<uint32_t>();
  }
  if (!absl::StartsWith(it->key(), prefix)) return std::vector<uint32_t>();
  PAPERDB_ASSIGN_OR_RETURN(const uint32_t first_doc,
                           storage::FirstDocFromPostingKey(it->key()));
  return PositionsInBlock(first_doc, it->value(), doc);
}

}  // namespace paperdb::index
