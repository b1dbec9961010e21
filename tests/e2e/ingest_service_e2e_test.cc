// IngestService over real gRPC: streamed files, replacements, deletes,
// ListSources, hostile input, deadlines, tokens, and what the query service
// sees afterwards.

#include <chrono>
#include <thread>

#include "gmock/gmock.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"
#include "tests/e2e/ingest_service_fixture.h"

namespace paperdb::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST_F(IngestServiceE2eTest, FileStreamedInChunksThatSplitCharacters) {
  // 7-byte chunks cut "论文列表" and "é" in the middle of their bytes.
  const std::string content =
      "ICLR 2024 论文列表\n\nCafé-style Quuxnet abstract.\n\nAnother "
      "Quuxnet one.\n";
  v1::IngestFileResponse response;

  ASSERT_TRUE(IngestOverGrpc("chunked.txt", content, &response, 7).ok());

  EXPECT_EQ(response.added(), 2);
  EXPECT_EQ(response.source().file_name(), "chunked.txt");
  EXPECT_EQ(response.source().paper_count(), 2);
  ASSERT_EQ(response.paragraphs_size(), 2);
  EXPECT_EQ(response.paragraphs(1).byte_offset(), 55u);
  ASSERT_TRUE(engine_->CatchUp().ok());
  EXPECT_EQ(SearchTotal("quuxnet"), 2);
}

TEST_F(IngestServiceE2eTest, MalformedStreamsAreInvalidArgument) {
  v1::IngestFileResponse response;
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    auto writer = ingest_->IngestFile(&context, &response);
    writer->WritesDone();
    const grpc::Status status = writer->Finish();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(), HasSubstr("stream is empty"));
  }
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    auto writer = ingest_->IngestFile(&context, &response);
    v1::IngestFileRequest request;
    request.set_content("ICLR 2024 paper list\n\nNo name.\n");
    writer->Write(request);
    writer->WritesDone();
    const grpc::Status status = writer->Finish();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(),
                HasSubstr("the first IngestFileRequest must set file_name"));
  }
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    auto writer = ingest_->IngestFile(&context, &response);
    v1::IngestFileRequest request;
    request.set_file_name("one.txt");
    writer->Write(request);
    request.set_file_name("two.txt");
    writer->Write(request);
    writer->WritesDone();
    const grpc::Status status = writer->Finish();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(),
                HasSubstr("message 2 of the stream names file \"two.txt\"; "
                          "the stream is for \"one.txt\""));
  }
}

TEST_F(IngestServiceE2eTest, UnparsableMessageMidStreamStoresNothing) {
  // The second message's file_name is not UTF-8: the server cannot parse it
  // as a proto3 string, so the stream breaks after the first message, whose
  // content alone is a valid file. It must not be stored as if complete.
  v1::IngestFileResponse response;
  grpc::ClientContext context;
  SetDeadline(&context);
  auto writer = ingest_->IngestFile(&context, &response);
  v1::IngestFileRequest request;
  request.set_file_name("broken_stream.txt");
  request.set_content("ICLR 2024 paper list\n\nHalfway abstract.\n");
  writer->Write(request);
  request.set_file_name("bad\xFFname");
  request.set_content("\nSecond half.\n");
  writer->Write(request);
  writer->WritesDone();
  const grpc::Status status = writer->Finish();

  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  // As a unary request's: the field and byte at fault.
  EXPECT_EQ(status.error_message(),
            "message 2 of the stream is not a valid IngestFileRequest: "
            "file_name (field 1) is not valid UTF-8: byte 0xFF at byte 5 of "
            "the message; nothing stored");
  const google::rpc::ErrorInfo info = ErrorInfoOf(status);
  EXPECT_EQ(info.reason(), "MALFORMED_REQUEST");
  EXPECT_EQ(info.metadata().at("byte"), "5");
  EXPECT_EQ(info.metadata().at("message"), "2");
  ASSERT_TRUE(engine_->CatchUp().ok());
  EXPECT_EQ(SearchTotal("halfway"), 0);
  EXPECT_EQ(PaperCount(), 76);
}

