#include "paperdb/rpc/health_service.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "paperdb/rpc/server_runner.h"
#include "paperdb/v1/query_service.grpc.pb.h"

namespace paperdb::rpc {
namespace {

using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;

// A sync service whose SearchPapers holds its request thread until released.
class BlockingSearch final : public paperdb::v1::QueryService::Service {
 public:
  grpc::Status SearchPapers(
      grpc::ServerContext* /*context*/,
      const paperdb::v1::SearchPapersRequest* /*request*/,
      paperdb::v1::SearchPapersResponse* /*response*/) override {
    {
      absl::MutexLock lock(&mu_);
      ++running_;
    }
    release_.WaitForNotification();
    return grpc::Status::OK;
  }
  int running() {
    absl::MutexLock lock(&mu_);
    return running_;
  }
  void Release() {
    if (!release_.HasBeenNotified()) release_.Notify();
  }

 private:
  absl::Mutex mu_;
  int running_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Notification release_;
};

std::chrono::system_clock::time_point In(int seconds) {
  return std::chrono::system_clock::now() + std::chrono::seconds(seconds);
}

class HealthServiceTest : public ::testing::Test {
 protected:
  void Start(int max_threads) {
    ServerOptions options;
    options.listen = "127.0.0.1:0";
    options.max_threads = max_threads;
    auto started = StartServer(options, {&search_}, &health_);
    ASSERT_TRUE(started.ok()) << started.status();
    server_ = std::move(*started);
    channel_ = grpc::CreateChannel("127.0.0.1:" + std::to_string(server_.port),
                                   grpc::InsecureChannelCredentials());
    stub_ = grpc::health::v1::Health::NewStub(channel_);
  }
  // A Watch of `service` with a 10 s deadline on `context`.
  std::unique_ptr<grpc::ClientReader<HealthCheckResponse>> Watch(
      grpc::ClientContext* context, const std::string& service) {
    context->set_deadline(In(10));
    HealthCheckRequest request;
    request.set_service(service);
    return stub_->Watch(context, request);
  }
  // The next status `stream` sends, or -1 if it has ended.
  static int Next(grpc::ClientReader<HealthCheckResponse>* stream) {
    HealthCheckResponse response;
    return stream->Read(&response) ? response.status() : -1;
  }
  void TearDown() override {
    search_.Release();
    if (server_.server) server_.server->Shutdown(In(5));
  }

