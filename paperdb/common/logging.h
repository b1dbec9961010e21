// Structured logs: one JSON object per line on stderr, which Kubernetes
// collects, e.g.
//   {"time":"2026-11-30T16:00:00.123Z","severity":"INFO","message":"..."}
// paperdb logs an error once, where it is handled (an RPC boundary or main),
// and never logs abstract text or secrets (tokens, authorization metadata).
//
// Thread safety: all functions may be called concurrently.

#ifndef PAPERDB_COMMON_LOGGING_H_
#define PAPERDB_COMMON_LOGGING_H_

#include <initializer_list>
#include <string>

#include "absl/strings/string_view.h"

namespace paperdb {

// An extra key of a log line: a JSON string, or a JSON number if `number`
// (then `value` must already be a valid JSON number, e.g. "1.25").
struct LogField {
  absl::string_view key;
  std::string value;
  bool number = false;
};

// Writes {"time":..., "severity": <severity>, "message": <message>, fields...}
// as one line to stderr, strings escaped as JSON requires.
void LogEvent(absl::string_view severity, absl::string_view message,
              std::initializer_list<LogField> fields = {});

// LogEvent with severity INFO, WARNING or ERROR.
void LogInfo(absl::string_view message);
void LogWarning(absl::string_view message);
void LogError(absl::string_view message);

// `text` as a JSON string literal, quotes included.
std::string JsonString(absl::string_view text);

}  // namespace paperdb

#endif  // PAPERDB_COMMON_LOGGING_H_
