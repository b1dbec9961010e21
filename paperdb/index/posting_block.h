// A posting block: up to kMaxPostingsPerBlock postings of one term, stored as
// one RocksDB value under PostingKey(term, first_doc) (storage/keys.h).
//
// Value layout (all integers LEB128 varints, varint.h):
//   header:    count, last_doc - first_doc, max_tf, min_doc_length,
//              byte length of the doc/tf/length sections
//   docs:      count gaps (doc[i] - doc[i-1]; doc[-1] = first_doc)
//   tfs:       count term frequencies
//   lengths:   count document lengths (terms), for BM25 without a lookup
//   positions: for each doc, tf position gaps (positions from 0)
// The header's max_tf and min_doc_length bound any BM25 score in the block,
// the input of block-max pruning (Ding & Suel, "Faster top-k document
// retrieval using block-max indexes", SIGIR 2011). Do not change: on disk.

#ifndef PAPERDB_INDEX_POSTING_BLOCK_H_
#define PAPERDB_INDEX_POSTING_BLOCK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace paperdb::index {

inline constexpr size_t kMaxPostingsPerBlock = 128;

// Builds one block. Not thread-safe.
class PostingBlockBuilder {
 public:
  // Adds a posting. REQUIRES: doc greater than the previous doc added (and
  // >= the block's first doc), positions non-empty and ascending, fewer than
  // kMaxPostingsPerBlock postings added so far.
  void Add(uint32_t doc, uint32_t doc_length,
           const std::vector<uint32_t>& positions);

  size_t count() const { return docs_.size(); }
  uint32_t first_doc() const { return docs_.front(); }

  // The encoded block. REQUIRES: count() > 0.
  std::string Finish() const;

 private:
  std::vector<uint32_t> docs_;
  std::vector<uint32_t> tfs_;
  std::vector<uint32_t> lengths_;
  std::vector<uint32_t> positions_;  // All docs', concatenated.
};

// Just the header of a block, decodable without touching the postings.
struct PostingBlockHeader {
  uint32_t count = 0;
  uint32_t last_doc = 0;
  uint32_t max_tf = 0;
  uint32_t min_doc_length = 0;
};

// DATA_LOSS if `value` is not a well-formed block header.
absl::StatusOr<PostingBlockHeader> DecodePostingBlockHeader(
    uint32_t first_doc, absl::string_view value);

// A decoded block. Doc ids are decoded first; term frequencies and lengths
// only when asked for (a reader that only counts or skips never decodes
// them); positions stay encoded until asked for.
class PostingBlock {
 public:
  // Decodes all of `value`, the block stored under first doc `first_doc`.
  // Copies what it needs: `value` may be released afterwards. DATA_LOSS if
  // malformed.
  static absl::StatusOr<PostingBlock> Decode(uint32_t first_doc,
                                             absl::string_view value);

  // Decodes the doc ids of `value` into this block, reusing its buffers, so
  // a reader that walks many blocks allocates nothing once they have grown.
  // Nothing else is copied: `value` must stay valid while this block is
  // used. DATA_LOSS if malformed (the block is then unusable until the next
  // successful decode).
  absl::Status DecodeInPlace(uint32_t first_doc, absl::string_view value);

  // Decodes the term frequencies and document lengths after DecodeInPlace();
  // a no-op once done. DATA_LOSS if they are malformed.
  absl::Status DecodeFrequencies();
  bool frequencies_decoded() const { return frequencies_decoded_; }

  const PostingBlockHeader& header() const { return header_; }
  size_t size() const { return docs_.size(); }
  uint32_t doc(size_t i) const { return docs_[i]; }
  // REQUIRES: frequencies_decoded().
  uint32_t tf(size_t i) const { return tfs_[i]; }
  uint32_t doc_length(size_t i) const { return lengths_[i]; }

  // Replaces *out with the positions of posting `i`, ascending. DATA_LOSS
  // if the positions section is malformed. Cost: linear in the positions of
  // postings before `i` on the first call, then amortized O(tf) for
  // increasing `i`. REQUIRES: frequencies_decoded().
  absl::Status Positions(size_t i, std::vector<uint32_t>* out);
  // The same, returned.
  absl::StatusOr<std::vector<uint32_t>> Positions(size_t i);

 private:
  PostingBlockHeader header_;
  std::vector<uint32_t> docs_;
  std::vector<uint32_t> tfs_;
  std::vector<uint32_t> lengths_;
  absl::string_view frequencies_data_;  // Tfs and lengths, still encoded.
  bool frequencies_decoded_ = false;
  absl::string_view positions_data_;  // Into the value, or owned_positions_.
  std::string owned_positions_;       // Set by Decode() only.
  bool owns_positions_ = false;
  size_t positions_decoded_for_ = 0;  // Postings skipped so far.
  size_t positions_cursor_ = 0;       // Byte offset in positions_data_.
};

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_POSTING_BLOCK_H_
