// The edges a gRPC client meets in daily use, over real gRPC on loopback
// against the bundled ICLR 2024 lists: snippets that never cut a match,
// and requests a client malformed.

#include <cctype>
#include <future>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/descriptor.pb.h"
#include "grpc/reflection/v1/reflection.grpc.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "gtest/gtest.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(c));
  return s;
}

class ProtocolEdgesE2eTest : public ServiceFixture {
 protected:
  // Calls `method` with `bytes` as the request, over the fixture's channel.
  grpc::Status RawCall(const std::string& method, const std::string& bytes) {
    grpc::GenericStub stub(channel_);
    grpc::ClientContext context;
    SetDeadline(&context);
    grpc::Slice slice(bytes);
    const grpc::ByteBuffer request(&slice, 1);
    grpc::ByteBuffer response;
    std::promise<grpc::Status> done;
    stub.UnaryCall(&context, method, grpc::StubOptions(), &request, &response,
                   [&done](grpc::Status s) { done.set_value(std::move(s)); });
    return done.get_future().get();
  }
};

TEST_F(ProtocolEdgesE2eTest, InvalidUtf8InARequestIsInvalidArgument) {
  // Field 1 (query, a string) holding the byte 0xFF.
  const std::string bad_query(
      "\x0a\x02"
      "a\xff",
      4);
  const grpc::Status search =
      RawCall("/paperdb.v1.QueryService/SearchPapers", bad_query);
  EXPECT_EQ(search.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(search.error_message(),
            "request is not a valid SearchPapersRequest: query (field 1) is "
            "not valid UTF-8: byte 0xFF at byte 3 of the request");
  const google::rpc::ErrorInfo info = ErrorInfoOf(search);
  EXPECT_EQ(info.reason(), "MALFORMED_REQUEST");
  EXPECT_EQ(info.metadata().at("byte"), "3");
  // Field 2 of ListPapers is page_token; of DeleteSource, 1 is file_name.
  const grpc::Status list = RawCall("/paperdb.v1.QueryService/ListPapers",
                                    std::string("\x12\x01\xc3", 3));
  EXPECT_EQ(list.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(list.error_message(), ::testing::HasSubstr("not valid UTF-8"));
  const grpc::Status del = RawCall("/paperdb.v1.IngestService/DeleteSource",
                                   std::string("\x0a\x01\x80", 3));
  EXPECT_EQ(del.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(del.error_message(),
              ::testing::HasSubstr("DeleteSourceRequest: file_name (field 1)"));
  // The store is unharmed and the server still answers.
  v1::SearchPapersRequest request;
  request.set_query("forecasting");
  EXPECT_GT(SearchOk(request).total_size(), 0);
}

// DeletePaper reads a paper's name as GetPaper does: a malformed one is
// INVALID_ARGUMENT naming the problem, not NOT_FOUND.
TEST_F(ProtocolEdgesE2eTest, AMalformedPaperNameIsInvalidArgumentOnDelete) {
  for (const auto& [name, problem] :
       std::vector<std::pair<std::string, std::string>>{
           {"papers/../x", "is malformed: expected \"papers/{id}\""},
           {std::string("papers/a\0b\n", 11), "holds a control character"},
           {"", "name is required"}}) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::DeletePaperRequest request;
    request.set_name(name);
    v1::DeletePaperResponse response;
    const grpc::Status status =
        ingest_->DeletePaper(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << name;
    EXPECT_THAT(status.error_message(), ::testing::HasSubstr(problem));
  }
}

TEST_F(ProtocolEdgesE2eTest, AnUnknownMethodIsUnimplementedByName) {
  const grpc::Status status =
      RawCall("/paperdb.v1.QueryService/SearchEverything", "");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_EQ(status.error_message(),
            "method /paperdb.v1.QueryService/SearchEverything is not served "
            "here");
}

TEST_F(ProtocolEdgesE2eTest, ATruncatedRequestIsInvalidArgument) {
  // Field 1 says 10 bytes follow; 2 do.
  const grpc::Status status =
      RawCall("/paperdb.v1.QueryService/SearchPapers", std::string("\x0a\x0a"
                                                                   "ab",
                                                                   4));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(),
            "request is not a valid SearchPapersRequest: query at byte 0 runs "
            "past the end of the request (4 bytes): truncated?");
}

TEST_F(ProtocolEdgesE2eTest, ASnippetShorterThanThePhraseHoldsItWhole) {
  for (const int length : {1, 5, 12, 21}) {
    v1::SearchPapersRequest request;
    request.set_query("\"leading indicators\"");
    request.set_snippet_length(length);
    const v1::SearchPapersResponse response = SearchOk(request);
    ASSERT_GT(response.results_size(), 0);
    for (const v1::SearchResult& result : response.results()) {
      const v1::Snippet& snippet = result.snippet();
      ASSERT_GT(snippet.highlights_size(), 0) << result.paper().id();
      const v1::TextSpan& first = snippet.highlights(0);
      EXPECT_EQ(Lower(snippet.text().substr(
                    first.start_byte(), first.end_byte() - first.start_byte())),
                "leading indicators")
          << result.paper().id() << " at snippet_length " << length;
      // Between words at both ends.
      const std::string& abstract = result.paper().abstract();
      const uint32_t start = snippet.range().start_byte();
      const uint32_t end = snippet.range().end_byte();
      EXPECT_TRUE(start == 0 ||
                  std::isspace(static_cast<unsigned char>(abstract[start - 1])))
          << result.paper().id() << ": " << snippet.text();
      EXPECT_TRUE(end == abstract.size() ||
                  std::isspace(static_cast<unsigned char>(abstract[end])))
          << result.paper().id() << ": " << snippet.text();
    }
  }
}

TEST_F(ProtocolEdgesE2eTest, ReflectionV1ListsAndDescribesTheServices) {
  namespace reflection = grpc::reflection::v1;
  auto stub = reflection::ServerReflection::NewStub(channel_);
  grpc::ClientContext context;
  SetDeadline(&context);
  auto stream = stub->ServerReflectionInfo(&context);

  reflection::ServerReflectionRequest list;
  list.set_list_services("");
  ASSERT_TRUE(stream->Write(list));
  reflection::ServerReflectionResponse listed;
  ASSERT_TRUE(stream->Read(&listed));
  std::vector<std::string> services;
  for (const auto& service : listed.list_services_response().service()) {
    services.push_back(service.name());
  }
  EXPECT_THAT(
      services,
      ::testing::IsSupersetOf(
          {"paperdb.v1.QueryService", "paperdb.v1.IngestService",
           "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
           "grpc.reflection.v1alpha.ServerReflection"}));

  reflection::ServerReflectionRequest symbol;
  symbol.set_file_containing_symbol("paperdb.v1.QueryService.SearchPapers");
  ASSERT_TRUE(stream->Write(symbol));
  reflection::ServerReflectionResponse described;
  ASSERT_TRUE(stream->Read(&described));
  ASSERT_GE(described.file_descriptor_response().file_descriptor_proto_size(),
            2);
  google::protobuf::FileDescriptorProto file;
  ASSERT_TRUE(file.ParseFromString(
      described.file_descriptor_response().file_descriptor_proto(0)));
  EXPECT_EQ(file.name(), "paperdb/v1/query_service.proto");
  EXPECT_EQ(file.service(0).name(), "QueryService");

  reflection::ServerReflectionRequest unknown;
  unknown.set_file_containing_symbol("paperdb.v1.NoSuchThing");
  ASSERT_TRUE(stream->Write(unknown));
  reflection::ServerReflectionResponse missing;
  ASSERT_TRUE(stream->Read(&missing));
  EXPECT_EQ(missing.error_response().error_code(),
            static_cast<int>(grpc::StatusCode::NOT_FOUND));
  EXPECT_EQ(missing.error_response().error_message(),
            "symbol paperdb.v1.NoSuchThing not found");
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
}

// 24 abstracts of about 217 KB each (5.2 MB in all), each naming itself
// once ("bigpaper7") and "budgetword" 3,500 times.
std::string BigAbstracts() {
  std::string file = "ICLR 2024 paper list\n\n";
  for (int i = 0; i < 24; ++i) {
    absl::StrAppend(&file, "bigpaper", i, " opens an abstract.");
    for (int k = 0; k < 3500; ++k) {
      absl::StrAppend(&file, " budgetword fills the reply with sentences of",
                      " plain words here");
    }
    file += "\n\n";
  }
  return file;
}

TEST_F(ProtocolEdgesE2eTest, RepliesStayUnderTheDefaultClientLimit) {
  const auto ingested = Ingest("big.txt", BigAbstracts());
  ASSERT_TRUE(ingested.ok()) << ingested.status();
  ASSERT_EQ(ingested->added(), 24) << ingested->DebugString();
  ASSERT_TRUE(engine_->CatchUp().ok());
  constexpr size_t kBudget = (3 << 20) + (512 << 10);

  // ListPapers with the largest page: pages end early, every paper once.
  std::set<std::string> listed;
  std::string token;
  int pages = 0;
  do {
    v1::ListPapersRequest request;
    request.set_page_size(1000);
    request.set_page_token(token);
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::ListPapersResponse response;
    ASSERT_TRUE(query_->ListPapers(&context, request, &response).ok());
    EXPECT_LE(response.ByteSizeLong(), kBudget);
    for (const v1::Paper& paper : response.papers()) {
      EXPECT_TRUE(listed.insert(paper.id()).second) << paper.id();
    }
    token = response.next_page_token();
    ++pages;
  } while (!token.empty() && pages < 20);
  EXPECT_EQ(listed.size(), 76u + 24u);
  EXPECT_GE(pages, 2);

  // SearchPapers, 30 to a page: the same.
  std::set<std::string> found;
  std::vector<std::string> names;
  token.clear();
  pages = 0;
  do {
    v1::SearchPapersRequest request;
    request.set_query("budgetword");
    request.set_page_size(30);
    request.set_page_token(token);
    const v1::SearchPapersResponse response = SearchOk(request);
    EXPECT_LE(response.ByteSizeLong(), kBudget);
    EXPECT_LT(response.results_size(), 24);
    for (const v1::SearchResult& result : response.results()) {
      EXPECT_TRUE(found.insert(result.paper().id()).second);
      names.push_back(result.paper().name());
    }
    token = response.next_page_token();
    ++pages;
  } while (!token.empty() && pages < 20);
  EXPECT_EQ(found.size(), 24u);

  // BatchGetPapers of all 24: refused, naming the budget.
  v1::BatchGetPapersRequest batch;
  for (const std::string& name : names) batch.add_names(name);
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::BatchGetPapersResponse papers;
  const grpc::Status status = query_->BatchGetPapers(&context, batch, &papers);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), ::testing::HasSubstr("3670016 bytes"));
}

