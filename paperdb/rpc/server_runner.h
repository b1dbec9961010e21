// Shared set-up of paperdb's gRPC servers: listening, health, reflection,
// thread and message-size limits, and a SIGTERM drain.

#ifndef PAPERDB_RPC_SERVER_RUNNER_H_
#define PAPERDB_RPC_SERVER_RUNNER_H_

#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "grpcpp/generic/async_generic_service.h"
#include "grpcpp/server.h"
#include "paperdb/rpc/health_service.h"
#include "paperdb/rpc/metrics.h"
#include "paperdb/rpc/tls.h"

namespace paperdb::rpc {

struct ServerOptions {
  std::string listen =
      "127.0.0.1:50051";             // host:port; port 0 picks a free one.
  int max_threads = 256;             // Sync-server thread cap.
  int max_message_bytes = 64 << 20;  // Largest request or response.
  int max_concurrent_streams = 100;  // Calls in flight per connection.
  // Idle connections are pinged this often; a client that does not answer
  // within keepalive_timeout is dropped (and its calls cancelled).
  absl::Duration keepalive_time = absl::Seconds(60);
  absl::Duration keepalive_timeout = absl::Seconds(20);
  // Connections older than this are closed gracefully (in-flight calls get
  // 30 s), so that clients reconnect and spread over new replicas; zero:
  // never.
  absl::Duration max_connection_age = absl::ZeroDuration();
  // Counts and times every call (metrics.h); null: access log only. Must
  // outlive the server.
  ServerMetrics* metrics = nullptr;
  TlsOptions tls;  // Default: plaintext.
};

// A started server and the port it listens on.
struct StartedServer {
  // Answers methods no service serves (UNIMPLEMENTED naming the method);
  // declared first, so that it outlives `server`.
  std::unique_ptr<grpc::CallbackGenericService> unknown_methods;
  std::unique_ptr<grpc::Server> server;
  int port = 0;
};

// OK if `listen` is an address gRPC can listen on as meant: "host:port" or
// "[ipv6]:port" with a port of 0 to 65535 (0 picks a free one), or a
// "unix:" or "unix-abstract:" path. INVALID_ARGUMENT naming the address
// otherwise: gRPC itself would bind port 99999 as 34463 and a missing port
// as 443.
absl::Status CheckListenAddress(absl::string_view listen);

// The host part of a --listen address CheckListenAddress() accepts, for
// logs: "127.0.0.1" of "127.0.0.1:50051", "[::]" of "[::]:0"; a "unix:"
// address whole.
absl::string_view HostOf(absl::string_view listen);

// Builds and starts a server with `services`, `health` and server
// reflection, plaintext or TLS as options.tls says. CheckListenAddress()'s
// error for a bad options.listen; UNAVAILABLE if the
// address cannot be bound; MakeServerCredentials' errors for bad TLS files.
// Every service must outlive the server.
absl::StatusOr<StartedServer> StartServer(
    const ServerOptions& options, const std::vector<grpc::Service*>& services,
    HealthService* health);

// Blocks SIGINT and SIGTERM in the calling thread, so that threads started
// later inherit the mask and WaitForTermination() can collect them. Call
// first thing in main().
sigset_t BlockTerminationSignals();

// Waits for SIGINT or SIGTERM, reports NOT_SERVING, keeps serving for
// `notice` (so that load balancers and Kubernetes readiness probes see
// NOT_SERVING and stop sending calls), then shuts the server down, giving
// in-flight calls up to `drain` to finish.
void WaitForTerminationAndDrain(const sigset_t& signals, grpc::Server* server,
                                HealthService* health, absl::Duration notice,
                                absl::Duration drain);

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_SERVER_RUNNER_H_
