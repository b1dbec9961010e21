#include "tests/testing/service_fixture.h"

#include "google/rpc/status.pb.h"
#include "ingest_service/ingester.h"

namespace paperdb::testing {

std::string SeedDir() { return PAPERDB_DATA_DIR; }

void ServiceFixture::SetUp() {
  StoreFixture::SetUp();
  if (HasFatalFailure()) return;
  ingester_ = std::make_unique<ingest::Ingester>(writer_.get(), store_.get());

  auto files = ingest::ListInputFiles({SeedDir()});
  ASSERT_TRUE(files.ok()) << files.status();
  ASSERT_EQ(files->size(), 4u);
  for (const std::string& path : *files) {
    auto content = ingest::ReadFile(path);
    ASSERT_TRUE(content.ok()) << content.status();
    auto summary =
        Ingest(std::filesystem::path(path).filename().string(), *content);
    ASSERT_TRUE(summary.ok()) << summary.status();
  }

  auto engine = query::QueryEngine::Open((dir_ / "db").string(),
                                         (dir_ / "secondary").string());
  ASSERT_TRUE(engine.ok()) << engine.status();
  engine_ = *std::move(engine);
  query_service_ = std::make_unique<query::QueryServiceImpl>(engine_.get());
  ingest_service_ = std::make_unique<ingest::IngestServiceImpl>(
      ingester_.get(), writer_.get(), store_.get());
  rpc::ServerOptions options;
  options.listen = "127.0.0.1:0";
  auto started = rpc::StartServer(
      options, {query_service_.get(), ingest_service_.get()}, &health_);
  ASSERT_TRUE(started.ok()) << started.status();
  unknown_methods_ = std::move(started->unknown_methods);
  server_ = std::move(started->server);
  port_ = started->port;
  health_.SetServing("", true);
  health_.SetServing("paperdb.v1.QueryService", true);
  channel_ = grpc::CreateChannel("127.0.0.1:" + std::to_string(started->port),
                                 grpc::InsecureChannelCredentials());
  query_ = v1::QueryService::NewStub(channel_);
  ingest_ = v1::IngestService::NewStub(channel_);
  health_stub_ = grpc::health::v1::Health::NewStub(channel_);
}

void ServiceFixture::TearDown() {
  if (server_) server_->Shutdown();
  server_.reset();
  engine_.reset();
  ingester_.reset();
  StoreFixture::TearDown();
}

absl::StatusOr<v1::IngestFileResponse> ServiceFixture::Ingest(
    const std::string& file_name, const std::string& content) {
  return ingester_->IngestContent(file_name, content);
}

grpc::Status ServiceFixture::IngestOverGrpc(const std::string& name,
                                            const std::string& content,
                                            v1::IngestFileResponse* response,
                                            size_t chunk_bytes) {
  grpc::ClientContext context;
  SetDeadline(&context);
  std::unique_ptr<grpc::ClientWriter<v1::IngestFileRequest>> writer =
      ingest_->IngestFile(&context, response);
  v1::IngestFileRequest request;
  request.set_file_name(name);
  bool open = writer->Write(request);
  for (size_t start = 0; open && start < content.size(); start += chunk_bytes) {
    request.Clear();
    request.set_content(content.substr(start, chunk_bytes));
    open = writer->Write(request);
  }
  writer->WritesDone();
  return writer->Finish();
}

google::rpc::ErrorInfo ErrorInfoOf(const grpc::Status& status) {
  google::rpc::Status details;
  google::rpc::ErrorInfo info;
  if (!details.ParseFromString(status.error_details())) return info;
  for (const auto& detail : details.details()) {
    if (detail.UnpackTo(&info)) return info;
  }
  return google::rpc::ErrorInfo();
}

std::string BadRequestFieldOf(const grpc::Status& status) {
  google::rpc::Status details;
  if (!details.ParseFromString(status.error_details())) return "";
  google::rpc::BadRequest bad_request;
  for (const auto& detail : details.details()) {
    if (detail.UnpackTo(&bad_request) &&
        bad_request.field_violations_size() > 0) {
      return bad_request.field_violations(0).field();
    }
  }
  return "";
}

v1::SearchPapersResponse ServiceFixture::SearchOk(
    v1::SearchPapersRequest request) {
  request.set_explain(true);
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::SearchPapersResponse response;
  const grpc::Status status =
      query_->SearchPapers(&context, request, &response);
  EXPECT_TRUE(status.ok()) << request.query() << ": " << status.error_message();
  return response;
}

std::vector<std::string> ServiceFixture::Ids(
    const v1::SearchPapersResponse& response) {
  std::vector<std::string> ids;
  for (const v1::SearchResult& result : response.results()) {
    ids.push_back(result.paper().id());
  }
  return ids;
}

std::vector<std::string> ReplacementsOf(
    const v1::SearchPapersResponse& response, v1::QueryRewrite::Kind kind) {
  std::vector<std::string> out;
  for (const v1::QueryRewrite& rewrite : response.rewrites()) {
    if (rewrite.kind() == kind) {
      out.insert(out.end(), rewrite.replacements().begin(),
                 rewrite.replacements().end());
    }
  }
  return out;
}

}  // namespace paperdb::testing
