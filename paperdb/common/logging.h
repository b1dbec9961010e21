// One-line log events to stderr, which Kubernetes collects. paperdb logs an
// error once, where it is handled (an RPC boundary or main), and never logs
// abstract text or secrets.
//
// Thread safety: all functions may be called concurrently.

#ifndef PAPERDB_COMMON_LOGGING_H_
#define PAPERDB_COMMON_LOGGING_H_

#include "absl/strings/string_view.h"

namespace paperdb {

// Writes "<RFC 3339 UTC time> INFO <message>" as one line to stderr.
void LogInfo(absl::string_view message);
// As LogInfo, with level WARNING.
void LogWarning(absl::string_view message);
// As LogInfo, with level ERROR.
void LogError(absl::string_view message);

}  // namespace paperdb

#endif  // PAPERDB_COMMON_LOGGING_H_
