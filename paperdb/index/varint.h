// LEB128 variable-length unsigned integers (7 bits a byte, low bits first),
// the encoding of posting blocks. Same format as protobuf varints.

#ifndef PAPERDB_INDEX_VARINT_H_
#define PAPERDB_INDEX_VARINT_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace paperdb::index {

// Appends `value` to `out` in 1 to 5 bytes.
inline void PutVarint32(uint32_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>(value | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

// Writes `value` at `out` in 1 to 5 bytes; returns the byte after them.
// REQUIRES: 5 bytes are writable at `out`.
inline char* EncodeVarint32(uint32_t value, char* out) {
  while (value >= 0x80) {
    *out++ = static_cast<char>(value | 0x80);
    value >>= 7;
  }
  *out++ = static_cast<char>(value);
  return out;
}

// Decodes one varint from [*p, limit) into *value and advances *p past it.
// Returns false, leaving *p unspecified, if the input ends early or the value
// does not fit in 32 bits.
inline bool GetVarint32(const char** p, const char* limit, uint32_t* value) {
  // Fast path: one byte (doc gaps of common terms, tfs, positions gaps).
  if (*p < limit && (static_cast<unsigned char>(**p) & 0x80) == 0) {
    *value = static_cast<unsigned char>(**p);
    ++*p;
    return true;
  }
  uint32_t result = 0;
  for (int shift = 0; shift <= 28 && *p < limit; shift += 7) {
    const uint32_t byte = static_cast<unsigned char>(**p);
    ++*p;
    result |= (byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) {
      if (shift == 28 && byte > 0x0F) return false;
      *value = result;
      return true;
    }
  }
  return false;
}

// Decodes `n` varints from [*p, limit) into out[0, n) and advances *p past
// them, as n calls of GetVarint32() do (false, with *p unspecified, where
// one of those would fail). Where 8 bytes are readable, eight one-byte
// varints or four two-byte ones are decoded from one word at once, and a
// varint of one or two bytes (the shapes of doc gaps, term frequencies and
// document lengths) without a branch on its length; longer ones one by one.
inline bool GetVarints32(const char** p, const char* limit, uint32_t* out,
                         size_t n) {
  constexpr uint64_t kHighBits = 0x8080808080808080ULL;
  const char* q = *p;
  size_t i = 0;
  if constexpr (std::endian::native == std::endian::little) {
    while (i < n && limit - q >= 8) {
      uint64_t word;
      std::memcpy(&word, q, sizeof(word));
      if ((word & kHighBits) == 0 && n - i >= 8) {
        // Written out: GCC at -O2 neither unrolls nor vectorizes the loop
        // of eight (64 instructions for eight values, 16 this way).
        const uint32_t low = static_cast<uint32_t>(word);
        const uint32_t high = static_cast<uint32_t>(word >> 32);
        out[i] = low & 0x7F;
        out[i + 1] = (low >> 8) & 0x7F;
        out[i + 2] = (low >> 16) & 0x7F;
        out[i + 3] = low >> 24;
        out[i + 4] = high & 0x7F;
        out[i + 5] = (high >> 8) & 0x7F;
        out[i + 6] = (high >> 16) & 0x7F;
        out[i + 7] = high >> 24;
        i += 8;
        q += 8;
        continue;
      }
      if ((word & kHighBits) == 0x0080008000800080ULL && n - i >= 4) {
        // Four two-byte varints (document lengths of 128 to 16,383 terms):
        // each 16-bit lane's low 7 bits and next 7 joined at once.
        constexpr uint64_t kLow7 = 0x007F007F007F007FULL;
        const uint64_t v = (word & kLow7) | ((word >> 8) & kLow7) << 7;
        out[i] = static_cast<uint32_t>(v) & 0xFFFF;
        out[i + 1] = static_cast<uint32_t>(v >> 16) & 0xFFFF;
        out[i + 2] = static_cast<uint32_t>(v >> 32) & 0xFFFF;
        out[i + 3] = static_cast<uint32_t>(v >> 48);
        i += 4;
        q += 8;
        continue;
      }
      const uint32_t more = static_cast<uint32_t>(word >> 7) & 1;
      if (((word >> 15) & more) != 0) {  // Three bytes or more.
        if (!GetVarint32(&q, limit, &out[i])) return false;
        ++i;
        continue;
      }
      out[i] = (static_cast<uint32_t>(word) & 0x7F) |
               ((static_cast<uint32_t>(word >> 8) & 0x7F) << 7 & (0 - more));
      q += 1 + more;
      ++i;
    }
  }
  for (; i < n; ++i) {
    if (!GetVarint32(&q, limit, &out[i])) return false;
  }
  *p = q;
  return true;
}

// Adds the `n` varints of [*p, limit) to *sum and advances *p past them,
// eight one-byte varints (the shape of term frequencies) summed from one
// word at once (SWAR: bytes into 16-bit lanes, lanes by a multiply).
// Returns false, with *p and *sum unspecified, if the input ends first or a
// varint is 0 (as no term frequency is). Does not check that each varint
// fits in 32 bits.
inline bool SumPositiveVarints(const char** p, const char* limit, uint64_t n,
                               uint64_t* sum) {
  constexpr uint64_t kHighBits = 0x8080808080808080ULL;
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kLanes = 0x00FF00FF00FF00FFULL;
  const char* q = *p;
  uint64_t total = *sum;
  if constexpr (std::endian::native == std::endian::little) {
    while (n >= 8 && limit - q >= 8) {
      uint64_t word;
      std::memcpy(&word, q, sizeof(word));
      if ((word & kHighBits) != 0) break;  // A longer varint: one by one.
      if (((word - kOnes) & ~word & kHighBits) != 0) return false;  // A 0.
      const uint64_t pairs = (word & kLanes) + ((word >> 8) & kLanes);
      total += (pairs * 0x0001000100010001ULL) >> 48;
      q += 8;
      n -= 8;
    }
  }
  for (; n > 0; --n) {
    uint32_t value = 0;
    if (!GetVarint32(&q, limit, &value) || value == 0) return false;
    total += value;
  }
  *p = q;
  *sum = total;
  return true;
}

// Advances *p past `n` varints of [*p, limit) without decoding them, eight
// bytes at a time: a byte whose high bit is clear ends a varint (SWAR
// counting, as in Lemire et al., "Stream VByte", 2018, for the masks).
// Returns false if the input ends first. Does not check that each varint
// fits in 32 bits.
inline bool SkipVarints(const char** p, const char* limit, uint64_t n) {
  constexpr uint64_t kHighBits = 0x8080808080808080ULL;
  const char* q = *p;
  while (n > 8 && limit - q >= 8) {
    uint64_t word;
    std::memcpy(&word, q, sizeof(word));
    // The ends, one bit a byte, summed into the top byte by the multiply.
    const uint64_t ends =
        (((~word & kHighBits) >> 7) * 0x0101010101010101ULL) >> 56;
    if (ends >= n) break;  // The n-th varint ends in this word.
    // Bytes after the word's last end belong to varints still to skip.
    n -= ends;
    q += 8;
  }
  for (; n > 0; ++q) {
    if (q >= limit) return false;
    n -= (static_cast<unsigned char>(*q) & 0x80) == 0;
  }
  *p = q;
  return true;
}

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_VARINT_H_
