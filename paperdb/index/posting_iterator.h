// PostingIterator: walks one term's posting list, block by block, straight
// from the store, in increasing doc order (document-at-a-time evaluation).
//
// Not thread-safe. Holds a StoreIterator: must be destroyed before the Store.

#ifndef PAPERDB_INDEX_POSTING_ITERATOR_H_
#define PAPERDB_INDEX_POSTING_ITERATOR_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "paperdb/index/posting_block.h"
#include "paperdb/storage/store.h"

namespace paperdb::index {

// doc() once the iterator is exhausted; greater than every real doc id.
inline constexpr uint32_t kNoMoreDocs = UINT32_MAX;

class PostingIterator {
 public:
  // Positions the iterator on the first posting of `term` (doc() ==
  // kNoMoreDocs if there is none). `store` must outlive the iterator.
  PostingIterator(const storage::Store& store, std::string term);

  PostingIterator(const PostingIterator&) = delete;
  PostingIterator& operator=(const PostingIterator&) = delete;

  const std::string& term() const { return term_; }

  // The current doc id, or kNoMoreDocs.
  uint32_t doc() const { return doc_; }

  // Moves to the next posting.
  void Next();

  // Moves to the first posting with doc id >= `target`, skipping whole
  // blocks (and seeking past them in the store) without decoding them.
  // REQUIRES: target > doc() or doc() not yet read.
  void Advance(uint32_t target);

  // Term frequency and document length (terms) of the current posting.
  // REQUIRES: doc() != kNoMoreDocs.
  uint32_t tf() const { return block_->tf(index_); }
  uint32_t doc_length() const { return block_->doc_length(index_); }

  // Positions of the term in the current doc.
  absl::StatusOr<std::vector<uint32_t>> Positions() {
    return block_->Positions(index_);
  }

  // Non-OK if iteration stopped early because of a store error or a
  // malformed block; doc() is then kNoMoreDocs.
  const absl::Status& status() const { return status_; }

 private:
  // Loads the block at the store iterator's position, or ends the iteration.
  void LoadBlock();
  void Fail(absl::Status status);

  std::string term_;
  std::string prefix_;
  std::unique_ptr<storage::StoreIterator> it_;
  std::optional<PostingBlock> block_;
  size_t index_ = 0;
  uint32_t doc_ = kNoMoreDocs;
  absl::Status status_;
};

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_POSTING_ITERATOR_H_
