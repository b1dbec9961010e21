// A posting block: up to kMaxPostingsPerBlock postings of one term, stored as
// one RocksDB value under PostingKey(term, first_doc) (storage/keys.h).
//
// Value layout (all integers LEB128 varints, varint.h):
//   header:    count, last_doc - first_doc, max_tf, min_doc_length,
//              byte length of the next-word, doc, tf and length sections
//   next words: count bytes, each posting's next-word mask (next_words.h)
//   docs:      count gaps (doc[i] - doc[i-1]; doc[-1] = first_doc)
//   tfs:       count term frequencies
//   lengths:   count document lengths (terms), for BM25 without a lookup
//   positions: for each doc, tf position gaps (positions from 0)
// The header's max_tf and min_doc_length bound any BM25 score in the block,
// the input of block-max pruning (Ding & Suel, "Faster top-k document
// retrieval using block-max indexes", SIGIR 2011). Do not change: on disk.

#ifndef PAPERDB_INDEX_POSTING_BLOCK_H_
#define PAPERDB_INDEX_POSTING_BLOCK_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace paperdb::index {

inline constexpr size_t kMaxPostingsPerBlock = 128;

// Builds one block. Not thread-safe.
class PostingBlockBuilder {
 public:
  // Adds a posting. REQUIRES: doc greater than the previous doc added (and
  // >= the block's first doc), positions non-empty and ascending, fewer than
  // kMaxPostingsPerBlock postings added so far.
  // `next_words`: the posting's next-word mask (next_words.h).
  void Add(uint32_t doc, uint32_t doc_length,
           absl::Span<const uint32_t> positions, uint8_t next_words);

  // Adds a posting whose `tf` positions come encoded, as Add() would encode
  // them (position gaps from 0, varints). Same requirements as Add().
  void AddEncoded(uint32_t doc, uint32_t doc_length, uint32_t tf,
                  absl::string_view encoded_positions, uint8_t next_words);

  // Empties the builder for the next block, keeping its buffers.
  void Clear();

  size_t count() const { return docs_.size(); }
  uint32_t first_doc() const { return docs_.front(); }

  // The encoded block. REQUIRES: count() > 0.
  std::string Finish() const;

  // The encoded block in two parts, to be stored concatenated without
  // joining them first: `*head` (replaced) holds the header, doc gaps, term
  // frequencies and lengths, then come positions(). REQUIRES: count() > 0.
  void FinishHead(std::string* head) const;
  absl::string_view positions() const { return positions_; }

 private:
  std::vector<uint32_t> docs_;
  std::vector<uint32_t> tfs_;
  std::vector<uint32_t> lengths_;
  std::vector<uint8_t> next_words_;
  std::string positions_;  // Every posting's position gaps, encoded.
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
// them); positions stay encoded until asked for. A block opened with Open()
// decodes its doc ids on first use and its term frequencies and document
// lengths each only as far as asked, 32 at a time: a phrase's positions
// check on one candidate decodes no lengths and, on average, half the
// frequencies; scoring one candidate, half of each.
class PostingBlock {
 public:
  // Decodes all of `value`, the block stored under first doc `first_doc`.
  // Copies what it needs: `value` may be released afterwards. DATA_LOSS if
  // malformed.
  static absl::StatusOr<PostingBlock> Decode(uint32_t first_doc,
                                             absl::string_view value);

  // Decodes the doc ids of `value` into this block, reusing its buffers, so
  // a reader that walks many blocks allocates nothing. Nothing else is
  // copied: `value` must stay valid while this block is used. DATA_LOSS if
  // malformed (the block is then unusable until the next successful
  // decode).
  absl::Status DecodeInPlace(uint32_t first_doc, absl::string_view value);

  // Reads only the header of `value`; doc ids and term frequencies are
  // decoded as far as SeekDoc(), DecodeDocsThrough() and DecodeTfsThrough()
  // ask. The same lifetime rule as DecodeInPlace(). DATA_LOSS if the header
  // is malformed. A malformed posting past what was asked for goes
  // unnoticed (ingest_service verify decodes every block whole).
  absl::Status Open(uint32_t first_doc, absl::string_view value);

  // Decodes doc ids through posting `i` (< size()): all of them, at once.
  // False, with status() set, if they are malformed.
  bool DecodeDocsThrough(size_t i) { return i < docs_decoded_ || DecodeDocs(); }
  // The first posting from `from` on whose doc id is >= `target`, decoding
  // the doc ids if need be; size() if there is none or the doc ids are
  // malformed (status() then says so).
  size_t SeekDoc(size_t from, uint32_t target) {
    if (target > header_.last_doc) return size();
    if (docs_decoded_ == 0 && !DecodeDocs()) return size();
    while (docs_[from] < target) ++from;  // The last doc is >= target.
    return from;
  }
  // Decodes term frequencies through posting `i` (< size()). False, with
  // status() set, if they are malformed.
  bool DecodeTfsThrough(size_t i) {
    return i < tfs_decoded_ || DecodeMoreTfs(i);
  }

