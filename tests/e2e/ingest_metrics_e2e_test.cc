// IngestService's Prometheus metrics over real gRPC: the calls in progress
// gauge that operators (and deploy/docker/run_check.sh) read to know that a
// call has reached the writer.

#include <memory>
#include <string>

#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ingest_service/ingest_metrics.h"
#include "paperdb/rpc/metrics.h"
#include "prometheus/text_serializer.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

using ::testing::HasSubstr;

class IngestMetricsE2eTest : public ServiceFixture {
 protected:
  void SetUp() override {
    ServiceFixture::SetUp();
    metrics_ = std::make_unique<rpc::ServerMetrics>("ingest_service");
    ingest_metrics_ = std::make_unique<ingest::IngestMetrics>(
        metrics_.get(), writer_.get(), store_.get());
    counted_ = std::make_unique<ingest::IngestServiceImpl>(
        ingester_.get(), writer_.get(), store_.get(),
        ingest::IngestServiceOptions{.max_concurrent_ingests = 1,
                                     .metrics = ingest_metrics_.get()});
    rpc::ServerOptions options;
    options.listen = "127.0.0.1:0";
    auto started = rpc::StartServer(options, {counted_.get()}, &health_);
    ASSERT_TRUE(started.ok()) << started.status();
    counted_unknown_methods_ = std::move(started->unknown_methods);
    counted_server_ = std::move(started->server);
    stub_ = v1::IngestService::NewStub(
        grpc::CreateChannel("127.0.0.1:" + std::to_string(started->port),
                            grpc::InsecureChannelCredentials()));
  }

  void TearDown() override {
    if (counted_server_) counted_server_->Shutdown();
    ServiceFixture::TearDown();
  }

  // The exposition line of `name` (without labels), e.g. "name 1".
  std::string Line(const std::string& name) {
    const std::string text =
        prometheus::TextSerializer().Serialize(metrics_->registry().Collect());
    const size_t at = text.find("\n" + name + " ");
    if (at == std::string::npos) return "";
    return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
  }

  // Polls until `name`'s line is `want` or 5 s pass; returns the last line.
  std::string WaitForLine(const std::string& name, const std::string& want) {
    const absl::Time give_up = absl::Now() + absl::Seconds(5);
    std::string line = Line(name);
    while (line != want && absl::Now() < give_up) {
      absl::SleepFor(absl::Milliseconds(10));
      line = Line(name);
    }
    return line;
  }

  std::unique_ptr<rpc::ServerMetrics> metrics_;
  std::unique_ptr<ingest::IngestMetrics> ingest_metrics_;
  std::unique_ptr<ingest::IngestServiceImpl> counted_;
  std::unique_ptr<grpc::CallbackGenericService> counted_unknown_methods_;
  std::unique_ptr<grpc::Server> counted_server_;
  std::unique_ptr<v1::IngestService::Stub> stub_;
};

TEST_F(IngestMetricsE2eTest, AnUploadIsInProgressFromItsStartToItsAnswer) {
  constexpr char kGauge[] = "paperdb_ingest_files_in_progress";
  EXPECT_EQ(Line(kGauge), "paperdb_ingest_files_in_progress 0");

  // An upload that has sent its name and not yet closed its side.
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::IngestFileResponse response;
  auto upload = stub_->IngestFile(&context, &response);
  v1::IngestFileRequest request;
  request.set_file_name("open.txt");
  ASSERT_TRUE(upload->Write(request));
  EXPECT_EQ(WaitForLine(kGauge, "paperdb_ingest_files_in_progress 1"),
            "paperdb_ingest_files_in_progress 1");

  // A second call over the limit of one is refused and never counted.
  grpc::ClientContext refused_context;
  SetDeadline(&refused_context);
  v1::IngestFileResponse refused_response;
  auto refused = stub_->IngestFile(&refused_context, &refused_response);
  refused->WritesDone();
  EXPECT_EQ(refused->Finish().error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(Line(kGauge), "paperdb_ingest_files_in_progress 1");

  request.set_file_name("");
  request.set_content("ICLR 2024 paper list\n\nA quonkified abstract.\n");
  ASSERT_TRUE(upload->Write(request));
  upload->WritesDone();
  ASSERT_TRUE(upload->Finish().ok());
  EXPECT_EQ(response.added(), 1);
  EXPECT_EQ(WaitForLine(kGauge, "paperdb_ingest_files_in_progress 0"),
            "paperdb_ingest_files_in_progress 0");
  EXPECT_THAT(Line("paperdb_ingest_bytes_total"),
              HasSubstr("paperdb_ingest_bytes_total 45"));
}

}  // namespace
}  // namespace paperdb::testing