TEST_F(ProtocolEdgesE2eTest, InvalidArgumentsNameTheirField) {
  // Each malformed request field is named in a google.rpc.BadRequest.
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::GetPaperRequest request;
    request.set_name("papers/a/b");
    v1::Paper paper;
    const grpc::Status status = query_->GetPaper(&context, request, &paper);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(BadRequestFieldOf(status), "name");
  }
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::BatchGetPapersRequest request;
    request.add_names("papers/iclr2024-57d2834f0813070e");
    request.add_names("papers/");
    v1::BatchGetPapersResponse response;
    const grpc::Status status =
        query_->BatchGetPapers(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(BadRequestFieldOf(status), "names[1]");
  }
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::SearchPapersRequest request;
    request.set_query("graph");
    request.add_facet_fields("colour");
    v1::SearchPapersResponse response;
    const grpc::Status status =
        query_->SearchPapers(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(BadRequestFieldOf(status), "facet_fields");
  }
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::DeletePaperRequest request;
    request.set_name("");
    v1::DeletePaperResponse response;
    const grpc::Status status =
        ingest_->DeletePaper(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(BadRequestFieldOf(status), "name");
  }
  for (const bool second_names_another : {false, true}) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::IngestFileResponse response;
    auto upload = ingest_->IngestFile(&context, &response);
    v1::IngestFileRequest request;
    if (second_names_another) {
      request.set_file_name("first.txt");
      upload->Write(request);
      request.set_file_name("second.txt");
    }
    request.set_content("ICLR 2024 paper list\n\nAn abstract.\n");
    upload->Write(request);
    upload->WritesDone();
    const grpc::Status status = upload->Finish();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(BadRequestFieldOf(status), "file_name") << status.error_message();
  }
  // SearchPapers' numeric and mask fields.
  struct BadSearch {
    const char* field;
    void (*set)(v1::SearchPapersRequest*);
  };
  const BadSearch searches[] = {
      {"snippet_length",
       [](v1::SearchPapersRequest* r) { r->set_snippet_length(-1); }},
      {"facet_size", [](v1::SearchPapersRequest* r) { r->set_facet_size(-1); }},
      {"read_mask",
       [](v1::SearchPapersRequest* r) {
         r->mutable_read_mask()->add_paths("paper.colour");
       }},
  };
  for (const BadSearch& bad : searches) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::SearchPapersRequest request;
    request.set_query("graph");
    bad.set(&request);
    v1::SearchPapersResponse response;
    const grpc::Status status =
        query_->SearchPapers(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(BadRequestFieldOf(status), bad.field) << status.error_message();
  }
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::BatchGetPapersRequest request;
    for (int i = 0; i < 1001; ++i) request.add_names("papers/x");
    v1::BatchGetPapersResponse response;
    const grpc::Status status =
        query_->BatchGetPapers(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(BadRequestFieldOf(status), "names");
  }
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::DeleteSourceRequest request;
    v1::DeleteSourceResponse response;
    const grpc::Status status =
        ingest_->DeleteSource(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(BadRequestFieldOf(status), "file_name");
  }
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::ListSourcesRequest request;
    request.set_page_size(-1);
    v1::ListSourcesResponse response;
    const grpc::Status status =
        ingest_->ListSources(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(BadRequestFieldOf(status), "page_size");
  }
}

}  // namespace
}  // namespace paperdb::testing
