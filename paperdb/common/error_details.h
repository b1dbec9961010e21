// Machine-readable details on an absl::Status, for clients to act on: which
// request field is wrong and why (google.rpc.BadRequest), and a stable
// reason with metadata (google.rpc.ErrorInfo). They travel as absl::Status
// payloads, so code below the service edge needs no protobuf; the edge
// (paperdb/rpc/grpc_status.h) turns them into google.rpc.Status details.

#ifndef PAPERDB_COMMON_ERROR_DETAILS_H_
#define PAPERDB_COMMON_ERROR_DETAILS_H_

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace paperdb {

// ErrorInfo.domain of every paperdb error.
inline constexpr absl::string_view kErrorDomain = "paperdb.dev";

// `status` with the request field it is about (BadRequest.FieldViolation;
// the status message is the description), e.g. "query", "page_token".
absl::Status WithField(absl::Status status, absl::string_view field);

// `status` with ErrorInfo reason (UPPER_SNAKE_CASE, e.g. "QUERY_SYNTAX") and
// metadata (e.g. {"position", "6"}).
absl::Status WithReason(
    absl::Status status, absl::string_view reason,
    std::initializer_list<std::pair<absl::string_view, std::string>> metadata =
        {});

// What WithField() and WithReason() attached: empty if nothing.
std::string FieldOf(const absl::Status& status);
std::string ReasonOf(const absl::Status& status);
std::vector<std::pair<std::string, std::string>> MetadataOf(
    const absl::Status& status);

}  // namespace paperdb

#endif  // PAPERDB_COMMON_ERROR_DETAILS_H_
