// Opaque page tokens (AIP-158). A token encodes what it pages through (a
// kind and a fingerprint of the request fields that must not change between
// pages) and where the next page starts (a position, and state bytes the
// listing keeps between pages), with a checksum, in web-safe base64. Tokens
// are not encrypted: they hide nothing secret, they only keep clients from
// depending on their contents.

#ifndef PAPERDB_COMMON_PAGE_TOKEN_H_
#define PAPERDB_COMMON_PAGE_TOKEN_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace paperdb {

// Where a page starts: a position (a doc id, or a count, as the listing
// defines it) and opaque state bytes (a serialized
// paperdb.storage.v1.*PageState, or empty).
struct PageCursor {
  uint64_t position = 0;
  std::string state;
};

// A token for the page starting at `position` of the listing `kind` ("list",
// "search") of a request with fingerprint `fingerprint`.
std::string EncodePageToken(absl::string_view kind, uint64_t fingerprint,
                            uint64_t position);

// A token for the page starting at `cursor`.
std::string EncodePageToken(absl::string_view kind, uint64_t fingerprint,
                            const PageCursor& cursor);

// The largest position a token may hold: listings are of papers, numbered
// with 32-bit doc ids.
inline constexpr uint64_t kMaxPageTokenPosition = 0xFFFFFFFF;

// The position encoded in `token`. INVALID_ARGUMENT if `token` is not one
// EncodePageToken() made for the same kind and fingerprint, or holds a
// position over kMaxPageTokenPosition (a forged token).
absl::StatusOr<uint64_t> DecodePageToken(absl::string_view token,
                                         absl::string_view kind,
                                         uint64_t fingerprint);

// The cursor encoded in `token`; errors as DecodePageToken().
absl::StatusOr<PageCursor> DecodePageCursor(absl::string_view token,
                                            absl::string_view kind,
                                            uint64_t fingerprint);

}  // namespace paperdb

#endif  // PAPERDB_COMMON_PAGE_TOKEN_H_
