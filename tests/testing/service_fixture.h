// Test fixture with a real store and both services: a primary store written
// through ingest_service's Ingester, a QueryEngine reading it as a RocksDB
// secondary, and QueryService + IngestService + health served over real gRPC
// on 127.0.0.1 (the kernel picks the port).

#ifndef PAPERDB_TESTS_TESTING_SERVICE_FIXTURE_H_
#define PAPERDB_TESTS_TESTING_SERVICE_FIXTURE_H_

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "google/rpc/error_details.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "ingest_service/ingest_service_impl.h"
#include "ingest_service/ingester.h"
#include "paperdb/index/index_writer.h"
#include "paperdb/rpc/health_service.h"
#include "paperdb/rpc/server_runner.h"
#include "paperdb/storage/store.h"
#include "paperdb/v1/ingest_service.grpc.pb.h"
#include "paperdb/v1/query_service.grpc.pb.h"
#include "query_service/query_engine.h"
#include "query_service/query_service_impl.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::testing {

// The bundled corpus (data/ in the source tree): four ICLR 2024 lists.
std::string SeedDir();

class ServiceFixture : public StoreFixture {
 protected:
  // Opens a fresh store under TempDir(), ingests the seed files, and starts
  // the services.
  void SetUp() override;
  void TearDown() override;

  // Ingests `content` as file `file_name` through the writer (not gRPC).
  absl::StatusOr<v1::IngestFileResponse> Ingest(const std::string& file_name,
                                                const std::string& content);

  // Streams `content` as file `name` to IngestFile over gRPC, in chunks of
  // `chunk_bytes`, the first message carrying only the name.
  grpc::Status IngestOverGrpc(const std::string& name,
                              const std::string& content,
                              v1::IngestFileResponse* response,
                              size_t chunk_bytes = 1 << 20);

  // Every call gets a deadline so a hung server fails the test, not CI.
  static void SetDeadline(grpc::ClientContext* context) {
    context->set_deadline(std::chrono::system_clock::now() +
                          std::chrono::seconds(5));
  }

  // SearchPapers over gRPC with `request` (explain on), expecting OK.
  v1::SearchPapersResponse SearchOk(v1::SearchPapersRequest request);
  // The ids of `response`'s results, in order.
  static std::vector<std::string> Ids(const v1::SearchPapersResponse& response);

  std::unique_ptr<ingest::Ingester> ingester_;
  std::unique_ptr<query::QueryEngine> engine_;
  std::unique_ptr<query::QueryServiceImpl> query_service_;
  std::unique_ptr<ingest::IngestServiceImpl> ingest_service_;
  rpc::HealthService health_;
  // Outlives server_ (rpc::StartedServer).
  std::unique_ptr<grpc::CallbackGenericService> unknown_methods_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;  // Where server_ listens, on 127.0.0.1.
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::QueryService::Stub> query_;
  std::unique_ptr<v1::IngestService::Stub> ingest_;
  std::unique_ptr<grpc::health::v1::Health::Stub> health_stub_;
};

// The google.rpc.ErrorInfo that `status` carries first among its
// google.rpc.Status details; an empty one (reason "") if it carries none.
google::rpc::ErrorInfo ErrorInfoOf(const grpc::Status& status);

// The field of the first google.rpc.BadRequest field violation `status`
// carries among its details; "" if it carries none.
std::string BadRequestFieldOf(const grpc::Status& status);

// The replacements of `response`'s rewrites of `kind`, in rewrite order.
std::vector<std::string> ReplacementsOf(
    const v1::SearchPapersResponse& response, v1::QueryRewrite::Kind kind);

}  // namespace paperdb::testing

#endif  // PAPERDB_TESTS_TESTING_SERVICE_FIXTURE_H_
