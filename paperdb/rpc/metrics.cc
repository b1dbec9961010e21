#include "paperdb/rpc/metrics.h"

#include <chrono>
#include <exception>
#include <random>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "google/protobuf/descriptor.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/interceptor.h"
#include "paperdb/common/logging.h"

namespace paperdb::rpc {
namespace {

// Upper bounds of the latency buckets, in seconds: 0.1 ms to 10 min (long
// ingests).
const prometheus::Histogram::BucketBoundaries& LatencyBuckets() {
  static const auto* buckets = new prometheus::Histogram::BucketBoundaries{
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
      0.25,   0.5,     1,      2.5,   5,      10,    30,   60,    300,  600};
  return *buckets;
}

std::string CodeName(grpc::StatusCode code) {
  static constexpr const char* kNames[] = {"OK",
                                           "CANCELLED",
                                           "UNKNOWN",
                                           "INVALID_ARGUMENT",
                                           "DEADLINE_EXCEEDED",
                                           "NOT_FOUND",
                                           "ALREADY_EXISTS",
                                           "PERMISSION_DENIED",
                                           "RESOURCE_EXHAUSTED",
                                           "FAILED_PRECONDITION",
                                           "ABORTED",
                                           "OUT_OF_RANGE",
                                           "UNIMPLEMENTED",
                                           "INTERNAL",
                                           "UNAVAILABLE",
                                           "DATA_LOSS",
                                           "UNAUTHENTICATED"};
  const int i = static_cast<int>(code);
  return i >= 0 && i <= 16 ? kNames[i] : absl::StrCat(i);
}

// 16 random hex digits.
std::string NewRequestId() {
  thread_local std::mt19937_64 random(std::random_device{}());
  return absl::StrFormat("%016x", random());
}

// Longest request id taken from a client; longer ones are replaced.
constexpr size_t kMaxRequestIdBytes = 128;

// True if `method` ("/package.Service/Method") is a method of a service
// compiled into this binary (its descriptor is in the generated pool) or of
// gRPC's health service. Any other path a client sends is answered
// UNIMPLEMENTED, and is counted under one label: a label per path would let
// any client grow the registry without bound.
bool IsKnownMethod(absl::string_view method) {
  if (absl::StartsWith(method, "/grpc.health.v1.Health/")) return true;
  if (!absl::ConsumePrefix(&method, "/")) return false;
  const size_t slash = method.find('/');
  if (slash == absl::string_view::npos) return false;
  const std::string full_name =
      absl::StrCat(method.substr(0, slash), ".", method.substr(slash + 1));
  return google::protobuf::DescriptorPool::generated_pool()->FindMethodByName(
             full_name) != nullptr;
}

class RpcInterceptor : public grpc::experimental::Interceptor {
 public:
  RpcInterceptor(grpc::experimental::ServerRpcInfo* info,
                 ServerMetrics* metrics)
      : info_(info),
        method_(info->method()),
        metrics_(metrics),
        start_(absl::Now()) {}

