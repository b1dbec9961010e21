// PairedDocs: the doc ids set in at least two of a few bitsets, at least
// one of them a "needed" one, found a 64-bit word at a time. For MaxScore
// (searcher.cc): a dense term whose block bound cannot reach the k-th score
// on its own contributes candidates only where another clause matches too,
// so its postings need not be walked one by one when every clause it may
// pair with keeps a bitset (PostingList::doc_bits).
//
// Holds spans into the bitsets, which must outlive it and not change while
// it holds them. Not thread-safe.

#ifndef PAPERDB_SEARCH_PAIRED_DOCS_H_
#define PAPERDB_SEARCH_PAIRED_DOCS_H_

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace paperdb::search {

class PairedDocs {
 public:
  // Bit d % 64 of word d / 64 is doc d; words past a bitset's end are 0.
  using Bits = absl::Span<const uint64_t>;

  void Clear() {
    bits_.clear();
    needed_.clear();
    words_ = 0;
    hits_word_ = SIZE_MAX;
  }
  // Adds a bitset; `needed`: a doc counts only if one such bitset holds it.
  void Add(Bits bits, bool needed) {
    bits_.push_back(bits);
    needed_.push_back(needed);
    words_ = std::max(words_, bits.size());
    hits_word_ = SIZE_MAX;
  }
  bool empty() const { return bits_.empty(); }

  // The first doc id in [from, to] held by two or more of the bitsets, one
  // of them needed; UINT32_MAX if there is none. Cost: the words of the
  // range (up to the longest bitset's end) times the bitsets, until a doc
  // is found.
  uint32_t Next(uint32_t from, uint32_t to) {
    if (from > to || (from >> 6) >= words_) return UINT32_MAX;
    const size_t last = std::min<size_t>(to >> 6, words_ - 1);
    for (size_t w = from >> 6; w <= last; ++w) {
      uint64_t hits = Hits(w);
      if (w == (from >> 6)) hits &= ~uint64_t{0} << (from & 63);
      if (w == (to >> 6) && (to & 63) != 63) {
        hits &= (uint64_t{1} << ((to & 63) + 1)) - 1;
      }
      if (hits != 0) {
        return static_cast<uint32_t>(w << 6 | std::countr_zero(hits));
      }
    }
    return UINT32_MAX;
  }

 private:
  // The docs of word `w` that Next() looks for; the last word's are kept,
  // since successive calls mostly ask for the same word again.
  uint64_t Hits(size_t w) {
    if (w == hits_word_) return hits_;
    uint64_t ones = 0;  // Docs in one bitset or more, so far.
    uint64_t twos = 0;  // In two or more.
    uint64_t need = 0;  // In a needed one.
    for (size_t i = 0; i < bits_.size(); ++i) {
      const uint64_t b = w < bits_[i].size() ? bits_[i][w] : 0;
      twos |= ones & b;
      ones |= b;
      if (needed_[i]) need |= b;
    }
    hits_word_ = w;
    return hits_ = twos & need;
  }

  std::vector<Bits> bits_;
  std::vector<bool> needed_;
  size_t words_ = 0;  // The longest bitset's.
  size_t hits_word_ = SIZE_MAX;
  uint64_t hits_ = 0;  // Of word hits_word_.
};

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_PAIRED_DOCS_H_
