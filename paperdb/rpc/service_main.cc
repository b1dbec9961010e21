#include "paperdb/rpc/service_main.h"

#include <iostream>

#include "absl/flags/parse.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "paperdb/common/cpu.h"
#include "paperdb/common/flags_usage.h"
#include "paperdb/rpc/health_probe.h"

namespace paperdb::rpc {

ServiceMainStart StartServiceMain(int argc, char** argv,
                                  const ServiceMainOptions& options) {
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  SetUpFlagsUsage(options.usage);
  ServiceMainStart start;
  if (const absl::Status from_env = ApplyFlagsFromEnvironment();
      !from_env.ok()) {
    std::cerr << options.program << ": " << from_env.message() << "\n";
    start.exit_status = 2;
    return start;
  }
  if (const absl::Status cpu = CheckCpuFeatures(); !cpu.ok()) {
    std::cerr << options.program << ": " << cpu.message() << "\n";
    start.exit_status = 2;
    return start;
  }
  start.positional = absl::ParseCommandLine(argc, argv);
  if (start.positional.size() == 2 &&
      absl::string_view(start.positional[1]) == "probe") {
    start.exit_status =
        ProbeHealth(ProbeAddress(absl::GetFlag(*options.listen)),
                    options.health_service, absl::Seconds(3));
  }
  return start;
}

}  // namespace paperdb::rpc
