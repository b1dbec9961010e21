// Stable content hashes (XXH3, https://github.com/Cyan4973/xxHash). Unlike
// absl::Hash these never change between runs or builds, so they may be
// stored on disk and used in ids.

#ifndef PAPERDB_COMMON_HASH_H_
#define PAPERDB_COMMON_HASH_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace paperdb {

// XXH3 64-bit hash of `bytes`, seed 0.
uint64_t Hash64(absl::string_view bytes);

// 16 lower-case hex digits of Hash64(bytes).
std::string Hash64Hex(absl::string_view bytes);

// 32 lower-case hex digits of the XXH3 128-bit hash of `bytes` (high half
// first).
std::string Hash128Hex(absl::string_view bytes);

}  // namespace paperdb

#endif  // PAPERDB_COMMON_HASH_H_
