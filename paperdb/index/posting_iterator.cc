#include "paperdb/index/posting_iterator.h"

#include <utility>

#include "absl/strings/match.h"
#include "paperdb/storage/keys.h"

namespace paperdb::index {
namespace {

// Blocks Advance() steps over one by one before it seeks instead. A seek
// backwards (SeekForPrev) and the turn forward after it cost about as much
// as this many forward steps; profiles of multi-term queries showed seeks
// at a third of the time when every skip sought.
constexpr int kForwardSteps = 8;

}  // namespace

PostingIterator::PostingIterator(const storage::Store& store, std::string term)
    : term_(std::move(term)),
      prefix_(storage::PostingPrefix(term_)),
      it_(store.NewIterator(storage::Column::kPostings)) {
  it_->Seek(prefix_);
  LoadBlock();
}

void PostingIterator::Fail(absl::Status status) {
  status_ = std::move(status);
  decoded_ = false;
  doc_ = kNoMoreDocs;
}

void PostingIterator::LoadBlock() {
  decoded_ = false;
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

bool PostingIterator::Decode() {
  if (doc_ == kNoMoreDocs) return false;
  absl::Status status = block_.DecodeInPlace(first_doc_, it_->value());
  if (!status.ok()) {
    Fail(std::move(status));
    return false;
  }
  decoded_ = true;
  return true;
}

void PostingIterator::NextBlock() {
  if (doc_ == kNoMoreDocs) return;
  it_->Next();
  LoadBlock();
}

void PostingIterator::Next() {
  if (doc_ == kNoMoreDocs || !Decoded()) return;
  if (++index_ < block_.size()) {
    doc_ = block_.doc(index_);
    return;
  }
  it_->Next();
  LoadBlock();
}

void PostingIterator::Advance(uint32_t target) {
  if (doc_ == kNoMoreDocs || doc_ >= target) return;
  // The target lies in a later block. The next few blocks are reached by
  // reading their headers only (a forward step of the store iterator is
  // cheap); past those, seek.
  for (int step = 0; step < kForwardSteps && header_.last_doc < target;
       ++step) {
    it_->Next();
    LoadBlock();
    if (doc_ == kNoMoreDocs) return;
  }
  if (doc_ >= target) return;  // A block starting at the target or after.
  if (header_.last_doc < target) {
    // Seek to the last block starting at or before the target, which is
    // the only one that can contain it.
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
  while (index_ < block_.size() && block_.doc(index_) < target) ++index_;
  if (index_ < block_.size()) {
    doc_ = block_.doc(index_);
    return;
  }
  it_->Next();
  LoadBlock();
}

}  // namespace paperdb::index
