// Prometheus metrics and the per-call access log of paperdb's gRPC servers.
//
// ServerMetrics holds a prometheus-cpp registry with the metrics every
// server has (calls by method and status code, latency histograms by
// method) and lets each service add its own families. StartMetricsServer()
// serves the registry as Prometheus text on its own HTTP port (/metrics).
// RpcInterceptorFactory() observes every call of a server: it counts and
// times it, takes the request id from the `x-request-id` metadata (or
// makes one), returns it to the client as `x-request-id` metadata, and
// logs one JSON line per call (method, code, milliseconds, request id;
// never request contents or metadata values other than the request id).

#ifndef PAPERDB_RPC_METRICS_H_
#define PAPERDB_RPC_METRICS_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "grpcpp/support/server_interceptor.h"
#include "prometheus/counter.h"
#include "prometheus/exposer.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace paperdb::rpc {

// The `method` label of calls to a method no service of the binary has.
inline constexpr char kUnknownMethod[] = "unknown";

// Thread safety: all methods may be called concurrently.
class ServerMetrics {
 public:
  // `server` names the binary in the `server` label, e.g. "query_service".
  explicit ServerMetrics(absl::string_view server);

  // Counts one call of `method` ("/paperdb.v1.QueryService/SearchPapers")
  // that ended with `code` after `latency`; a method of no service compiled
  // into the binary (nor gRPC health) is counted as kUnknownMethod, so
  // clients cannot add labels.
  void ObserveCall(absl::string_view method, grpc::StatusCode code,
                   absl::Duration latency);

  // For services' own metrics, all prefixed "paperdb_".
  prometheus::Registry& registry() { return *registry_; }
  std::shared_ptr<prometheus::Registry> shared_registry() { return registry_; }
  const std::string& server() const { return server_; }

 private:
  const std::string server_;
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Counter>& calls_;
  prometheus::Family<prometheus::Histogram>& latency_;
};

// A started metrics endpoint; stops serving when destroyed.
struct MetricsServer {
  std::unique_ptr<prometheus::Exposer> exposer;
  int port = 0;
};

// Serves `metrics` at http://`listen`/metrics (host:port; port 0 picks a
// free one). UNAVAILABLE if the address cannot be bound.
absl::StatusOr<MetricsServer> StartMetricsServer(absl::string_view listen,
                                                 ServerMetrics* metrics);

// The severity of a call's access-log line by the code its client saw:
// INFO for OK and for codes that describe the request or its caller
// (INVALID_ARGUMENT, NOT_FOUND, CANCELLED, DEADLINE_EXCEEDED, ...), WARNING
// for load and availability (RESOURCE_EXHAUSTED, UNAVAILABLE, ABORTED,
// UNIMPLEMENTED), ERROR for the server's faults (UNKNOWN, INTERNAL,
// DATA_LOSS).
const char* RpcLogSeverity(grpc::StatusCode code);

// Interceptor factory for grpc::ServerBuilder: access log and, if
// `metrics` is not null, call metrics. `metrics` must outlive the server.
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
RpcInterceptorFactory(ServerMetrics* metrics);

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_METRICS_H_
