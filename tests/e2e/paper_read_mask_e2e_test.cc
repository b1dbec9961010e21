// read_mask (AIP-157) on the lookups, over real gRPC on loopback against the
// bundled ICLR 2024 lists: GetPaper, BatchGetPapers and ListPapers return
// only the Paper fields named, and refuse a path Paper lacks.

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

using ::testing::HasSubstr;

class PaperReadMaskE2eTest : public ServiceFixture {
 protected:
  // The first paper in ingest order, whole.
  v1::Paper FirstPaper() {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::ListPapersRequest request;
    request.set_page_size(1);
    v1::ListPapersResponse response;
    EXPECT_TRUE(query_->ListPapers(&context, request, &response).ok());
    return response.papers_size() == 1 ? response.papers(0) : v1::Paper();
  }
};

TEST_F(PaperReadMaskE2eTest, GetPaperReturnsOnlyTheNamedFields) {
  const v1::Paper whole = FirstPaper();
  ASSERT_FALSE(whole.abstract().empty());
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::GetPaperRequest request;
  request.set_name(whole.name());
  request.mutable_read_mask()->add_paths("name");
  request.mutable_read_mask()->add_paths("year");
  request.mutable_read_mask()->add_paths("ingest_time.seconds");
  v1::Paper paper;

  ASSERT_TRUE(query_->GetPaper(&context, request, &paper).ok());

  EXPECT_EQ(paper.name(), whole.name());
  EXPECT_EQ(paper.year(), 2024);
  EXPECT_EQ(paper.ingest_time().seconds(), whole.ingest_time().seconds());
  EXPECT_EQ(paper.abstract(), "");
  EXPECT_EQ(paper.venue(), "");
  EXPECT_EQ(paper.sources_size(), 0);
}

TEST_F(PaperReadMaskE2eTest, ListPapersTrimsEveryPaper) {
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::ListPapersRequest request;
  request.set_page_size(1000);
  request.mutable_read_mask()->add_paths("name");
  request.mutable_read_mask()->add_paths("venue");
  v1::ListPapersResponse response;

  ASSERT_TRUE(query_->ListPapers(&context, request, &response).ok());

  ASSERT_EQ(response.papers_size(), 76);
  for (const v1::Paper& paper : response.papers()) {
    EXPECT_EQ(paper.name().rfind("papers/iclr2024-", 0), 0u) << paper.name();
    EXPECT_EQ(paper.venue(), "ICLR");
    EXPECT_EQ(paper.abstract(), "");
    EXPECT_EQ(paper.year(), 0);
  }
  EXPECT_EQ(response.total_size(), 76);
  EXPECT_EQ(response.next_page_token(), "");
}

TEST_F(PaperReadMaskE2eTest, BatchGetPapersTrimsEachPaper) {
  const v1::Paper whole = FirstPaper();
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::BatchGetPapersRequest request;
  request.add_names(whole.name());
  request.add_names(whole.id());
  request.mutable_read_mask()->add_paths("content_hash");
  v1::BatchGetPapersResponse response;

  ASSERT_TRUE(query_->BatchGetPapers(&context, request, &response).ok());

  ASSERT_EQ(response.papers_size(), 2);
  for (const v1::Paper& paper : response.papers()) {
    EXPECT_EQ(paper.content_hash(), whole.content_hash());
    EXPECT_EQ(paper.name(), "");
  }
}

TEST_F(PaperReadMaskE2eTest, APathPaperLacksIsInvalidArgumentOnEveryLookup) {
  const v1::Paper whole = FirstPaper();
  const std::string expected =
      "read_mask path \"title\" is not a field of Paper, or goes on past a "
      "repeated one (fields: name, id, venue, year, abstract, sources, urls, "
      "code_urls, word_count, content_hash, ingest_time, methods, datasets, "
      "acronyms, has_code; a repeated field such as sources is named whole; "
      "\"*\" alone for all; in JSON lowerCamelCase, e.g. codeUrls)";
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::GetPaperRequest request;
    request.set_name(whole.name());
    request.mutable_read_mask()->add_paths("title");
    v1::Paper paper;
    const grpc::Status status = query_->GetPaper(&context, request, &paper);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(status.error_message(), expected);
  }
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::ListPapersRequest request;
    request.mutable_read_mask()->add_paths("name");
    request.mutable_read_mask()->add_paths("sources.file_name");
    v1::ListPapersResponse response;
    const grpc::Status status =
        query_->ListPapers(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(),
                HasSubstr("read_mask path \"sources.file_name\" is not a "
                          "field of Paper, or goes on past a repeated one"));
  }
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::BatchGetPapersRequest request;
    request.add_names(whole.name());
    request.mutable_read_mask()->add_paths("*");
    request.mutable_read_mask()->add_paths("name");
    v1::BatchGetPapersResponse response;
    const grpc::Status status =
        query_->BatchGetPapers(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(status.error_message(),
              "read_mask path \"*\" (every field) must be the mask's only "
              "path");
  }
}

}  // namespace
}  // namespace paperdb::testing
