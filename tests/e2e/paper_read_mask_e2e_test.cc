// read_mask (AIP-157) on the lookups, over real gRPC on loopback against the
// bundled ICLR 2024 lists: GetPaper, BatchGetPapers and ListPapers return
// only the Paper fields named, and refuse a path Paper lacks. The server
// parses only the named fields of each stored record; what it returns must
// equal the whole paper trimmed.

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/util/field_mask_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

using ::google::protobuf::util::FieldMaskUtil;
using ::google::protobuf::util::MessageDifferencer;
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

TEST_F(PaperReadMaskE2eTest, EachFieldAloneEqualsTheWholePaperTrimmed) {
  // Every paper of the first page, every Paper field alone and two
  // together, on all three lookups.
  grpc::ClientContext list_context;
  SetDeadline(&list_context);
  v1::ListPapersRequest whole_request;
  whole_request.set_page_size(1000);
  v1::ListPapersResponse whole;
  ASSERT_TRUE(query_->ListPapers(&list_context, whole_request, &whole).ok());
  ASSERT_EQ(whole.papers_size(), 76);
  const google::protobuf::Descriptor* paper = v1::Paper::descriptor();
  std::vector<std::vector<std::string>> masks;
  for (int f = 0; f < paper->field_count(); ++f) {
    masks.push_back({paper->field(f)->name()});
  }
  masks.push_back({"methods", "year"});
  masks.push_back({"abstract", "ingest_time.nanos"});
  for (const std::vector<std::string>& paths : masks) {
    google::protobuf::FieldMask mask;
    for (const std::string& path : paths) mask.add_paths(path);
    const std::string label = FieldMaskUtil::ToString(mask);
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::ListPapersRequest request = whole_request;
    *request.mutable_read_mask() = mask;
    v1::ListPapersResponse listed;
    ASSERT_TRUE(query_->ListPapers(&context, request, &listed).ok()) << label;
    ASSERT_EQ(listed.papers_size(), 76) << label;
    for (int i = 0; i < 76; i += 15) {
      v1::Paper expected = whole.papers(i);
      FieldMaskUtil::TrimMessage(mask, &expected);
      EXPECT_TRUE(MessageDifferencer::Equals(listed.papers(i), expected))
          << label << " of paper " << i;
      grpc::ClientContext get_context;
      SetDeadline(&get_context);
      v1::GetPaperRequest get;
      get.set_name(whole.papers(i).name());
      *get.mutable_read_mask() = mask;
      v1::Paper got;
      ASSERT_TRUE(query_->GetPaper(&get_context, get, &got).ok()) << label;
      EXPECT_TRUE(MessageDifferencer::Equals(got, expected))
          << label << " of paper " << i;
      grpc::ClientContext batch_context;
      SetDeadline(&batch_context);
      v1::BatchGetPapersRequest batch;
      batch.add_names(whole.papers(i).name());
      *batch.mutable_read_mask() = mask;
      v1::BatchGetPapersResponse batched;
      ASSERT_TRUE(query_->BatchGetPapers(&batch_context, batch, &batched).ok());
      ASSERT_EQ(batched.papers_size(), 1);
      EXPECT_TRUE(MessageDifferencer::Equals(batched.papers(0), expected))
          << label << " of paper " << i;
    }
  }
}

}  // namespace
}  // namespace paperdb::testing