TEST_F(IngestServiceE2eTest, HostileFilesGetClearErrorsAndStoreNothing) {
  struct Case {
    std::string name;
    std::string content;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"nul.txt", std::string("ICLR 2024 paper list\n\nA\0B.\n", 27),
       "nul.txt: line 3, byte 23: contains a NUL byte"},
      {"utf8.txt", "ICLR 2024 paper list\n\nBad \xC3( byte.\n",
       "utf8.txt: line 3, byte 26: not valid UTF-8"},
      {"empty.txt", "", "empty.txt: line 1, byte 0: file is empty;"},
      {"noheader.txt", "Just text.\n\nMore text.\n",
       "noheader.txt: line 1, byte 0: no header"},
      {"ctl\x01.txt", "ICLR 2024 paper list\n\nFine.\n",
       "byte 3: U+0001 is a control character"},
      {"rlo\xE2\x80\xAEtxt.exe", "ICLR 2024 paper list\n\nFine.\n",
       "byte 3: U+202E is a bidirectional formatting character"},
  };
  for (const Case& c : cases) {
    v1::IngestFileResponse response;
    const grpc::Status status = IngestOverGrpc(c.name, c.content, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
        << c.name;
    EXPECT_THAT(status.error_message(), HasSubstr(c.message)) << c.name;
  }
  ASSERT_TRUE(engine_->CatchUp().ok());
  EXPECT_EQ(PaperCount(), 76);
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(IngestServiceE2eTest, MalformedFileErrorNamesLineAndByteInDetails) {
  v1::IngestFileResponse response;

  const grpc::Status status = IngestOverGrpc(
      "utf8.txt", "ICLR 2024 paper list\n\nBad \xC3( byte.\n", &response);

  ASSERT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(status.error_details()));
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(details.details(0).UnpackTo(&info));
  EXPECT_EQ(info.reason(), "MALFORMED_FILE");
  EXPECT_EQ(info.metadata().at("file_name"), "utf8.txt");
  EXPECT_EQ(info.metadata().at("line"), "3");
  EXPECT_EQ(info.metadata().at("byte"), "26");
  google::rpc::BadRequest bad_request;
  ASSERT_TRUE(details.details(1).UnpackTo(&bad_request));
  EXPECT_EQ(bad_request.field_violations(0).field(), "content");
}

// An empty file's details name the file, line and byte like any malformed
// file's.
TEST_F(IngestServiceE2eTest, EmptyFileErrorNamesLineAndByteInDetails) {
  v1::IngestFileResponse response;

  const grpc::Status status = IngestOverGrpc("empty.txt", "", &response);

  ASSERT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  const google::rpc::ErrorInfo info = ErrorInfoOf(status);
  EXPECT_EQ(info.reason(), "EMPTY_FILE");
  EXPECT_EQ(info.metadata().at("file_name"), "empty.txt");
  EXPECT_EQ(info.metadata().at("line"), "1");
  EXPECT_EQ(info.metadata().at("byte"), "0");
}

TEST_F(IngestServiceE2eTest, BomCrlfCrOnlyAndOtherHeadersAreAccepted) {
  struct Case {
    std::string name;
    std::string content;
    std::string venue;
    int year;
  };
  const std::vector<Case> cases = {
      {"bom.txt", "\xEF\xBB\xBFICLR 2024 paper list\n\nBom abstract.\n", "ICLR",
       2024},
      {"crlf.txt", "NeurIPS 2023 论文列表\r\n\r\nCrlf abstract.\r\n", "NeurIPS",
       2023},
      {"cr.txt", "ICML 2022 paper list\r\rCr abstract.\r", "ICML", 2022},
      {"noyear.txt", "ACL paper list\n\nNoyear abstract.\n", "ACL", 0},
  };
  for (const Case& c : cases) {
    v1::IngestFileResponse response;
    ASSERT_TRUE(IngestOverGrpc(c.name, c.content, &response).ok()) << c.name;
    EXPECT_EQ(response.added(), 1) << c.name;
  }
  ASSERT_TRUE(engine_->CatchUp().ok());
  for (const Case& c : cases) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::SearchPapersRequest request;
    request.set_query(c.name.substr(0, c.name.find('.')) + " abstract");
    v1::SearchPapersResponse response;
    ASSERT_TRUE(query_->SearchPapers(&context, request, &response).ok());
    ASSERT_GE(response.results_size(), 1) << c.name;
    EXPECT_FALSE(response.results(0).partial_match()) << c.name;
    if (response.results_size() > 1) {
      EXPECT_TRUE(response.results(1).partial_match()) << c.name;
    }
    EXPECT_EQ(response.results(0).paper().venue(), c.venue) << c.name;
    EXPECT_EQ(response.results(0).paper().year(), c.year) << c.name;
  }
}

