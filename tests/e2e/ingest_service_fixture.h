// The fixture of the IngestService end-to-end tests: the shared service,
// helpers that read what the query side sees, and a second IngestService
// with its own limits over the same store.

#ifndef PAPERDB_TESTS_E2E_INGEST_SERVICE_FIXTURE_H_
#define PAPERDB_TESTS_E2E_INGEST_SERVICE_FIXTURE_H_

#include <memory>
#include <string>
#include <vector>

#include "ingest_service/ingester.h"
#include "paperdb/index/verifier.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {

class IngestServiceE2eTest : public ServiceFixture {
 protected:
  int64_t SearchTotal(const std::string& query) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::SearchPapersRequest request;
    request.set_query(query);
    v1::SearchPapersResponse response;
    EXPECT_TRUE(query_->SearchPapers(&context, request, &response).ok());
    return response.total_size();
  }

  int64_t PaperCount() {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::ListPapersResponse response;
    EXPECT_TRUE(
        query_->ListPapers(&context, v1::ListPapersRequest(), &response).ok());
    return response.total_size();
  }

  grpc::StatusCode GetPaperCode(const std::string& id) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::GetPaperRequest request;
    request.set_name("papers/" + id);
    v1::Paper paper;
    return query_->GetPaper(&context, request, &paper).error_code();
  }

  std::vector<std::string> Problems() {
    absl::StatusOr<index::VerifyReport> report = index::VerifyStore(*store_);
    if (!report.ok()) return {std::string(report.status().message())};
    return report->problems;
  }

  // A second IngestService on its own port, over the same store, with
  // `options` and `limits`.
  void StartLimitedService(ingest::IngestOptions options,
                           ingest::IngestServiceOptions limits) {
    limited_ingester_ = std::make_unique<ingest::Ingester>(
        writer_.get(), store_.get(), options);
    limited_service_ = std::make_unique<ingest::IngestServiceImpl>(
        limited_ingester_.get(), writer_.get(), store_.get(), limits);
    limited_query_service_ = std::make_unique<query::QueryServiceImpl>(
        engine_.get(),
        query::QueryServiceOptions{.authenticator = limits.authenticator});
    rpc::ServerOptions server_options;
    server_options.listen = "127.0.0.1:0";
    auto started = rpc::StartServer(
        server_options, {limited_service_.get(), limited_query_service_.get()},
        &limited_health_);
    ASSERT_TRUE(started.ok()) << started.status();
    limited_unknown_methods_ = std::move(started->unknown_methods);
    limited_server_ = std::move(started->server);
    auto channel =
        grpc::CreateChannel("127.0.0.1:" + std::to_string(started->port),
                            grpc::InsecureChannelCredentials());
    limited_ = v1::IngestService::NewStub(channel);
    limited_query_ = v1::QueryService::NewStub(channel);
  }

  void TearDown() override {
    if (limited_server_) limited_server_->Shutdown();
    ServiceFixture::TearDown();
  }

  std::unique_ptr<ingest::Ingester> limited_ingester_;
  std::unique_ptr<ingest::IngestServiceImpl> limited_service_;
  std::unique_ptr<query::QueryServiceImpl> limited_query_service_;
  std::unique_ptr<v1::QueryService::Stub> limited_query_;
  rpc::HealthService limited_health_;
  std::unique_ptr<grpc::CallbackGenericService> limited_unknown_methods_;
  std::unique_ptr<grpc::Server> limited_server_;
  std::unique_ptr<v1::IngestService::Stub> limited_;
};

}  // namespace paperdb::testing

#endif  // PAPERDB_TESTS_E2E_INGEST_SERVICE_FIXTURE_H_
