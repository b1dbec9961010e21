// Command-line set-up shared by paperdb's binaries: help text, and flags
// from environment variables.

#ifndef PAPERDB_COMMON_FLAGS_USAGE_H_
#define PAPERDB_COMMON_FLAGS_USAGE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace paperdb {

// Sets the usage message (with a note on environment variables appended)
// and makes --help list the flags defined in the binary's main.cc (or, for
// benchmarks, bench/*.cc) and in paperdb/rpc/security_flags.cc, with paths
// relative to the source tree.
// Call before absl::ParseCommandLine.
void SetUpFlagsUsage(absl::string_view usage);

// The environment variable that can set flag `name`: "PAPERDB_" and the
// name in upper case, e.g. PAPERDB_CATCH_UP_INTERVAL_MS.
std::string FlagEnvironmentVariable(absl::string_view name);

// Sets every flag listed by --help whose environment variable
// (FlagEnvironmentVariable) is set. Call before absl::ParseCommandLine, so
// that the command line wins. INVALID_ARGUMENT naming the variable if a
// value does not parse.
absl::Status ApplyFlagsFromEnvironment();

}  // namespace paperdb

#endif  // PAPERDB_COMMON_FLAGS_USAGE_H_
