#include "paperdb/common/cpu.h"

namespace paperdb {

absl::Status CheckCpuFeatures() {
#if defined(__x86_64__) && defined(__POPCNT__)
  if (!__builtin_cpu_supports("popcnt")) {
    return absl::FailedPreconditionError(
        "this CPU lacks the POPCNT instruction, which this build uses; "
        "rebuild with cmake -DPAPERDB_POPCNT=OFF");
  }
#endif
  return absl::OkStatus();
}

}  // namespace paperdb
