// IngestService limits over real gRPC: file size and paragraph limits,
// concurrent ingests, and uploads that stall or go quiet.

#include <chrono>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/e2e/ingest_service_fixture.h"

namespace paperdb::testing {
namespace {

using ::testing::HasSubstr;

TEST_F(IngestServiceE2eTest, MillionTinyParagraphsAndHugeFilesAreRefused) {
  StartLimitedService({.max_file_bytes = 4 << 20}, {});
  std::string tiny = "ICLR 2024 paper list\n";
  tiny.reserve(4'000'100);
  for (int i = 0; i < 1'000'000; ++i) tiny += "\nx\n";
  v1::IngestFileResponse response;
  // Parsing a million paragraphs takes seconds on a loaded machine (under
  // ASan, beside other tests): a deadline for a hung server only.
  const auto deadline =
      std::chrono::system_clock::now() + std::chrono::seconds(60);
  grpc::ClientContext context;
  context.set_deadline(deadline);
  auto writer = limited_->IngestFile(&context, &response);
  v1::IngestFileRequest request;
  request.set_file_name("tiny.txt");
  request.set_content(tiny);
  writer->Write(request);
  writer->WritesDone();
  grpc::Status status = writer->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(),
              HasSubstr("tiny.txt: line 200003, byte 300022: file holds "
                        "1000000 paragraphs, more than the limit of 100000"));

  std::string big(5 << 20, 'x');
  grpc::ClientContext big_context;
  big_context.set_deadline(deadline);
  auto big_writer = limited_->IngestFile(&big_context, &response);
  request.set_file_name("big.txt");
  for (int i = 0; i < 5; ++i) {
    request.set_content(big.substr(i << 20, 1 << 20));
    if (!big_writer->Write(request)) break;
    request.clear_file_name();
  }
  big_writer->WritesDone();
  status = big_writer->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(),
              HasSubstr("big.txt: file is larger than the limit of 4194304 "
                        "bytes (--max_file_mib); stopped reading at byte "
                        "4194304, where message 5 of the stream would bring "
                        "it to 5242880"));
  // The same reason as for a file over the limit given whole, not
  // INVALID_ARGUMENT.
  const google::rpc::ErrorInfo info = ErrorInfoOf(status);
  EXPECT_EQ(info.reason(), "FILE_TOO_LARGE");
  EXPECT_EQ(info.metadata().at("limit_bytes"), "4194304");
  ASSERT_TRUE(engine_->CatchUp().ok());
  EXPECT_EQ(PaperCount(), 76);
}

TEST_F(IngestServiceE2eTest, IngestsBeyondTheLimitAreResourceExhausted) {
  StartLimitedService({}, {.max_concurrent_ingests = 1});
  // The first call stays open, holding the only slot.
  grpc::ClientContext holder_context;
  SetDeadline(&holder_context);
  v1::IngestFileResponse held;
  auto holder = limited_->IngestFile(&holder_context, &held);
  v1::IngestFileRequest request;
  request.set_file_name("slow.txt");
  ASSERT_TRUE(holder->Write(request));
  // Give the server time to start the handler.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));

  v1::IngestFileResponse response;
  grpc::ClientContext context;
  SetDeadline(&context);
  auto second = limited_->IngestFile(&context, &response);
  request.set_file_name("second.txt");
  request.set_content("ICLR 2024 paper list\n\nSecond file.\n");
  second->Write(request);
  second->WritesDone();
  const grpc::Status status = second->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(),
              HasSubstr("1 ingests are running already"));

  request.set_file_name("");
  request.set_content("ICLR 2024 paper list\n\nSlow file.\n");
  holder->Write(request);
  holder->WritesDone();
  EXPECT_TRUE(holder->Finish().ok());
  EXPECT_EQ(held.added(), 1);
}

// Uploads `abstract` as after.txt to the limited service: OK, 1 added.
// Shows that an ended call gave back its ingest slot.
void ExpectAnUploadSucceeds(v1::IngestService::Stub* limited,
                            const std::string& abstract) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(30));
  v1::IngestFileResponse response;
  auto writer = limited->IngestFile(&context, &response);
  v1::IngestFileRequest request;
  request.set_file_name("after.txt");
  request.set_content("ICLR 2024 paper list\n\n" + abstract + "\n");
  writer->Write(request);
  writer->WritesDone();
  EXPECT_TRUE(writer->Finish().ok());
  EXPECT_EQ(response.added(), 1);
}

// An upload that goes quiet, or sends only empty messages, is ended at the
// idle limit, long before the time limit, and gives back its slot.
TEST_F(IngestServiceE2eTest, AnIdleUploadIsEndedAtTheIdleLimit) {
  StartLimitedService({}, {.max_concurrent_ingests = 1,
                           .max_ingest_time = absl::Seconds(60),
                           .max_upload_idle_time = absl::Seconds(1)});
  grpc::ClientContext idle_context;
  v1::IngestFileResponse idle_response;
  auto idle = limited_->IngestFile(&idle_context, &idle_response);
  v1::IngestFileRequest request;
  request.set_file_name("idle.txt");
  request.set_content("ICLR 2024 paper list\n\nQuonkified abstract.\n");
  ASSERT_TRUE(idle->Write(request));
  const auto start = std::chrono::steady_clock::now();
  v1::IngestFileRequest empty;
  empty.set_file_name("idle.txt");
  int trickled = 0;
  while (trickled < 30 && idle->Write(empty)) {
    ++trickled;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }

  const grpc::Status status = idle->Finish();
  const auto waited = std::chrono::steady_clock::now() - start;

  EXPECT_EQ(status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_THAT(status.error_message(),
              HasSubstr("idle.txt: the upload sent no file bytes for the "
                        "server's limit of 1s (--max_upload_idle_seconds)"));
  EXPECT_LT(trickled, 30);
  EXPECT_LT(waited, std::chrono::seconds(5));
  ExpectAnUploadSucceeds(limited_.get(), "After the idle call.");
}

TEST_F(IngestServiceE2eTest, StalledUploadIsEndedAtTheServerLimit) {
  StartLimitedService(
      {}, {.max_concurrent_ingests = 1, .max_ingest_time = absl::Seconds(1)});
  // A client that sends a name and then nothing, with no deadline of its own.
  grpc::ClientContext stalled_context;
  v1::IngestFileResponse stalled_response;
  auto stalled = limited_->IngestFile(&stalled_context, &stalled_response);
  v1::IngestFileRequest request;
  request.set_file_name("stalled.txt");
  request.set_content("ICLR 2024 paper list\n\nQuonkified abstract.\n");
  ASSERT_TRUE(stalled->Write(request));

  const auto start = std::chrono::steady_clock::now();
  const grpc::Status status = stalled->Finish();
  const auto waited = std::chrono::steady_clock::now() - start;

  EXPECT_EQ(status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_THAT(status.error_message(),
              HasSubstr("stalled.txt: the upload was still incomplete after "
                        "the server's limit of 1s"));
  EXPECT_LT(waited, std::chrono::seconds(3));
  ExpectAnUploadSucceeds(limited_.get(), "After the stall.");
  ASSERT_TRUE(engine_->CatchUp().ok());
  EXPECT_EQ(SearchTotal("\"quonkified\""), 0);  // Quoted: no spelling fix.
}

}  // namespace
}  // namespace paperdb::testing
