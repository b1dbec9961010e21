#include "paperdb/common/logging.h"

#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace paperdb {
namespace {

void Log(absl::string_view level, absl::string_view message) {
  // One fwrite per event, so concurrent lines do not interleave.
  const std::string line =
      absl::StrCat(absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(),
                                    absl::UTCTimeZone()),
                   " ", level, " ", message, "\n");
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace

void LogInfo(absl::string_view message) { Log("INFO", message); }
void LogWarning(absl::string_view message) { Log("WARNING", message); }
void LogError(absl::string_view message) { Log("ERROR", message); }

}  // namespace paperdb
