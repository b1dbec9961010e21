#include "paperdb/rpc/service_main.h"

#include <iostream>

#include "absl/flags/parse.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "google/protobuf/stubs/logging.h"
#include "paperdb/common/cpu.h"
#include "paperdb/common/flags_usage.h"
#include "paperdb/common/logging.h"
#include "paperdb/rpc/health_probe.h"
#include "paperdb/rpc/server_runner.h"

namespace paperdb::rpc {
namespace {

void ProtobufLogToJson(google::protobuf::LogLevel level, const char* filename,
                       int line, const std::string& message) {
  // Protobuf reports a client's malformed bytes (invalid UTF-8 in a string
  // field) at ERROR; the call that parsed them answers INVALID_ARGUMENT, so
  // only FATAL is an error of the service's.
  const absl::string_view severity =
      level == google::protobuf::LOGLEVEL_FATAL
          ? "ERROR"
          : (level == google::protobuf::LOGLEVEL_INFO ? "INFO" : "WARNING");
  LogEvent(severity, absl::StrCat("protobuf: ", message),
           {{"source", absl::StrCat(filename, ":", line)}});
}

}  // namespace

void LogProtobufAsJson() {
  google::protobuf::SetLogHandler(&ProtobufLogToJson);
}

ServiceMainStart StartServiceMain(int argc, char** argv,
                                  const ServiceMainOptions& options) {
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  LogProtobufAsJson();
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
  // Before a store is opened or created.
  if (const absl::Status listen =
          CheckListenAddress(absl::GetFlag(*options.listen));
      !listen.ok()) {
    std::cerr << options.program << ": --listen: " << listen.message() << "\n";
    start.exit_status = 2;
    return start;
  }
  if (start.positional.size() == 2 &&
      absl::string_view(start.positional[1]) == "probe") {
    start.exit_status =
        ProbeHealth(ProbeAddress(absl::GetFlag(*options.listen)),
                    options.health_service, absl::Seconds(3));
  }
  return start;
}

}  // namespace paperdb::rpc
