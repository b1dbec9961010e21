#include "paperdb/rpc/metrics.h"

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "paperdb/rpc/health_service.h"
#include "paperdb/rpc/server_runner.h"
#include "paperdb/v1/query_service.grpc.pb.h"
#include "prometheus/text_serializer.h"

namespace paperdb::rpc {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string Exposition(ServerMetrics& metrics) {
  return prometheus::TextSerializer().Serialize(metrics.registry().Collect());
}

// A server on a free loopback port with the health service, its calls
// counted in `metrics`.
absl::StatusOr<StartedServer> StartCounted(ServerMetrics* metrics,
                                           HealthService* health) {
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.metrics = metrics;
  return StartServer(options, {}, health);
}

TEST(RpcLogSeverityTest, CallersMistakesAreInfoServerFaultsErrors) {
  EXPECT_STREQ(RpcLogSeverity(grpc::StatusCode::OK), "INFO");
  EXPECT_STREQ(RpcLogSeverity(grpc::StatusCode::INVALID_ARGUMENT), "INFO");
  EXPECT_STREQ(RpcLogSeverity(grpc::StatusCode::NOT_FOUND), "INFO");
  EXPECT_STREQ(RpcLogSeverity(grpc::StatusCode::DEADLINE_EXCEEDED), "INFO");
  EXPECT_STREQ(RpcLogSeverity(grpc::StatusCode::UNAUTHENTICATED), "INFO");
  EXPECT_STREQ(RpcLogSeverity(grpc::StatusCode::RESOURCE_EXHAUSTED), "WARNING");
  EXPECT_STREQ(RpcLogSeverity(grpc::StatusCode::UNAVAILABLE), "WARNING");
  EXPECT_STREQ(RpcLogSeverity(grpc::StatusCode::INTERNAL), "ERROR");
  EXPECT_STREQ(RpcLogSeverity(grpc::StatusCode::DATA_LOSS), "ERROR");
}

TEST(ServerMetricsTest, CountsCallsByMethodAndCode) {
  ServerMetrics metrics("test_service");
  constexpr char kSearch[] = "/paperdb.v1.QueryService/SearchPapers";

  metrics.ObserveCall(kSearch, grpc::StatusCode::OK, absl::Milliseconds(2));
  metrics.ObserveCall(kSearch, grpc::StatusCode::OK, absl::Milliseconds(3));
  metrics.ObserveCall(kSearch, grpc::StatusCode::NOT_FOUND,
                      absl::Milliseconds(1));

  const std::string text = Exposition(metrics);
  EXPECT_THAT(text, HasSubstr("paperdb_rpc_calls_total{server=\"test_service\","
                              "code=\"OK\",method=\"/paperdb.v1.QueryService/"
                              "SearchPapers\"} 2"));
  EXPECT_THAT(text, HasSubstr("paperdb_rpc_calls_total{server=\"test_service\","
                              "code=\"NOT_FOUND\",method=\"/paperdb.v1."
                              "QueryService/SearchPapers\"} 1"));
  EXPECT_THAT(text, HasSubstr("paperdb_rpc_latency_seconds_count{server=\"test_"
                              "service\",method=\"/paperdb.v1.QueryService/"
                              "SearchPapers\"} 3"));
}

// Paths of no service share one label: a client sending made-up methods
// adds no series.
TEST(ServerMetricsTest, MethodsOfNoServiceShareOneLabel) {
  ServerMetrics metrics("test_service");

  metrics.ObserveCall("/a.B/C", grpc::StatusCode::UNIMPLEMENTED,
                      absl::Milliseconds(1));
  metrics.ObserveCall("/x0123/m", grpc::StatusCode::UNIMPLEMENTED,
                      absl::Milliseconds(1));
  metrics.ObserveCall("/paperdb.v1.QueryService/Nope",
                      grpc::StatusCode::UNIMPLEMENTED, absl::Milliseconds(1));
  metrics.ObserveCall("no-slash", grpc::StatusCode::UNIMPLEMENTED,
                      absl::Milliseconds(1));

  const std::string text = Exposition(metrics);
  EXPECT_THAT(text, HasSubstr("paperdb_rpc_calls_total{server=\"test_service\","
                              "code=\"UNIMPLEMENTED\",method=\"unknown\"} 4"));
  EXPECT_THAT(text, Not(HasSubstr("/a.B/C")));
  EXPECT_THAT(text, Not(HasSubstr("x0123")));
}

TEST(ServerMetricsTest, ServerCallsAreCountedAndGetARequestId) {
  ServerMetrics metrics("test_service");
  HealthService health;
  auto server = StartCounted(&metrics, &health);
  ASSERT_TRUE(server.ok()) << server.status();
  health.SetServing("", true);
  auto stub = grpc::health::v1::Health::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(server->port),
                          grpc::InsecureChannelCredentials()));

  grpc::ClientContext given;
  given.set_deadline(std::chrono::system_clock::now() +
                     std::chrono::seconds(5));
  given.AddMetadata("x-request-id", "req-42");
  grpc::health::v1::HealthCheckResponse response;
  ASSERT_TRUE(
      stub->Check(&given, grpc::health::v1::HealthCheckRequest(), &response)
          .ok());
  grpc::ClientContext made;
  made.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  grpc::health::v1::HealthCheckRequest unknown;
  unknown.set_service("nope");
  EXPECT_EQ(stub->Check(&made, unknown, &response).error_code(),
            grpc::StatusCode::NOT_FOUND);
  server->server->Shutdown();

  auto id = given.GetServerInitialMetadata().find("x-request-id");
  ASSERT_NE(id, given.GetServerInitialMetadata().end());
  EXPECT_EQ(std::string(id->second.data(), id->second.size()), "req-42");
  auto generated = made.GetServerInitialMetadata().find("x-request-id");
  ASSERT_NE(generated, made.GetServerInitialMetadata().end());
  EXPECT_EQ(generated->second.size(), 16u);
  const std::string text = Exposition(metrics);
  EXPECT_THAT(text, HasSubstr("paperdb_rpc_calls_total{server=\"test_service\","
                              "code=\"OK\",method=\"/grpc.health.v1.Health/"
                              "Check\"} 1"));
  EXPECT_THAT(text, HasSubstr("code=\"NOT_FOUND\",method=\"/grpc.health.v1."
                              "Health/Check\"} 1"));
}

