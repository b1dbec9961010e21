// Command-line help set-up shared by paperdb's binaries.

#ifndef PAPERDB_COMMON_FLAGS_USAGE_H_
#define PAPERDB_COMMON_FLAGS_USAGE_H_

#include "absl/strings/string_view.h"

namespace paperdb {

// Sets the usage message and makes --help list the flags defined in the
// binary's main.cc (Abseil's default only lists flags of a file named after
// the program, which is none of ours). Call before absl::ParseCommandLine.
void SetUpFlagsUsage(absl::string_view usage);

}  // namespace paperdb

#endif  // PAPERDB_COMMON_FLAGS_USAGE_H_
