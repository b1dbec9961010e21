// PostingIterator: walks one term's posting list, block by block, in
// increasing doc order (document-at-a-time evaluation). The list comes
// whole from PostingCache::Default() (read from the store on a miss), so
// skipping is a binary search over its block directory and decoding reads
// memory.
//
// Not thread-safe.

#ifndef PAPERDB_INDEX_POSTING_ITERATOR_H_
#define PAPERDB_INDEX_POSTING_ITERATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/next_words.h"
#include "paperdb/index/posting_block.h"
#include "paperdb/index/posting_list.h"
#include "paperdb/storage/store.h"

namespace paperdb::index {

// doc() once the iterator is exhausted; greater than every real doc id.
inline constexpr uint32_t kNoMoreDocs = UINT32_MAX;

class PostingIterator {
 public:
  // Positions the iterator on the first posting of `term` (doc() ==
  // kNoMoreDocs if there is none), reading the list through
  // PostingCache::Default(); the iterator holds the list, not the store. A
  // read error leaves doc() == kNoMoreDocs and status() non-OK.
  PostingIterator(const storage::Store& store, std::string term);

  PostingIterator(const PostingIterator&) = delete;
  PostingIterator& operator=(const PostingIterator&) = delete;

  const std::string& term() const { return term_; }

  // The current doc id, or kNoMoreDocs.
  uint32_t doc() const { return doc_; }

  // Moves to the next posting.
  void Next();

  // Moves to the first posting with doc id >= `target`, skipping whole
  // blocks (found by binary search on their last doc ids) without decoding
  // them. On a dense list (PostingList::doc_bits) the doc id comes from
  // the bitset, and its block is only found and decoded when something
  // else than doc() is asked for.
  // REQUIRES: target > doc() or doc() not yet read.
  void Advance(uint32_t target);

  // Moves to the first posting of the next block without decoding this
  // one: the skip of block-max pruning.
  void NextBlock();

  // Header of the current block (doc range, max tf, min length), known
  // without decoding its postings. REQUIRES: doc() != kNoMoreDocs.
  const PostingBlockHeader& block_header() {
    Locate();
    return header_;
  }

  // The directory entry of the current block (its header and impacts).
  // REQUIRES: doc() != kNoMoreDocs.
  const PostingList::Block& block() {
    Locate();
    return list_->blocks[block_index_];
  }

  // The skip data of block-max pruning (Lucene's advanceShallow): the
  // directory entry of the first block, from the current one on, that ends
  // at or after `target`, found without moving doc() or decoding anything;
  // null if there is none. REQUIRES: targets never decrease between calls
  // (and are not below doc()).
  const PostingList::Block* ShallowAdvance(uint32_t target);

  // Term frequency and document length (terms) of the current posting. The
  // block's are decoded on first use, as far as the current posting; if
  // that fails, status() says so, doc() becomes kNoMoreDocs and 0 is
  // returned. REQUIRES: doc() != kNoMoreDocs.
  uint32_t tf() { return Locate() && DecodeTfs() ? block_.tf(index_) : 0; }
  uint32_t doc_length() {
    return Locate() && DecodeLengths() ? block_.doc_length(index_) : 0;
  }

  // The term frequencies and document lengths of the current block's
  // postings from the current one on: [0] is doc()'s, then those of the
  // term's later docs in the block, in doc order (as its bitset lists them,
  // for a dense list). Decodes all of the block's. False if that fails
  // (status() says why). REQUIRES: doc() != kNoMoreDocs.
  bool BlockFrequencies(absl::Span<const uint32_t>* tfs,
                        absl::Span<const uint32_t>* lengths);
  // The term frequencies of BlockFrequencies(), without the lengths; empty
  // on an error.
  absl::Span<const uint32_t> BlockTfs();
  // The next-word masks (next_words.h) of the same postings, read in
  // place; empty on an error.
  absl::Span<const uint8_t> BlockNextWords() {
    if (!Locate() || !Decoded()) return {};
    return absl::Span<const uint8_t>(block_.next_words_data() + index_,
                                     block_.size() - index_);
  }

  // The current posting's next-word mask (next_words.h): read in place,
  // without decoding positions. kAnyNextWord if its block is malformed
  // (status() says why). REQUIRES: doc() != kNoMoreDocs.
  uint8_t next_words() {
    return Locate() && Decoded() ? block_.next_words(index_) : kAnyNextWord;
  }

  // Replaces *out with the positions of the term in the current doc,
  // reusing its memory.
  absl::Status Positions(std::vector<uint32_t>* out) {
    if (!Locate() || !Decoded()) return status_;
    return block_.Positions(index_, out);
  }
  absl::StatusOr<std::vector<uint32_t>> Positions() {
    std::vector<uint32_t> positions;
    PAPERDB_RETURN_IF_ERROR(Positions(&positions));
    return positions;
  }

  // The whole list (its blocks and, for a dense list, its doc_bits); null
  // if reading it failed.
  const PostingList* list() const { return list_.get(); }

  // Non-OK if iteration stopped early because of a store error or a
  // malformed block; doc() is then kNoMoreDocs.
  const absl::Status& status() const { return status_; }

 private:
  // Makes block `i` of the list current (its first posting), or ends the
  // iteration past the last block.
  void LoadBlock(size_t i);
  // After an Advance() by the bitset: makes the block holding doc() current
  // and finds doc()'s posting in it. False (after Fail()) if the block is
  // malformed or does not hold doc().
  bool Locate() { return located_ || LocateSlow(); }
  bool LocateSlow();
  // Opens the current block once (its doc ids are then decoded as far as
  // the iterator goes); false (after Fail()) if it is malformed.
  bool Decoded() { return decoded_ || Decode(); }
  bool Decode();
  // Decoded(), and the block's term frequencies and lengths too.
  bool Frequencies() {
    return Decoded() && (block_.frequencies_decoded() || DecodeFrequencies());
  }
  bool DecodeFrequencies();
  // Decoded(), and term frequencies through the current posting.
  bool DecodeTfs();
  // Decoded(), and document lengths through the current posting.
  bool DecodeLengths();
  void Fail(absl::Status status);

  std::string term_;
  std::shared_ptr<const PostingList> list_;  // Null if reading it failed.
  size_t block_index_ = 0;
  size_t shallow_index_ = 0;  // Last block ShallowAdvance() found.
  PostingBlockHeader header_;
  uint32_t first_doc_ = 0;  // Of the current block.
  PostingBlock block_;      // The current block, once decoded_.
  bool decoded_ = false;
  size_t index_ = 0;  // Of the current posting in the block.
  uint32_t doc_ = kNoMoreDocs;
  // False after an Advance() by the bitset: block_index_ and index_ may
  // still be behind doc_.
  bool located_ = true;
  // The doc of posting index_ in the current block, kept while an Advance()
  // by the bitset leaves index_ behind: LocateSlow() counts from it.
  uint32_t located_doc_ = 0;
  absl::Status status_;
};

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_POSTING_ITERATOR_H_