// Clients that go away before sending their request: gRPC's sync server
// answers such a call INTERNAL ("No payload") without running the handler,
// though the client saw CANCELLED or DEADLINE_EXCEEDED. The metrics (and
// the access log) say what the client saw. (QueryService's generated sync
// service stands in for paperdb's; health is a callback service.)
TEST(ServerMetricsTest, CallsEndedBeforeTheirRequestCountAsTheClientSawThem) {
  ServerMetrics metrics("test_service");
  HealthService health;
  paperdb::v1::QueryService::Service sync_service;
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.metrics = &metrics;
  auto server = StartServer(options, {&sync_service}, &health);
  ASSERT_TRUE(server.ok()) << server.status();
  grpc::GenericStub stub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(server->port),
                          grpc::InsecureChannelCredentials()));
  grpc::CompletionQueue cq;
  void* tag = nullptr;
  bool ok = false;
  // Starts a call (its metadata sent) and never sends the request.
  auto start = [&](grpc::ClientContext* context) {
    auto call =
        stub.PrepareCall(context, "/paperdb.v1.QueryService/SearchPapers", &cq);
    call->StartCall(context);
    EXPECT_TRUE(cq.Next(&tag, &ok));
    EXPECT_EQ(tag, context);
    return call;
  };
  grpc::ClientContext cancelled;
  cancelled.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(30));
  auto first = start(&cancelled);
  grpc::ClientContext timed_out;
  timed_out.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::milliseconds(300));
  auto second = start(&timed_out);
  cancelled.TryCancel();
  grpc::Status first_status;
  grpc::Status second_status;
  first->Finish(&first_status, &first_status);
  second->Finish(&second_status, &second_status);
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(cq.Next(&tag, &ok));
  EXPECT_EQ(first_status.error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_EQ(second_status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);

  // The server counts each call when it sends its status, on its own time.
  // The timed-out call is DEADLINE_EXCEEDED, or CANCELLED if the client's
  // own deadline timer cancelled it before the server's fired.
  auto count = [](const std::string& text, const std::string& code) {
    const std::string line =
        "code=\"" + code +
        "\",method=\"/paperdb.v1.QueryService/SearchPapers\"} ";
    const size_t at = text.find(line);
    return at == std::string::npos ? 0
                                   : std::atoi(text.c_str() + at + line.size());
  };
  std::string text;
  for (int wait = 0; wait < 100; ++wait) {
    text = Exposition(metrics);
    if (count(text, "CANCELLED") + count(text, "DEADLINE_EXCEEDED") +
            count(text, "INTERNAL") ==
        2) {
      break;
    }
    absl::SleepFor(absl::Milliseconds(50));
  }
  server->server->Shutdown();
  cq.Shutdown();
  while (cq.Next(&tag, &ok)) {
  }
  EXPECT_GE(count(text, "CANCELLED"), 1) << text;
  EXPECT_EQ(count(text, "CANCELLED") + count(text, "DEADLINE_EXCEEDED"), 2)
      << text;
  EXPECT_THAT(text, Not(HasSubstr("code=\"INTERNAL\"")));
}

TEST(StartMetricsServerTest, ServesTheRegistryOverHttp) {
  ServerMetrics metrics("test_service");
  metrics.ObserveCall("/grpc.health.v1.Health/Check", grpc::StatusCode::OK,
                      absl::Milliseconds(2));

  auto server = StartMetricsServer("127.0.0.1:0", &metrics);

  ASSERT_TRUE(server.ok()) << server.status();
  EXPECT_GT(server->port, 0);
  const std::string command =
      "/usr/bin/python3 -c \"import urllib.request,sys; sys.stdout.write("
      "urllib.request.urlopen('http://127.0.0.1:" +
      std::to_string(server->port) + "/metrics').read().decode())\"";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string body;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof(buffer), pipe))
    body.append(buffer, n);
  pclose(pipe);
  EXPECT_THAT(body, HasSubstr("paperdb_rpc_calls_total{server=\"test_service\","
                              "code=\"OK\",method=\"/grpc.health.v1.Health/"
                              "Check\"} 1"));
}

}  // namespace
}  // namespace paperdb::rpc