  // Decodes document lengths through posting `i` (< size()), 32 at a time,
  // skipping the term frequencies before them undecoded. False, with
  // status() set, if they are malformed.
  bool DecodeLengthsThrough(size_t i) {
    return i < lengths_decoded_ || DecodeMoreLengths(i);
  }

  // Decodes all term frequencies and document lengths; a no-op once done.
  // DATA_LOSS if they are malformed.
  absl::Status DecodeFrequencies();
  bool frequencies_decoded() const {
    return tfs_decoded_ == size() && lengths_decoded_ == size();
  }

  const PostingBlockHeader& header() const { return header_; }
  size_t size() const { return header_.count; }
  // REQUIRES: doc ids decoded through i.
  uint32_t doc(size_t i) const { return docs_[i]; }
  // REQUIRES: term frequencies decoded through i.
  uint32_t tf(size_t i) const { return tfs_[i]; }
  // The decoded term frequencies and lengths, [i] for posting i.
  const uint32_t* tfs() const { return tfs_.data(); }
  const uint32_t* doc_lengths() const { return lengths_.data(); }
  // REQUIRES: document lengths decoded through i.
  uint32_t doc_length(size_t i) const { return lengths_[i]; }
  // Posting i's next-word mask (next_words.h), i < size(). Read as stored,
  // without decoding anything.
  uint8_t next_words(size_t i) const { return next_words_data()[i]; }
  // The size() next-word masks, [i] for posting i.
  const uint8_t* next_words_data() const {
    return reinterpret_cast<const uint8_t*>(
        owns_positions_ ? owned_next_words_.data() : next_words_);
  }

  // Replaces *out with the positions of posting `i`, ascending. DATA_LOSS
  // if malformed. Cost: the positions of postings before `i` are skipped
  // eight bytes at a time on the first call, then amortized O(tf) for
  // increasing `i`; term frequencies not yet decoded are summed from their
  // bytes (eight at a time), not decoded.
  absl::Status Positions(size_t i, std::vector<uint32_t>* out);
  // The same, returned.
  absl::StatusOr<std::vector<uint32_t>> Positions(size_t i);

  // Why the last lazy decode failed; OK otherwise.
  const absl::Status& status() const { return status_; }

 private:
  bool DecodeDocs();
  bool DecodeMoreTfs(size_t i);
  bool DecodeMoreLengths(size_t i);
  // Where the term frequencies start: after the doc gaps, skipped
  // undecoded if need be. Null (status_ set) if malformed.
  const char* TfsStart();
  bool Fail(absl::string_view what);

  PostingBlockHeader header_;
  uint32_t first_doc_ = 0;
  std::array<uint32_t, kMaxPostingsPerBlock> docs_;
  std::array<uint32_t, kMaxPostingsPerBlock> tfs_;
  std::array<uint32_t, kMaxPostingsPerBlock> lengths_;
  const char* next_words_ = nullptr;  // size() masks, in the value.
  // Decode()'s copy of the masks (used while owns_positions_).
  std::array<char, kMaxPostingsPerBlock> owned_next_words_;
  const char* docs_cursor_ = nullptr;   // The next doc gap to decode.
  const char* postings_end_ = nullptr;  // End of gaps, tfs and lengths.
  uint32_t docs_decoded_ = 0;           // 0 or size().
  const char* tfs_start_ = nullptr;     // Null until known.
  const char* tfs_cursor_ = nullptr;    // The next tf to decode.
  uint32_t tfs_decoded_ = 0;
  const char* lengths_cursor_ = nullptr;  // The next length to decode.
  uint32_t lengths_decoded_ = 0;
  absl::string_view positions_data_;  // Into the value, or owned_positions_.
  std::string owned_positions_;       // Set by Decode() only.
  bool owns_positions_ = false;
  size_t positions_decoded_for_ = 0;  // Postings skipped so far.
  size_t positions_cursor_ = 0;       // Byte offset in positions_data_.
  // While positions_decoded_for_ > tfs_decoded_: the bytes of the tf of
  // posting positions_decoded_for_ (Positions() summed those before it).
  const char* tf_scan_ = nullptr;
  absl::Status status_;
};

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_POSTING_BLOCK_H_
