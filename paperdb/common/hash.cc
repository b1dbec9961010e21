#include "paperdb/common/hash.h"

#include "absl/strings/str_format.h"
#include "xxhash.h"

namespace paperdb {

uint64_t Hash64(absl::string_view bytes) {
  return XXH3_64bits(bytes.data(), bytes.size());
}

std::string Hash64Hex(absl::string_view bytes) {
  return absl::StrFormat("%016x", Hash64(bytes));
}

std::string Hash128Hex(absl::string_view bytes) {
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return absl::StrFormat("%016x%016x", h.high64, h.low64);
}

}  // namespace paperdb
