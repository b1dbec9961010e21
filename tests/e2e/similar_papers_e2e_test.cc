// SimilarPapers ("more like this") over real gRPC on loopback, against the
// bundled ICLR 2024 lists in a real RocksDB store.

#include <string>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

class SimilarPapersE2eTest : public ServiceFixture {
 protected:
  v1::SearchPapersResponse Search(const std::string& query) {
    v1::SearchPapersRequest request;
    request.set_query(query);
    return SearchOk(request);
  }
  v1::SimilarPapersResponse Similar(const v1::SimilarPapersRequest& request,
                                    grpc::Status* status = nullptr) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::SimilarPapersResponse response;
    const grpc::Status s = query_->SimilarPapers(&context, request, &response);
    if (status != nullptr) {
      *status = s;
    } else {
      EXPECT_TRUE(s.ok()) << s.error_message();
    }
    return response;
  }
};

TEST_F(SimilarPapersE2eTest, ByIdAndByText) {
  const v1::SearchPapersResponse lift = Search("\"leading indicators\"");
  ASSERT_EQ(lift.total_size(), 1);
  const std::string id = lift.results(0).paper().id();

  grpc::ClientContext context;
  SetDeadline(&context);
  v1::SimilarPapersRequest request;
  request.set_name("papers/" + id);
  request.set_page_size(5);
  v1::SimilarPapersResponse response;
  ASSERT_TRUE(query_->SimilarPapers(&context, request, &response).ok());

  ASSERT_EQ(response.results_size(), 5);
  EXPECT_GT(response.query_terms_size(), 5);
  for (const char* filler : {"three", "using", "our", "been", "more", "Despite",
                             "utilizing", "seamlessly"}) {
    EXPECT_THAT(response.query_terms(), ::testing::Not(Contains(filler)));
  }
  for (const v1::SimilarPaper& similar : response.results()) {
    EXPECT_NE(similar.paper().id(), id);
    EXPECT_GT(similar.shared_terms_size(), 0);
  }
  // The most similar to LIFT is another time-series forecasting paper.
  EXPECT_THAT(response.results(0).paper().abstract(), HasSubstr("forecast"));

  grpc::ClientContext text_context;
  SetDeadline(&text_context);
  v1::SimilarPapersRequest by_text;
  by_text.set_text(lift.results(0).paper().abstract());
  v1::SimilarPapersResponse text_response;
  ASSERT_TRUE(
      query_->SimilarPapers(&text_context, by_text, &text_response).ok());
  ASSERT_GE(text_response.results_size(), 1);
  // Free text is not a stored paper: LIFT itself ranks first.
  EXPECT_EQ(text_response.results(0).paper().id(), id);

  grpc::ClientContext bad_context;
  SetDeadline(&bad_context);
  v1::SimilarPapersRequest empty;
  v1::SimilarPapersResponse bad;
  EXPECT_EQ(query_->SimilarPapers(&bad_context, empty, &bad).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  // Text set but blank: nothing to be similar to, INVALID_ARGUMENT as for
  // no text at all (not OK with no results).
  grpc::ClientContext blank_context;
  SetDeadline(&blank_context);
  v1::SimilarPapersRequest blank;
  blank.set_text(" \n");
  const grpc::Status blank_status =
      query_->SimilarPapers(&blank_context, blank, &bad);
  EXPECT_EQ(blank_status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(blank_status.error_message(), HasSubstr("text is empty"));
  grpc::ClientContext missing_context;
  SetDeadline(&missing_context);
  v1::SimilarPapersRequest missing;
  missing.set_name("papers/iclr2024-0000000000000000");
  EXPECT_EQ(query_->SimilarPapers(&missing_context, missing, &bad).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

// A two-letter acronym ("RL") names a paper's subject as a longer word
// does: it is a term of the paper, and text of it alone finds its papers.
TEST_F(SimilarPapersE2eTest, ATwoLetterAcronymIsATerm) {
  v1::SimilarPapersRequest by_text;
  by_text.set_text("RL");
  const v1::SimilarPapersResponse response = Similar(by_text);

  EXPECT_THAT(response.query_terms(), ::testing::ElementsAre("RL"));
  ASSERT_GE(response.results_size(), 3);
  for (const v1::SimilarPaper& similar : response.results()) {
    EXPECT_TRUE(absl::StrContains(similar.paper().abstract(), "RL"))
        << similar.paper().id();
    EXPECT_THAT(similar.shared_terms(), ::testing::ElementsAre("RL"));
  }
  // Lower-case "rl" or two letters of a word are not acronyms.
  by_text.set_text("rl of");
  EXPECT_EQ(Similar(by_text).query_terms_size(), 0);
}

// Han and Kana are indexed a character a term: each is a term of the
// source, so Chinese papers find the Chinese papers like them.
TEST_F(SimilarPapersE2eTest, ChineseTextFindsChinesePapers) {
  const absl::StatusOr<v1::IngestFileResponse> ingested = Ingest(
      "zh.txt",
      "\u8ba1\u7b97\u673a\u5b66\u62a5 2024\u5e74\u8bba\u6587\u5217\u8868\n\n"
      "\u672c\u6587\u63d0\u51fa\u4e00\u79cd\u795e\u7ecf\u7f51\u7edc\u7528\u4e8e"
      "\u56fe\u50cf\u5206\u7c7b\u3002\n\n"
      "\u795e\u7ecf\u7f51\u7edc\u5728\u8bed\u97f3\u8bc6\u522b\u4e2d\u7684"
      "\u5e94\u7528\u3002\n\n"
      "\u6570\u636e\u5e93\u7d22\u5f15\u7684\u5b58\u50a8\u7ed3\u6784\u3002\n");
  ASSERT_TRUE(ingested.ok()) << ingested.status();
  ASSERT_EQ(ingested->added(), 3);
  ASSERT_TRUE(engine_->CatchUp().ok());

  v1::SimilarPapersRequest request;
  request.set_text("\u795e\u7ecf\u7f51\u7edc");  // "Neural network".
  const v1::SimilarPapersResponse response = Similar(request);

  EXPECT_EQ(response.query_terms_size(), 4);
  ASSERT_EQ(response.results_size(), 2);
  for (const v1::SimilarPaper& similar : response.results()) {
    EXPECT_TRUE(absl::StrContains(similar.paper().abstract(),
                                  "\u795e\u7ecf\u7f51\u7edc"));
    EXPECT_EQ(similar.shared_terms_size(), 4);
  }
  // The function characters of "本文提出一种" ("this paper proposes a") are
  // no terms: a paper sharing only them is not alike.
  request.set_text(
      "\u672c\u6587\u63d0\u51fa\u4e00\u79cd\u6570\u636e\u5e93\u3002");
  const v1::SimilarPapersResponse database = Similar(request);
  EXPECT_EQ(database.query_terms_size(), 3);  // 数, 据, 库.
  ASSERT_EQ(database.results_size(), 1);
  EXPECT_TRUE(absl::StrContains(database.results(0).paper().abstract(),
                                "\u6570\u636e\u5e93"));
}

TEST_F(SimilarPapersE2eTest, ReadMaskTrimsEachResult) {
  v1::SimilarPapersRequest request;
  request.set_text("spiking neural networks with learnable delays");
  request.set_page_size(3);
  request.mutable_read_mask()->add_paths("paper.name");
  request.mutable_read_mask()->add_paths("score");
  const v1::SimilarPapersResponse trimmed = Similar(request);
  request.clear_read_mask();
  const v1::SimilarPapersResponse whole = Similar(request);

  ASSERT_EQ(trimmed.results_size(), 3);
  ASSERT_EQ(whole.results_size(), 3);
  EXPECT_EQ(trimmed.query_terms_size(), whole.query_terms_size());
  for (int i = 0; i < 3; ++i) {
    const v1::SimilarPaper& t = trimmed.results(i);
    EXPECT_EQ(t.paper().name(), whole.results(i).paper().name());
    EXPECT_EQ(t.score(), whole.results(i).score());
    EXPECT_TRUE(t.paper().abstract().empty());
    EXPECT_EQ(t.shared_terms_size(), 0);
    EXPECT_GT(whole.results(i).shared_terms_size(), 0);
    EXPECT_FALSE(whole.results(i).paper().abstract().empty());
  }

  request.mutable_read_mask()->add_paths("paper.title");
  grpc::Status status;
  Similar(request, &status);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(),
              HasSubstr("read_mask path \"paper.title\" is not a field of "
                        "SimilarPaper"));
}

}  // namespace
}  // namespace paperdb::testing
