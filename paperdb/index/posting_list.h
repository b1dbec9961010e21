// PostingList: all of one term's posting blocks (posting_block.h), read from
// the store in one sequential scan and held in memory with a directory of
// their headers, so that a reader finds the block holding any doc id by
// binary search and knows every block's score bound without decoding it:
// the skip data of block-max pruning (Ding & Suel, SIGIR 2011).
//
// Immutable once read; shared across threads through PostingCache.

#ifndef PAPERDB_INDEX_POSTING_LIST_H_
#define PAPERDB_INDEX_POSTING_LIST_H_

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/index/bm25.h"
#include "paperdb/index/posting_block.h"
#include "paperdb/storage/store.h"

namespace paperdb::index {

// Up to this many (tf, length) pairs bound a block's scores.
inline constexpr size_t kMaxImpacts = 4;

struct PostingList {
  // A (term frequency, document length) pair no posting of a block beats:
  // each posting has a tf at most `tf` and a length at least `doc_length`
  // for one of the block's impacts. Lucene's "impacts": BM25 grows with tf
  // and falls with length, so the best score of the block is at most the
  // best score of its impacts, which is tighter than pairing the block's
  // max tf with its min length.
  struct Impact {
    uint32_t tf = 0;
    uint32_t doc_length = 0;
  };
  struct Block {
    uint32_t first_doc = 0;
    PostingBlockHeader header;  // Doc range, max tf, min length.
    uint32_t offset = 0;        // Of the encoded block in `data`, bytes.
    uint32_t size = 0;          // Bytes.
    Impact impacts[kMaxImpacts];
    uint32_t impact_count = 0;

    // Upper bound on the BM25 score of any posting in the block.
    double MaxScore(const Bm25Scorer& scorer, double idf) const {
      double best = 0.0;
      for (uint32_t i = 0; i < impact_count; ++i) {
        best = std::max(
            best, scorer.Score(idf, impacts[i].tf, impacts[i].doc_length));
      }
      return best;
    }
  };

  std::string data;           // The blocks' values, concatenated.
  std::vector<Block> blocks;  // In doc order; empty if the term has none.
  // For a dense list (one doc id in kDenseEvery or more of the range up to
  // its last doc), a bit per doc id, set for the list's docs: a
  // conjunction probes it instead of decoding the list's blocks, as
  // Culpepper & Moffat keep dense lists as bitvectors ("Efficient set
  // intersection for inverted indexing", ACM TOIS 29(1), 2010). Empty
  // otherwise. At most 4 bytes a posting.
  std::vector<uint64_t> doc_bits;

  // Lists this dense or denser get doc_bits.
  static constexpr uint32_t kDenseEvery = 32;

  // Set bits of `x`: one instruction where the build may use it (POPCNT
  // on x86-64 with PAPERDB_POPCNT, the default; other CPUs' own), else the
  // SWAR sum of "Hacker's Delight" 5-2 (GCC's generic std::popcount is a
  // libgcc call, slower than this).
  static uint32_t PopCount(uint64_t x) {
#if defined(__x86_64__) && !defined(__POPCNT__)
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return static_cast<uint32_t>((x * 0x0101010101010101ULL) >> 56);
#else
    return static_cast<uint32_t>(std::popcount(x));
#endif
  }

  // Whether `doc` is in the list. REQUIRES: !doc_bits.empty().
  bool Contains(uint32_t doc) const {
    const size_t word = doc >> 6;
    return word < doc_bits.size() && (doc_bits[word] >> (doc & 63) & 1) != 0;
  }
  // The number of the list's docs in [from, to): the index of `to`'s
  // posting in a block whose first doc is `from`, without decoding it.
  // REQUIRES: !doc_bits.empty(), from <= to.
  uint32_t Rank(uint32_t from, uint32_t to) const {
    size_t word = from >> 6;
    const size_t last = to >> 6;
    if (last >= doc_bits.size()) return UINT32_MAX;
    uint64_t bits = doc_bits[word] & (~uint64_t{0} << (from & 63));
    uint32_t rank = 0;
    while (word < last) {
      rank += PopCount(bits);
      bits = doc_bits[++word];
    }
    return rank + PopCount(bits & ((uint64_t{1} << (to & 63)) - 1));
  }
  // The first doc id of the list >= `target`, or UINT32_MAX if none.
  // REQUIRES: !doc_bits.empty().
  uint32_t NextDoc(uint32_t target) const {
    size_t word = target >> 6;
    if (word >= doc_bits.size()) return UINT32_MAX;
    uint64_t bits = doc_bits[word] & (~uint64_t{0} << (target & 63));
    while (bits == 0) {
      if (++word == doc_bits.size()) return UINT32_MAX;
      bits = doc_bits[word];
    }
    return static_cast<uint32_t>(word << 6 | std::countr_zero(bits));
  }

  // The encoded block `i`, as PostingBlock::DecodeInPlace() reads it.
  // REQUIRES: i < blocks.size().
  absl::string_view value(size_t i) const {
    return absl::string_view(data).substr(blocks[i].offset, blocks[i].size);
  }
  // Memory held by the list, in bytes (for the cache's budget; the cache's
  // own bookkeeping, a few hundred bytes an entry, comes on top).
  size_t ByteSize() const {
    return sizeof(*this) + data.capacity() + blocks.capacity() * sizeof(Block) +
           doc_bits.capacity() * sizeof(uint64_t);
  }
};

// Reads every posting block of `term` from `store`, decoding each block's
// frequencies once for its impacts. DATA_LOSS if a key or a block is
// malformed, or blocks overlap; INTERNAL for store errors.
absl::StatusOr<std::shared_ptr<const PostingList>> ReadPostingList(
    const storage::Store& store, absl::string_view term);

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_POSTING_LIST_H_