  BlockingSearch search_;
  HealthService health_;
  StartedServer server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<grpc::health::v1::Health::Stub> stub_;
};

// The probe Kubernetes sends must not wait for, or be refused by, a request
// pool that searches have filled.
TEST_F(HealthServiceTest, CheckAnswersWhileEveryRequestThreadIsBusy) {
  Start(/*max_threads=*/4);
  health_.SetServing("", true);
  auto search = paperdb::v1::QueryService::NewStub(channel_);
  grpc::CompletionQueue cq;
  constexpr int kCalls = 16;
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  std::vector<grpc::Status> statuses(kCalls);
  std::vector<paperdb::v1::SearchPapersResponse> responses(kCalls);
  std::vector<std::unique_ptr<
      grpc::ClientAsyncResponseReader<paperdb::v1::SearchPapersResponse>>>
      calls;
  for (int i = 0; i < kCalls; ++i) {
    contexts.push_back(std::make_unique<grpc::ClientContext>());
    contexts.back()->set_deadline(In(30));
    calls.push_back(search->AsyncSearchPapers(
        contexts.back().get(), paperdb::v1::SearchPapersRequest(), &cq));
    calls.back()->Finish(&responses[i], &statuses[i],
                         reinterpret_cast<void*>(static_cast<intptr_t>(i)));
  }
  // The pool is full once the calls it cannot take are refused.
  int refused = 0;
  void* tag = nullptr;
  bool ok = false;
  while (refused == 0 &&
         cq.AsyncNext(&tag, &ok, In(10)) == grpc::CompletionQueue::GOT_EVENT) {
    const int i = static_cast<int>(reinterpret_cast<intptr_t>(tag));
    if (statuses[i].error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
      ++refused;
    }
  }
  ASSERT_EQ(refused, 1);
  ASSERT_GE(search_.running(), 1);

  grpc::ClientContext context;
  context.set_deadline(In(5));
  HealthCheckResponse response;
  const grpc::Status status =
      stub_->Check(&context, HealthCheckRequest(), &response);

  EXPECT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(response.status(), HealthCheckResponse::SERVING);
  search_.Release();
  for (int done = refused; done < kCalls; ++done) {
    ASSERT_EQ(cq.AsyncNext(&tag, &ok, In(10)),
              grpc::CompletionQueue::GOT_EVENT);
  }
  cq.Shutdown();
  while (cq.Next(&tag, &ok)) {
  }
}

TEST_F(HealthServiceTest, CheckOfAServiceNeverSetIsNotFoundNamingIt) {
  Start(/*max_threads=*/4);
  grpc::ClientContext context;
  context.set_deadline(In(5));
  HealthCheckRequest request;
  request.set_service("paperdb.v1.Nope");
  HealthCheckResponse response;

  const grpc::Status status = stub_->Check(&context, request, &response);

  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(status.error_message(), "unknown service 'paperdb.v1.Nope'");
}

TEST_F(HealthServiceTest, WatchSendsEachChangeThenEndsAtShutdown) {
  Start(/*max_threads=*/4);
  health_.SetServing("paperdb.v1.QueryService", true);
  grpc::ClientContext context;
  auto stream = Watch(&context, "paperdb.v1.QueryService");

  EXPECT_EQ(Next(stream.get()), HealthCheckResponse::SERVING);
  health_.SetServing("paperdb.v1.QueryService", false);
  EXPECT_EQ(Next(stream.get()), HealthCheckResponse::NOT_SERVING);
  health_.SetServing("paperdb.v1.QueryService", true);
  EXPECT_EQ(Next(stream.get()), HealthCheckResponse::SERVING);
  health_.Shutdown();
  EXPECT_EQ(Next(stream.get()), HealthCheckResponse::NOT_SERVING);
  EXPECT_EQ(Next(stream.get()), -1);
  EXPECT_TRUE(stream->Finish().ok());
}

// Changes to other services, or that leave the status as it was, send
// nothing; a shutdown of a service already NOT_SERVING just ends the stream.
TEST_F(HealthServiceTest, WatchSendsOnlyChangesOfItsServicesStatus) {
  Start(/*max_threads=*/4);
  health_.SetServing("a", true);
  grpc::ClientContext context;
  auto stream = Watch(&context, "a");
  EXPECT_EQ(Next(stream.get()), HealthCheckResponse::SERVING);

  health_.SetServing("b", true);
  health_.SetServing("a", true);
  health_.SetServing("a", false);
  health_.Shutdown();

  EXPECT_EQ(Next(stream.get()), HealthCheckResponse::NOT_SERVING);
  EXPECT_EQ(Next(stream.get()), -1);
  EXPECT_TRUE(stream->Finish().ok());
}

TEST_F(HealthServiceTest, WatchOfAnUnknownServiceSaysSoUntilItIsSet) {
  Start(/*max_threads=*/4);
  grpc::ClientContext context;
  auto stream = Watch(&context, "later");

  EXPECT_EQ(Next(stream.get()), HealthCheckResponse::SERVICE_UNKNOWN);
  health_.SetServing("later", true);
  EXPECT_EQ(Next(stream.get()), HealthCheckResponse::SERVING);
  context.TryCancel();
  EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::CANCELLED);
}

// A cancelled stream gives its place back: after kMaxWatchers streams and a
// refusal, cancelling one lets a new one open.
TEST_F(HealthServiceTest, CancelledWatchStreamsFreeTheirPlace) {
  Start(/*max_threads=*/4);
  health_.SetServing("", true);
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  std::vector<std::unique_ptr<grpc::ClientReader<HealthCheckResponse>>> streams;
  auto open = [&]() -> grpc::ClientReader<HealthCheckResponse>* {
    contexts.push_back(std::make_unique<grpc::ClientContext>());
    contexts.back()->set_deadline(In(20));
    streams.push_back(
        stub_->Watch(contexts.back().get(), HealthCheckRequest()));
    return streams.back().get();
  };
  HealthCheckResponse response;
  for (int i = 0; i < HealthService::kMaxWatchers; ++i) {
    ASSERT_TRUE(open()->Read(&response)) << i;
  }
  grpc::ClientReader<HealthCheckResponse>* refused = open();
  EXPECT_FALSE(refused->Read(&response));
  EXPECT_EQ(refused->Finish().error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);

  contexts[0]->TryCancel();
  EXPECT_EQ(streams[0]->Finish().error_code(), grpc::StatusCode::CANCELLED);
  bool reopened = false;
  for (int attempt = 0; attempt < 50 && !reopened; ++attempt) {
    grpc::ClientReader<HealthCheckResponse>* again = open();
    reopened = again->Read(&response);
    if (!reopened) {
      again->Finish();
      absl::SleepFor(absl::Milliseconds(20));
    }
  }

  EXPECT_TRUE(reopened);
  EXPECT_EQ(response.status(), HealthCheckResponse::SERVING);
  for (auto& context : contexts) context->TryCancel();
}

}  // namespace
}  // namespace paperdb::rpc