  void Intercept(
      grpc::experimental::InterceptorBatchMethods* methods) override {
    using grpc::experimental::InterceptionHookPoints;
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::POST_RECV_INITIAL_METADATA)) {
      for (const auto& [key, value] : *methods->GetRecvInitialMetadata()) {
        if (key == "x-request-id" && !value.empty() &&
            value.size() <= kMaxRequestIdBytes) {
          request_id_.assign(value.data(), value.size());
        }
      }
      if (request_id_.empty()) request_id_ = NewRequestId();
    }
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::PRE_SEND_INITIAL_METADATA)) {
      if (request_id_.empty()) request_id_ = NewRequestId();
      methods->GetSendInitialMetadata()->emplace("x-request-id", request_id_);
    }
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::PRE_SEND_STATUS)) {
      const grpc::StatusCode code = CodeOf(methods->GetSendStatus());
      const absl::Duration latency = absl::Now() - start_;
      if (metrics_ != nullptr) metrics_->ObserveCall(method_, code, latency);
      // Health checks come every few seconds from every probe: not logged.
      if (!absl::StartsWith(method_, "/grpc.health.v1.") &&
          !absl::StartsWith(method_, "/grpc.reflection.")) {
        LogEvent(RpcLogSeverity(code), "rpc",
                 {{"method", method_},
                  {"code", CodeName(code)},
                  {"duration_ms",
                   absl::StrFormat("%.3f", absl::ToDoubleMilliseconds(latency)),
                   /*number=*/true},
                  {"request_id", request_id_}});
      }
    }
    methods->Proceed();
  }

 private:
  // The call's code as its client saw it. A call whose deadline passed, or
  // whose client cancelled it, before its request arrived is answered by
  // gRPC's sync server with INTERNAL "No payload" or "Couldn't initialize
  // byte buffer reader" (proto_utils.h) without running the handler; the
  // client has its own DEADLINE_EXCEEDED or CANCELLED. The server learns of
  // the cancellation on another thread, so IsCancelled() may still be false
  // here: those messages before the deadline count as CANCELLED. (A client that
  // half-closes without sending a request, which no gRPC library does, is
  // counted CANCELLED too.) A handler that stopped because its call was
  // cancelled returns CANCELLED; if the client's deadline had passed, that is
  // what ended it.
  grpc::StatusCode CodeOf(const grpc::Status& status) const {
    const grpc::StatusCode code = status.error_code();
    const grpc::ServerContextBase* context = info_->server_context();
    if (context == nullptr) return code;
    if (code == grpc::StatusCode::CANCELLED &&
        context->deadline() <= std::chrono::system_clock::now()) {
      return grpc::StatusCode::DEADLINE_EXCEEDED;
    }
    if (code != grpc::StatusCode::INTERNAL) return code;
    if (context->deadline() <= std::chrono::system_clock::now()) {
      return grpc::StatusCode::DEADLINE_EXCEEDED;
    }
    if (status.error_message() == "No payload" ||
        status.error_message() == "Couldn't initialize byte buffer reader" ||
        context->IsCancelled()) {
      return grpc::StatusCode::CANCELLED;
    }
    return code;
  }

  grpc::experimental::ServerRpcInfo* const info_;
  const std::string method_;
  ServerMetrics* const metrics_;
  const absl::Time start_;
  std::string request_id_;
};

class RpcInterceptorFactoryImpl
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit RpcInterceptorFactoryImpl(ServerMetrics* metrics)
      : metrics_(metrics) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    return new RpcInterceptor(info, metrics_);
  }

 private:
  ServerMetrics* const metrics_;
};

}  // namespace

const char* RpcLogSeverity(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::UNKNOWN:
    case grpc::StatusCode::INTERNAL:
    case grpc::StatusCode::DATA_LOSS:
      return "ERROR";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::ABORTED:
    case grpc::StatusCode::UNIMPLEMENTED:
      return "WARNING";
    default:
      return "INFO";
  }
}

ServerMetrics::ServerMetrics(absl::string_view server)
    : server_(server),
      registry_(std::make_shared<prometheus::Registry>()),
      calls_(prometheus::BuildCounter()
                 .Name("paperdb_rpc_calls_total")
                 .Help("gRPC calls handled, by method and status code")
                 .Labels({{"server", server_}})
                 .Register(*registry_)),
      latency_(prometheus::BuildHistogram()
                   .Name("paperdb_rpc_latency_seconds")
                   .Help("gRPC call latency, from the call's start to its "
                         "status, by method")
                   .Labels({{"server", server_}})
                   .Register(*registry_)) {}

void ServerMetrics::ObserveCall(absl::string_view method, grpc::StatusCode code,
                                absl::Duration latency) {
  const std::string name =
      IsKnownMethod(method) ? std::string(method) : kUnknownMethod;
  calls_.Add({{"method", name}, {"code", CodeName(code)}}).Increment();
  latency_.Add({{"method", name}}, LatencyBuckets())
      .Observe(absl::ToDoubleSeconds(latency));
}

absl::StatusOr<MetricsServer> StartMetricsServer(absl::string_view listen,
                                                 ServerMetrics* metrics) {
  MetricsServer server;
  try {
    server.exposer =
        std::make_unique<prometheus::Exposer>(std::string(listen), 1);
  } catch (const std::exception& e) {
    return absl::UnavailableError(
        absl::StrCat("cannot serve metrics on ", listen, ": ", e.what()));
  }
  server.exposer->RegisterCollectable(metrics->shared_registry());
  const std::vector<int> ports = server.exposer->GetListeningPorts();
  if (ports.empty()) {
    return absl::UnavailableError(
        absl::StrCat("cannot serve metrics on ", listen));
  }
  server.port = ports.front();
  return server;
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
RpcInterceptorFactory(ServerMetrics* metrics) {
  return std::make_unique<RpcInterceptorFactoryImpl>(metrics);
}

}  // namespace paperdb::rpc
