// DocBitmap: a set of doc ids as a bitmap that grows on demand, for counting
// the union of posting lists exactly without scoring, sorting or hashing.
// Memory: one bit per doc id up to the largest one set (125 KiB a million).
//
// Not thread-safe.

#ifndef PAPERDB_SEARCH_DOC_BITMAP_H_
#define PAPERDB_SEARCH_DOC_BITMAP_H_

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace paperdb::search {

class DocBitmap {
 public:
  // Adds `doc`; adding it again changes nothing.
  void Set(uint32_t doc) {
    const size_t word = doc >> 6;
    if (word >= words_.size()) {
      words_.resize(std::max(word + 1, words_.size() * 2));
    }
    words_[word] |= uint64_t{1} << (doc & 63);
  }

  bool Contains(uint32_t doc) const {
    const size_t word = doc >> 6;
    return word < words_.size() && (words_[word] >> (doc & 63) & 1) != 0;
  }

  // Whether any doc in [first, last] was added. Cost: (last - first) / 64.
  bool AnyInRange(uint32_t first, uint32_t last) const {
    const size_t end = std::min<size_t>((size_t{last} >> 6) + 1, words_.size());
    for (size_t w = first >> 6; w < end; ++w) {
      uint64_t bits = words_[w];
      if (w == (first >> 6)) bits &= ~uint64_t{0} << (first & 63);
      if (w == (last >> 6) && (last & 63) != 63) {
        bits &= (uint64_t{1} << ((last & 63) + 1)) - 1;
      }
      if (bits != 0) return true;
    }
    return false;
  }

  // Number of distinct docs added.
  uint64_t Count() const {
    uint64_t n = 0;
    for (const uint64_t w : words_) n += std::popcount(w);
    return n;
  }

 private:
  std::vector<uint64_t> words_;
};

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_DOC_BITMAP_H_