TEST_F(IngestServiceE2eTest, ChangedFileReplacesItsPapersForReaders) {
  const std::string v1 =
      "ICLR 2024 paper list\n\nFrobnicator kept.\n\nFrobnicator xylophonic "
      "later.\n";
  const std::string v2 =
      "ICLR 2024 paper list\n\nFrobnicator kept.\n\nFrobnicator newly "
      "added.\n\nFrobnicator third.\n";
  v1::IngestFileResponse first, second;
  ASSERT_TRUE(IngestOverGrpc("frob.txt", v1, &first).ok());
  const std::string dropped = first.paragraphs(1).paper_id();

  ASSERT_TRUE(IngestOverGrpc("frob.txt", v2, &second).ok());

  EXPECT_EQ(second.unchanged(), 1);
  EXPECT_EQ(second.updated(), 1);
  EXPECT_EQ(second.added(), 1);
  EXPECT_EQ(second.removed(), 1);
  EXPECT_THAT(second.removed_paper_ids(), ElementsAre(dropped));
  ASSERT_TRUE(engine_->CatchUp().ok());
  EXPECT_EQ(SearchTotal("frobnicator"), 3);
  EXPECT_EQ(SearchTotal("xylophonic"), 0);
  EXPECT_EQ(GetPaperCode(dropped), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(PaperCount(), 79);
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(IngestServiceE2eTest, DeletedPapersAndFilesDisappearEverywhere) {
  grpc::ClientContext search_context;
  SetDeadline(&search_context);
  v1::SearchPapersRequest search;
  search.set_query("spiking neural networks delays");
  v1::SearchPapersResponse found;
  ASSERT_TRUE(query_->SearchPapers(&search_context, search, &found).ok());
  ASSERT_GE(found.results_size(), 1);
  const std::string top = found.results(0).paper().id();
  const int64_t spiking_before = SearchTotal("spiking");

  grpc::ClientContext context;
  SetDeadline(&context);
  v1::DeletePaperRequest request;
  request.set_name("papers/" + top);
  v1::DeletePaperResponse deleted;
  ASSERT_TRUE(ingest_->DeletePaper(&context, request, &deleted).ok());
  EXPECT_EQ(deleted.paper_id(), top);
  EXPECT_THAT(deleted.file_names(), ElementsAre("004_0ef8dce93850603c.txt"));

  ASSERT_TRUE(engine_->CatchUp().ok());
  EXPECT_EQ(GetPaperCode(top), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(SearchTotal("spiking"), spiking_before - 1);
  EXPECT_EQ(PaperCount(), 75);
  {
    grpc::ClientContext again;
    SetDeadline(&again);
    EXPECT_EQ(ingest_->DeletePaper(&again, request, &deleted).error_code(),
              grpc::StatusCode::NOT_FOUND);
  }
  grpc::ClientContext delete_context;
  SetDeadline(&delete_context);
  v1::DeleteSourceRequest delete_source;
  delete_source.set_file_name("000_286d7a53da2fb062.txt");
  v1::DeleteSourceResponse source_deleted;
  ASSERT_TRUE(
      ingest_->DeleteSource(&delete_context, delete_source, &source_deleted)
          .ok());
  EXPECT_EQ(source_deleted.papers_deleted(), 19);
  EXPECT_EQ(source_deleted.papers_kept(), 0);
  ASSERT_TRUE(engine_->CatchUp().ok());
  EXPECT_EQ(PaperCount(), 56);
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(IngestServiceE2eTest, ListSourcesPagesThroughEveryFile) {
  std::vector<std::string> names;
  std::string token;
  do {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::ListSourcesRequest request;
    request.set_page_size(3);
    request.set_page_token(token);
    v1::ListSourcesResponse response;
    ASSERT_TRUE(ingest_->ListSources(&context, request, &response).ok());
    EXPECT_EQ(response.total_size(), 4);
    for (const v1::SourceFile& source : response.sources()) {
      names.push_back(source.file_name());
      EXPECT_EQ(source.paper_count(), 19);
      EXPECT_EQ(source.content_hash().size(), 32u);
    }
    token = response.next_page_token();
  } while (!token.empty());

  EXPECT_THAT(
      names,
      ElementsAre("000_286d7a53da2fb062.txt", "001_b991fe129441cd4e.txt",
                  "002_f99a80f249628c6c.txt", "004_0ef8dce93850603c.txt"));
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::ListSourcesRequest bad;
  bad.set_page_token("garbage");
  v1::ListSourcesResponse response;
  EXPECT_EQ(ingest_->ListSources(&context, bad, &response).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(IngestServiceE2eTest, ClientDeadlinePassingMidStreamStoresNothing) {
  v1::IngestFileResponse response;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::milliseconds(300));
  auto writer = ingest_->IngestFile(&context, &response);
  v1::IngestFileRequest request;
  request.set_file_name("late.txt");
  request.set_content("ICLR 2024 paper list\n\nLatecomer abstract.\n");
  writer->Write(request);
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  writer->WritesDone();

  EXPECT_EQ(writer->Finish().error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  // The server notices at once; give its handler a moment to return.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_TRUE(engine_->CatchUp().ok());
  EXPECT_EQ(SearchTotal("latecomer"), 0);
  EXPECT_EQ(PaperCount(), 76);
}

TEST_F(IngestServiceE2eTest, TokensGuardWritesAndReadsByScope) {
  const std::string write_token = "write-token-0123456789";
  const std::string read_token = "read-token-0123456789";
  const rpc::Authenticator authenticator(
      rpc::AuthConfig{.read_token = read_token, .write_token = write_token});
  StartLimitedService({}, {.authenticator = &authenticator});
  const std::string file = "ICLR 2024 paper list\n\nGuarded abstract.\n";
  auto ingest = [&](const std::string& token) {
    grpc::ClientContext context;
    SetDeadline(&context);
    if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
    v1::IngestFileResponse response;
    auto writer = limited_->IngestFile(&context, &response);
    v1::IngestFileRequest request;
    request.set_file_name("guarded.txt");
    request.set_content(file);
    writer->Write(request);
    writer->WritesDone();
    return writer->Finish();
  };
  auto list_sources = [&](const std::string& token) {
    grpc::ClientContext context;
    SetDeadline(&context);
    if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
    v1::ListSourcesResponse response;
    return limited_->ListSources(&context, v1::ListSourcesRequest(), &response)
        .error_code();
  };
  auto search = [&](const std::string& token) {
    grpc::ClientContext context;
    SetDeadline(&context);
    if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
    v1::SearchPapersRequest request;
    request.set_query("abstract");
    v1::SearchPapersResponse response;
    return limited_query_->SearchPapers(&context, request, &response)
        .error_code();
  };

  const grpc::Status anonymous = ingest("");
  EXPECT_EQ(anonymous.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(ingest("not-a-valid-token-at-all").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  const grpc::Status reader = ingest(read_token);
  EXPECT_EQ(reader.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(reader.error_message(), ::testing::Not(HasSubstr(read_token)));
  EXPECT_TRUE(ingest(write_token).ok());
  EXPECT_EQ(list_sources(""), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(list_sources(read_token), grpc::StatusCode::OK);
  EXPECT_EQ(search(""), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(search(read_token), grpc::StatusCode::OK);
  EXPECT_EQ(search(write_token), grpc::StatusCode::OK);
}

}  // namespace
}  // namespace paperdb::testing
