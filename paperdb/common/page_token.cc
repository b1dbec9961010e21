#include "paperdb/common/page_token.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "paperdb/common/error_details.h"
#include "paperdb/common/hash.h"
#include "paperdb/common/status_macros.h"

namespace paperdb {
namespace {

// "v1:<kind>:<fingerprint>:<position>[:<state, web-safe base64>]".
std::string Payload(absl::string_view kind, uint64_t fingerprint,
                    const PageCursor& cursor) {
  std::string payload = absl::StrCat("v1:", kind, ":", absl::Hex(fingerprint),
                                     ":", cursor.position);
  if (!cursor.state.empty()) {
    absl::StrAppend(&payload, ":", absl::WebSafeBase64Escape(cursor.state));
  }
  return payload;
}

absl::Status Invalid(absl::string_view why) {
  return WithReason(
      WithField(absl::InvalidArgumentError(absl::StrCat("page_token: ", why)),
                "page_token"),
      "INVALID_PAGE_TOKEN");
}

}  // namespace

std::string EncodePageToken(absl::string_view kind, uint64_t fingerprint,
                            uint64_t position) {
  return EncodePageToken(kind, fingerprint, PageCursor{position, ""});
}

std::string EncodePageToken(absl::string_view kind, uint64_t fingerprint,
                            const PageCursor& cursor) {
  const std::string payload = Payload(kind, fingerprint, cursor);
  return absl::WebSafeBase64Escape(
      absl::StrCat(payload, ":", absl::Hex(Hash64(payload) & 0xFFFFFFFF)));
}

absl::StatusOr<uint64_t> DecodePageToken(absl::string_view token,
                                         absl::string_view kind,
                                         uint64_t fingerprint) {
  PAPERDB_ASSIGN_OR_RETURN(PageCursor cursor,
                           DecodePageCursor(token, kind, fingerprint));
  return cursor.position;
}

absl::StatusOr<PageCursor> DecodePageCursor(absl::string_view token,
                                            absl::string_view kind,
                                            uint64_t fingerprint) {
  std::string raw;
  if (!absl::WebSafeBase64Unescape(token, &raw)) {
    return Invalid("not a token issued by this service");
  }
  const size_t last = raw.rfind(':');
  if (last == std::string::npos)
    return Invalid("not a token issued by this service");
  const absl::string_view payload = absl::string_view(raw).substr(0, last);
  const std::vector<absl::string_view> fields = absl::StrSplit(payload, ':');
  PageCursor cursor;
  uint64_t& position = cursor.position;
  if ((fields.size() != 4 && fields.size() != 5) || fields[0] != "v1" ||
      !absl::SimpleAtoi(fields[3], &position) ||
      (fields.size() == 5 &&
       !absl::WebSafeBase64Unescape(fields[4], &cursor.state)) ||
      raw.substr(last + 1) !=
          absl::StrCat(absl::Hex(Hash64(payload) & 0xFFFFFFFF))) {
    return Invalid("not a token issued by this service");
  }
  // Listings are of papers (32-bit doc ids): a larger position is forged,
  // and the next page's position would wrap to the first page.
  if (position > kMaxPageTokenPosition) {
    return Invalid(
        "not a token issued by this service (position out of range)");
  }
  if (payload != Payload(kind, fingerprint, cursor)) {
    return Invalid(
        "token was issued for a different request (another method, query, "
        "order_by, matching_strategy or semantic) or another store; keep the "
        "request unchanged between pages");
  }
  return cursor;
}

}  // namespace paperdb
