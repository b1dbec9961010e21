#include "paperdb/rpc/server_runner.h"

#include <pthread.h>

#include "absl/algorithm/container.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/generic/async_generic_service.h"
#include "grpcpp/resource_quota.h"
#include "grpcpp/security/server_credentials.h"
#include "grpcpp/server_builder.h"
#include "paperdb/common/logging.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/rpc/reflection_v1.h"

namespace paperdb::rpc {

namespace {

// Answers a call to a method no registered service has.
class UnknownMethods final : public grpc::CallbackGenericService {
 public:
  grpc::ServerGenericBidiReactor* CreateReactor(
      grpc::GenericCallbackServerContext* context) override {
    class Reactor final : public grpc::ServerGenericBidiReactor {
     public:
      explicit Reactor(const std::string& method) {
        Finish(grpc::Status(
            grpc::StatusCode::UNIMPLEMENTED,
            absl::StrCat("method ", method, " is not served here")));
      }
      void OnDone() override { delete this; }
    };
    return new Reactor(context->method());
  }
};

}  // namespace

absl::string_view HostOf(absl::string_view listen) {
  if (absl::StartsWith(listen, "unix:") ||
      absl::StartsWith(listen, "unix-abstract:")) {
    return listen;
  }
  return listen.substr(0, listen.rfind(':'));
}

absl::Status CheckListenAddress(absl::string_view listen) {
  auto invalid = [listen](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot listen on '", listen, "': ", why));
  };
  if (absl::StartsWith(listen, "unix:") ||
      absl::StartsWith(listen, "unix-abstract:")) {
    if (listen.back() == ':') return invalid("no socket path after 'unix:'");
    return absl::OkStatus();
  }
  if (absl::c_any_of(listen, absl::ascii_isspace)) {
    return invalid("it holds white space");
  }
  if (absl::StartsWith(listen, "[")) {
    const size_t close = listen.find(']');
    if (close == absl::string_view::npos) {
      return invalid("an IPv6 host is written in brackets: [::1]:50051");
    }
    if (close + 1 == listen.size() || listen[close + 1] != ':') {
      return invalid("expected ':' and a port after the IPv6 host's ']'");
    }
  }
  const size_t colon = listen.rfind(':');
  const absl::string_view host =
      colon == absl::string_view::npos ? listen : listen.substr(0, colon);
  const absl::string_view port =
      colon == absl::string_view::npos ? "" : listen.substr(colon + 1);
  if (port.empty()) {
    return invalid("no port (give host:port; port 0 picks a free one)");
  }
  int value = 0;
  if (port.size() > 5 || !absl::c_all_of(port, absl::ascii_isdigit) ||
      !absl::SimpleAtoi(port, &value) || value > 65535) {
    return invalid(
        absl::StrCat("the port '", port, "' is not a number from 0 to 65535"));
  }
  if (host.empty()) {
    return invalid("no host (127.0.0.1 for this machine, 0.0.0.0 for all)");
  }
  return absl::OkStatus();
}

absl::StatusOr<StartedServer> StartServer(
    const ServerOptions& options, const std::vector<grpc::Service*>& services,
    HealthService* health) {
  PAPERDB_RETURN_IF_ERROR(CheckListenAddress(options.listen));
  PAPERDB_ASSIGN_OR_RETURN(std::shared_ptr<grpc::ServerCredentials> credentials,
                           MakeServerCredentials(options.tls));
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  InitReflectionV1ServerBuilderPlugin();
  grpc::ServerBuilder builder;
  StartedServer started;
  builder.AddListeningPort(options.listen, credentials, &started.port);
  grpc::ResourceQuota quota("paperdb");
  quota.SetMaxThreads(options.max_threads);
  builder.SetResourceQuota(quota);
  builder.SetMaxReceiveMessageSize(options.max_message_bytes);
  builder.SetMaxSendMessageSize(options.max_message_bytes);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS,
                             options.max_concurrent_streams);
  // Ping idle clients and drop those that do not answer, so that a vanished
  // client does not hold a call (and an ingest slot) for gRPC's default two
  // hours.
  builder.AddChannelArgument(
      GRPC_ARG_KEEPALIVE_TIME_MS,
      static_cast<int>(absl::ToInt64Milliseconds(options.keepalive_time)));
  builder.AddChannelArgument(
      GRPC_ARG_KEEPALIVE_TIMEOUT_MS,
      static_cast<int>(absl::ToInt64Milliseconds(options.keepalive_timeout)));
  // Clients may ping too (every 10 s at most, even between calls), as gRPC
  // clients with keepalive do; gRPC's default would answer their pings
  // with GOAWAY "too_many_pings".
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  builder.AddChannelArgument(
      GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 10 * 1000);
  if (options.max_connection_age > absl::ZeroDuration()) {
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS,
                               static_cast<int>(absl::ToInt64Milliseconds(
                                   options.max_connection_age)));
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS, 30 * 1000);
  }
  // gRPC sets SO_REUSEPORT by default, which lets a second server bind the
  // same port and silently take a share of the connections.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  std::vector<
      std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>>
      interceptors;
  interceptors.push_back(RpcInterceptorFactory(options.metrics));
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  for (grpc::Service* service : services) builder.RegisterService(service);
  builder.RegisterService(health);
  // Methods no service serves: UNIMPLEMENTED naming the method. (Also what
  // gRPC requires once rpc::WithCheckedRequests has replaced a generated
  // handler: request_check.h.)
  started.unknown_methods = std::make_unique<UnknownMethods>();
  builder.RegisterCallbackGenericService(started.unknown_methods.get());
  started.server = builder.BuildAndStart();
  if (started.server == nullptr || started.port == 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", options.listen,
                     ": the port is in use or the address is not this "
                     "machine's (gRPC's log line above says which)"));
  }
  return started;
}

sigset_t BlockTerminationSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

void WaitForTerminationAndDrain(const sigset_t& signals, grpc::Server* server,
                                HealthService* health, absl::Duration notice,
                                absl::Duration drain) {
  int signal_number = 0;
  sigwait(&signals, &signal_number);
  LogInfo(absl::StrCat("signal ", signal_number, ": NOT_SERVING for ",
                       absl::FormatDuration(notice),
                       ", then draining for up to ",
                       absl::FormatDuration(drain)));
  health->Shutdown();
  absl::SleepFor(notice);
  server->Shutdown(absl::ToChronoTime(absl::Now() + drain));
  LogInfo("stopped");
}

}  // namespace paperdb::rpc
