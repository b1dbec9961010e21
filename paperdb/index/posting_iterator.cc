#include "paperdb/index/posting_iterator.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "paperdb/index/posting_cache.h"

namespace paperdb::index {

PostingIterator::PostingIterator(const storage::Store& store, std::string term)
    : term_(std::move(term)) {
  absl::StatusOr<std::shared_ptr<const PostingList>> list =
      PostingCache::Default().Get(store, term_);
  if (!list.ok()) {
    Fail(list.status());
    return;
  }
  list_ = *std::move(list);
  LoadBlock(0);
}

void PostingIterator::Fail(absl::Status status) {
  status_ = std::move(status);
  decoded_ = false;
  doc_ = kNoMoreDocs;
}

void PostingIterator::LoadBlock(size_t i) {
  decoded_ = false;
  index_ = 0;
  block_index_ = i;
  if (i >= list_->blocks.size()) {
    doc_ = kNoMoreDocs;
    return;
  }
  const PostingList::Block& block = list_->blocks[i];
  header_ = block.header;
  first_doc_ = block.first_doc;
  doc_ = first_doc_;  // A block's first posting is the doc in its key.
  located_doc_ = first_doc_;
}

bool PostingIterator::Decode() {
  if (doc_ == kNoMoreDocs) return false;
  absl::Status status = block_.Open(first_doc_, list_->value(block_index_));
  if (!status.ok()) {
    Fail(std::move(status));
    return false;
  }
  decoded_ = true;
  return true;
}

bool PostingIterator::DecodeFrequencies() {
  absl::Status status = block_.DecodeFrequencies();
  if (!status.ok()) {
    Fail(std::move(status));
    return false;
  }
  return true;
}

const PostingList::Block* PostingIterator::ShallowAdvance(uint32_t target) {
  if (list_ == nullptr || !status_.ok()) return nullptr;
  const auto& blocks = list_->blocks;
  size_t i = std::max(shallow_index_, block_index_);
  if (i < blocks.size() && blocks[i].header.last_doc < target) {
    i = static_cast<size_t>(
        std::partition_point(blocks.begin() + static_cast<std::ptrdiff_t>(i),
                             blocks.end(),
                             [target](const PostingList::Block& b) {
                               return b.header.last_doc < target;
                             }) -
        blocks.begin());
  }
  shallow_index_ = i;
  return i < blocks.size() ? &blocks[i] : nullptr;
}

bool PostingIterator::LocateSlow() {
  located_ = true;
  if (doc_ == kNoMoreDocs) return true;
  const uint32_t doc = doc_;
  // Docs of the list from the last located one (at index_) to `doc`,
  // counted in the bitset: successive candidates in a block are a few words
  // of it apart, where the block's start may be dozens.
  uint32_t from = located_doc_;
  uint32_t base = static_cast<uint32_t>(index_);
  if (header_.last_doc < doc) {
    const auto& blocks = list_->blocks;
    const auto next = std::partition_point(
        blocks.begin() + static_cast<std::ptrdiff_t>(block_index_) + 1,
        blocks.end(),
        [doc](const PostingList::Block& b) { return b.header.last_doc < doc; });
    LoadBlock(static_cast<size_t>(next - blocks.begin()));
    from = first_doc_;
    base = 0;
  }
  if (doc_ == kNoMoreDocs || !Decoded()) {
    Fail(absl::DataLossError(
        absl::StrCat("posting list of \"", term_, "\": doc ", doc,
                     " is in its bitset but in none of its blocks")));
    return false;
  }
  // Its index in the block is the number of the list's docs before it in
  // the block: counted in the bitset, no doc gap decoded.
  const uint32_t counted = list_->Rank(from, doc);
  if (counted < block_.size() && base + counted < block_.size()) {
    const uint32_t rank = base + counted;
    index_ = rank;
    doc_ = doc;
    located_doc_ = doc;
    return true;
  }
  index_ = block_.SeekDoc(index_, doc);
  if (index_ == block_.size() || block_.doc(index_) != doc) {
    Fail(block_.status().ok()
             ? absl::DataLossError(
                   absl::StrCat("posting list of \"", term_, "\": doc ", doc,
                                " is in its bitset but not in its block"))
             : block_.status());
    return false;
  }
  doc_ = doc;
  located_doc_ = doc;
  return true;
}

void PostingIterator::NextBlock() {
  if (doc_ == kNoMoreDocs || !Locate()) return;
  LoadBlock(block_index_ + 1);
}

void PostingIterator::Next() {
  if (doc_ == kNoMoreDocs || !Locate() || !Decoded()) return;
  if (++index_ < block_.size()) {
    if (!block_.DecodeDocsThrough(index_)) {
      Fail(block_.status());
      return;
    }
    doc_ = block_.doc(index_);
    return;
  }
  LoadBlock(block_index_ + 1);
}

bool PostingIterator::DecodeTfs() {
  if (!Decoded()) return false;
  if (!block_.DecodeTfsThrough(index_)) {
    Fail(block_.status());
    return false;
  }
  return true;
}

bool PostingIterator::DecodeLengths() {
  if (!Decoded()) return false;
  if (!block_.DecodeLengthsThrough(index_)) {
    Fail(block_.status());
    return false;
  }
  return true;
}

bool PostingIterator::BlockFrequencies(absl::Span<const uint32_t>* tfs,
                                       absl::Span<const uint32_t>* lengths) {
  if (!Locate() || !Frequencies()) return false;
  const size_t n = block_.size() - index_;
  *tfs = absl::Span<const uint32_t>(block_.tfs() + index_, n);
  *lengths = absl::Span<const uint32_t>(block_.doc_lengths() + index_, n);
  return true;
}

absl::Span<const uint32_t> PostingIterator::BlockTfs() {
  if (!Locate() || !Decoded()) return {};
  if (!block_.DecodeTfsThrough(block_.size() - 1)) {
    Fail(block_.status());
    return {};
  }
  return absl::Span<const uint32_t>(block_.tfs() + index_,
                                    block_.size() - index_);
}

void PostingIterator::Advance(uint32_t target) {
  if (doc_ == kNoMoreDocs || doc_ >= target) return;
  if (!list_->doc_bits.empty()) {
    if (located_) located_doc_ = doc_;  // The doc at index_.
    doc_ = list_->NextDoc(target);
    located_ = false;
    return;
  }
  if (header_.last_doc < target) {
    // The first later block that ends at or after the target is the only
    // one that can hold it.
    const auto& blocks = list_->blocks;
    const auto next = std::partition_point(
        blocks.begin() + static_cast<std::ptrdiff_t>(block_index_) + 1,
        blocks.end(), [target](const PostingList::Block& b) {
          return b.header.last_doc < target;
        });
    LoadBlock(static_cast<size_t>(next - blocks.begin()));
    if (doc_ >= target) return;  // Also when past the end.
  }
  if (!Decoded()) return;
  // The last doc is >= target: only a malformed block finds none.
  index_ = block_.SeekDoc(index_, target);
  if (index_ == block_.size()) {
    Fail(block_.status().ok()
             ? absl::DataLossError("posting block: malformed doc gaps")
             : block_.status());
    return;
  }
  doc_ = block_.doc(index_);
}

}  // namespace paperdb::index
