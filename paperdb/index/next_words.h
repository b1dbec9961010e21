// Next-word masks: for each posting, one byte with a bit set for every term
// that stands right after one of the term's occurrences in the paper (a
// one-hash Bloom filter of its following terms). An exact phrase "a b"
// rejects a candidate whose posting of `a` lacks the bit of `b` before
// decoding any positions: most candidates of a phrase of two frequent words
// that rarely stand together ("can https") hold both words apart. A set bit
// may be a collision; a clear bit is never wrong.
//
// "Right after" is the position after the occurrence's last word: +1 for a
// word, +2 for a common gram (common_grams.h), whose posting stands at its
// first word's position. A joined compound ("lowcost" for "low-cost") spans
// a varying number of positions, so its masks are kAnyNextWord. Every term
// at that position counts: stems, surface forms, compounds and grams.

#ifndef PAPERDB_INDEX_NEXT_WORDS_H_
#define PAPERDB_INDEX_NEXT_WORDS_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "paperdb/index/common_grams.h"

namespace paperdb::index {

// A mask that rejects nothing.
inline constexpr uint8_t kAnyNextWord = 0xFF;

// The mask bit of `term` (an analyzed term): bit (FNV-1a of its bytes) mod 8.
// Stored in posting blocks: do not change without a schema version bump.
inline uint8_t NextWordBit(absl::string_view term) {
  uint32_t hash = 2166136261u;
  for (const char c : term) {
    hash = (hash ^ static_cast<uint8_t>(c)) * 16777619u;
  }
  hash ^= hash >> 16;
  return static_cast<uint8_t>(1u << ((hash ^ (hash >> 8)) & 7));
}

// How many positions after an occurrence of `term` the next term stands.
inline uint32_t NextWordDistance(absl::string_view term) {
  return IsCommonGram(term) ? 2 : 1;
}

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_NEXT_WORDS_H_
