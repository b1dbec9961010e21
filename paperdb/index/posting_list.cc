#include "paperdb/index/posting_list.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/storage/keys.h"

namespace paperdb::index {
namespace {

// The Pareto frontier of the decoded block's (tf, length) pairs, at most
// kMaxImpacts of them: the highest tfs kept, lower ones merged into one
// pair that bounds them all (their max tf with their min length).
void SetImpacts(const PostingBlock& block, PostingList::Block* out) {
  // The shortest length for each tf; tfs of kBuckets - 1 and more share the
  // last bucket, which then stands for the block's max tf.
  constexpr uint32_t kBuckets = 16;
  uint32_t shortest[kBuckets];
  std::fill(shortest, shortest + kBuckets, UINT32_MAX);
  for (size_t i = 0; i < block.size(); ++i) {
    const uint32_t bucket = std::min(block.tf(i), kBuckets - 1);
    shortest[bucket] = std::min(shortest[bucket], block.doc_length(i));
  }
  // Highest tf first, a pair counts if it is shorter than every pair with
  // a higher tf: the Pareto frontier, tf falling and length falling.
  PostingList::Impact frontier[kBuckets];
  size_t n = 0;
  for (uint32_t t = kBuckets; t-- > 1;) {
    if (shortest[t] == UINT32_MAX) continue;
    if (n == 0 || shortest[t] < frontier[n - 1].doc_length) {
      const uint32_t tf = t == kBuckets - 1 ? block.header().max_tf : t;
      frontier[n++] = {tf, shortest[t]};
    }
  }
  // At most kMaxImpacts: the lowest tfs merge into one pair that bounds
  // them all (the highest of their tfs, the lowest of their lengths).
  out->impact_count = 0;
  for (size_t i = 0; i < n; ++i) {
    if (out->impact_count == kMaxImpacts - 1 && i + 1 < n) {
      out->impacts[out->impact_count++] = {frontier[i].tf,
                                           frontier[n - 1].doc_length};
      break;
    }
    out->impacts[out->impact_count++] = frontier[i];
  }
}

}  // namespace

absl::StatusOr<std::shared_ptr<const PostingList>> ReadPostingList(
    const storage::Store& store, absl::string_view term) {
  auto list = std::make_shared<PostingList>();
  const std::string prefix = storage::PostingPrefix(term);
  std::unique_ptr<storage::StoreIterator> it =
      store.NewIterator(storage::Column::kPostings);
  PostingBlock decoded;
  std::vector<uint32_t> docs;  // Every doc id, for doc_bits.
  for (it->Seek(prefix); it->Valid() && absl::StartsWith(it->key(), prefix);
       it->Next()) {
    PostingList::Block block;
    absl::StatusOr<uint32_t> first_doc =
        storage::FirstDocFromPostingKey(it->key());
    if (!first_doc.ok()) {
      return absl::DataLossError(absl::StrCat(
          "posting list of \"", term, "\": ", first_doc.status().message()));
    }
    block.first_doc = *first_doc;
    PAPERDB_ASSIGN_OR_RETURN(
        block.header, DecodePostingBlockHeader(block.first_doc, it->value()));
    if (!list->blocks.empty() &&
        block.first_doc <= list->blocks.back().header.last_doc) {
      return absl::DataLossError(
          absl::StrCat("posting list of \"", term, "\": block at doc ",
                       block.first_doc, " overlaps the one before"));
    }
    PAPERDB_RETURN_IF_ERROR(
        decoded.DecodeInPlace(block.first_doc, it->value()));
    PAPERDB_RETURN_IF_ERROR(decoded.DecodeFrequencies());
    SetImpacts(decoded, &block);
    for (size_t i = 0; i < decoded.size(); ++i) docs.push_back(decoded.doc(i));
    block.offset = static_cast<uint32_t>(list->data.size());
    block.size = static_cast<uint32_t>(it->value().size());
    list->data.append(it->value().data(), it->value().size());
    list->blocks.push_back(block);
  }
  PAPERDB_RETURN_IF_ERROR(it->status());
  if (!docs.empty() &&
      static_cast<uint64_t>(docs.size()) * PostingList::kDenseEvery >=
          static_cast<uint64_t>(docs.back()) + 1) {
    list->doc_bits.assign((static_cast<size_t>(docs.back()) >> 6) + 1, 0);
    for (const uint32_t doc : docs) {
      list->doc_bits[doc >> 6] |= uint64_t{1} << (doc & 63);
    }
  }
  list->data.shrink_to_fit();
  list->blocks.shrink_to_fit();
  return std::shared_ptr<const PostingList>(std::move(list));
}

}  // namespace paperdb::index
