#include "paperdb/index/posting_iterator.h"

#include <utility>

#include "absl/strings/match.h"
#include "paperdb/storage/keys.h"

namespace paperdb::index {

PostingIterator::PostingIterator(const storage::Store& store, std::string term)
    : term_(std::move(term)),
      prefix_(storage::PostingPrefix(term_)),
      it_(store.NewIterator(storage::Column::kPostings)) {
  it_->Seek(prefix_);
  LoadBlock();
}

void PostingIterator::Fail(absl::Status status) {
  status_ = std::move(status);
  block_.reset();
  doc_ = kNoMoreDocs;
}

void PostingIterator::LoadBlock() {
  block_.reset();
  index_ = 0;
  if (!it_->Valid() || !absl::StartsWith(it_->key(), prefix_)) {
    doc_ = kNoMoreDocs;
    if (!it_->status().ok()) Fail(it_->status());
    return;
  }
  absl::StatusOr<uint32_t> first_doc =
      storage::FirstDocFromPostingKey(it_->key());
  if (!first_doc.ok()) return Fail(first_doc.status());
  absl::StatusOr<PostingBlockHeader> header =
      DecodePostingBlockHeader(*first_doc, it_->value());
  if (!header.ok()) return Fail(header.status());
  header_ = *header;
  first_doc_ = *first_doc;
  doc_ = first_doc_;  // A block's first posting is the doc in its key.
}

bool PostingIterator::Decoded() {
  if (block_.has_value()) return true;
  if (doc_ == kNoMoreDocs) return false;
  absl::StatusOr<PostingBlock> block =
      PostingBlock::Decode(first_doc_, it_->value());
  if (!block.ok()) {
    Fail(block.status());
    return false;
  }
  block_ = *std::move(block);
  return true;
}

void PostingIterator::NextBlock() {
  if (doc_ == kNoMoreDocs) return;
  it_->Next();
  LoadBlock();
}

void PostingIterator::Next() {
  if (doc_ == kNoMoreDocs || !Decoded()) return;
  if (++index_ < block_->size()) {
    doc_ = block_->doc(index_);
    return;
  }
  it_->Next();
  LoadBlock();
}

void PostingIterator::Advance(uint32_t target) {
  if (doc_ == kNoMoreDocs || doc_ >= target) return;
  if (header_.last_doc < target) {
    // The target lies in a later block: seek to the last block starting at
    // or before it, which is the only one that can contain it.
    it_->SeekForPrev(storage::PostingKey(term_, target));
    if (!it_->Valid() || !absl::StartsWith(it_->key(), prefix_)) {
      it_->Seek(prefix_);  // Unreachable: the current block starts <= target.
    }
    LoadBlock();
    if (doc_ == kNoMoreDocs) return;
    if (header_.last_doc < target) {
      it_->Next();
      LoadBlock();
      if (doc_ == kNoMoreDocs) return;
    }
    if (doc_ >= target) return;  // The block starts at the target or after.
  }
  if (!Decoded()) return;
  while (index_ < block_->size() && block_->doc(index_) < target) ++index_;
  if (index_ < block_->size()) {
    doc_ = block_->doc(index_);
    return;
  }
  it_->Next();
  LoadBlock();
}

}  // namespace paperdb::index
