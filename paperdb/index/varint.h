// LEB128 variable-length unsigned integers (7 bits a byte, low bits first),
// the encoding of posting blocks. Same format as protobuf varints.

#ifndef PAPERDB_INDEX_VARINT_H_
#define PAPERDB_INDEX_VARINT_H_

#include <cstdint>
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

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_VARINT_H_
