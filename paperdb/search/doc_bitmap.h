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
