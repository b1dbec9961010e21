// The CPU features a build of paperdb relies on, checked at start-up so that
// a CPU without them gets an error message instead of an illegal-instruction
// crash at its first search.

#ifndef PAPERDB_COMMON_CPU_H_
#define PAPERDB_COMMON_CPU_H_

#include "absl/status/status.h"

namespace paperdb {

// OK if this CPU runs every instruction the build may use; FAILED_PRECONDITION
// naming the missing one (POPCNT, for an x86-64 build with PAPERDB_POPCNT,
// the default) and the CMake option that builds without it.
absl::Status CheckCpuFeatures();

}  // namespace paperdb

#endif  // PAPERDB_COMMON_CPU_H_
