// The start of main() shared by paperdb's gRPC services (ingest_service,
// query_service): process settings, flags, the CPU check and the `probe`
// subcommand, all of which happen before a service reads its own flags.

#ifndef PAPERDB_RPC_SERVICE_MAIN_H_
#define PAPERDB_RPC_SERVICE_MAIN_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/string_view.h"

namespace paperdb::rpc {

// What a service's main() passes to StartServiceMain.
struct ServiceMainOptions {
  absl::string_view program;         // Prefix of error lines: "query_service".
  absl::string_view usage;           // For SetUpFlagsUsage.
  absl::string_view health_service;  // What `probe` checks, e.g.
                                     // "paperdb.v1.QueryService".
  // The binary's --listen flag (host:port), not null: `probe` asks the
  // server there.
  const absl::Flag<std::string>* listen = nullptr;
};

// What StartServiceMain leaves to main().
struct ServiceMainStart {
  // Set when main() returns it at once: 2 for a bad PAPERDB_* environment
  // variable, a --listen address CheckListenAddress() refuses, or a CPU
  // without a feature the build uses (the error printed to
  // stderr as "program: message"); the probe's status (0 if SERVING, else
  // 1) after the `probe` subcommand.
  std::optional<int> exit_status;
  // absl::ParseCommandLine's result: argv[0], then the positional arguments.
  std::vector<char*> positional;
};

// Routes protobuf's own log lines (such as "String field ... contains
// invalid UTF-8", when a client's bytes are parsed) into the JSON log
// (paperdb/common/logging.h), at WARNING unless protobuf's level is FATAL
// (then ERROR), with "source" naming protobuf's file and line. Not
// thread-safe: call before threads start.
void LogProtobufAsJson();

// Turns off Abseil's Mutex deadlock detection (on in Debian's Abseil, built
// without NDEBUG: a graph update on every lock, 2% of a search's CPU); sets
// the usage message (SetUpFlagsUsage) and LogProtobufAsJson(); applies the
// flags' environment variables (ApplyFlagsFromEnvironment), then checks the CPU
// (CheckCpuFeatures); parses the command line, which the environment does
// not override. When the only positional argument is `probe`, checks
// `health_service` at ProbeAddress(--listen) with a 3 s deadline. Call first
// in main(); exits the process on a command-line error, as
// absl::ParseCommandLine does.
ServiceMainStart StartServiceMain(int argc, char** argv,
                                  const ServiceMainOptions& options);

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_SERVICE_MAIN_H_
