// Ingest, then query: re-ingesting changes nothing, a file ingested while
// the query service runs becomes searchable after catch-up, and a bad file
// is rejected without touching the store.

#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ingest_service/ingester.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/search/searcher.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

using ::testing::HasSubstr;

class IngestThenQueryE2eTest : public ServiceFixture {
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
};

TEST_F(IngestThenQueryE2eTest, SecondIngestOfSameFilesAddsNothing) {
  auto files = ingest::ListInputFiles({SeedDir()});
  ASSERT_TRUE(files.ok());
  int added = 0, unchanged = 0;

  for (const std::string& path : *files) {
    auto summary = Ingest(std::filesystem::path(path).filename().string(),
                          *ingest::ReadFile(path));
    ASSERT_TRUE(summary.ok()) << summary.status();
    added += summary->added();
    unchanged += summary->unchanged();
  }

  EXPECT_EQ(added, 0);
  EXPECT_EQ(unchanged, 76);
  ASSERT_TRUE(engine_->CatchUp().ok());
  EXPECT_EQ(PaperCount(), 76);
}

// Two venues alike in their ASCII letters and digits (none, for two
// Chinese journals) are two venues: the same abstract under each is two
// papers, each found under its own venue.
TEST_F(IngestThenQueryE2eTest, VenuesAlikeInLettersAndDigitsStayApart) {
  const std::string abstract = "\n\nWe study zorblax graphs.\n";
  const auto first = Ingest(
      "c1.txt", "\u8ba1\u7b97\u673a\u5b66\u62a5 2024 paper list" + abstract);
  const auto second =
      Ingest("c2.txt", "\u8f6f\u4ef6\u5b66\u62a5 2024 paper list" + abstract);
  const auto spaced = Ingest("c3.txt", "Neur IPS 2024 paper list" + abstract);
  const auto plain = Ingest("c4.txt", "NeurIPS 2024 paper list" + abstract);
  for (const auto* summary : {&first, &second, &spaced, &plain}) {
    ASSERT_TRUE(summary->ok()) << summary->status();
    EXPECT_EQ((*summary)->added(), 1);
    EXPECT_EQ((*summary)->unchanged(), 0);
  }
  ASSERT_TRUE(engine_->CatchUp().ok());

  EXPECT_EQ(SearchTotal("zorblax"), 4);
  EXPECT_EQ(SearchTotal("zorblax venue:\u8f6f\u4ef6\u5b66\u62a5"), 1);
  EXPECT_EQ(SearchTotal("zorblax venue:\"Neur IPS\""), 1);
  EXPECT_EQ(PaperCount(), 80);
}

TEST_F(IngestThenQueryE2eTest,
       FileIngestedWhileServingIsSearchableAfterCatchUp) {
  const int64_t tokenizer_before = SearchTotal("tokenizer");
  v1::IngestFileResponse ingested;
  ASSERT_TRUE(
      IngestOverGrpc("new.txt",
                     "NeurIPS 2023 论文列表\n\nWe present Zorblax, a quantum "
                     "tokenizer.\n\nA second abstract about tokenizers.\n",
                     &ingested)
          .ok());
  EXPECT_EQ(ingested.added(), 2);
  EXPECT_EQ(SearchTotal("zorblax"), 0);  // Not caught up yet.

  ASSERT_TRUE(engine_->CatchUp().ok());

  EXPECT_EQ(SearchTotal("zorblax"), 1);
  EXPECT_EQ(SearchTotal("tokenizer"), tokenizer_before + 2);
  EXPECT_EQ(PaperCount(), 78);
}

TEST_F(IngestThenQueryE2eTest, ScoresAfterCatchUpUseTheNewCorpusStatistics) {
  // The query side keeps the corpus statistics (document count, average
  // length) between catch-ups: after one, BM25 must use the new ones, as a
  // searcher of the writer's store that reads them does.
  auto top_score = [&] {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::SearchPapersRequest request;
    request.set_query("spiking");
    v1::SearchPapersResponse response;
    EXPECT_TRUE(query_->SearchPapers(&context, request, &response).ok());
    return response.results_size() > 0 ? response.results(0).score() : -1.0;
  };
  auto reference = [&] {
    absl::StatusOr<search::ExpandedQuery> expanded =
        search::ExpandQuery(*store_, *search::ParseQuery("spiking"));
    EXPECT_TRUE(expanded.ok());
    absl::StatusOr<search::SearchHits> hits =
        search::Searcher(store_.get()).Search(expanded->query, 1);
    EXPECT_TRUE(hits.ok());
    return hits.ok() && !hits->top.empty() ? hits->top[0].score : -2.0;
  };
  const double before = top_score();
  EXPECT_DOUBLE_EQ(before, reference());
  // Thirty papers without the word: its idf rises, and so does the score.
  std::string content = "NeurIPS 2023 论文列表\n";
  for (int i = 0; i < 30; ++i) {
    absl::StrAppend(&content, "\nAn abstract about graphs, number ", i, ".\n");
  }
  ASSERT_TRUE(Ingest("more.txt", content).ok());
  ASSERT_TRUE(engine_->CatchUp().ok());

  const double after = top_score();
  EXPECT_DOUBLE_EQ(after, reference());
  EXPECT_GT(after, before);
}

TEST_F(IngestThenQueryE2eTest, AGluedModelNameFindsItWrittenApart) {
  ASSERT_TRUE(Ingest("glued.txt",
                     "NeurIPS 2023 paper list\n\nWe evaluate Mixtral 8x7B "
                     "Instruct on reasoning.\n\nRouting in Mixtral-8x7B.\n")
                  .ok());
  ASSERT_TRUE(engine_->CatchUp().ok());
  v1::SearchPapersRequest request;
  request.set_query("Mixtral8x7B");
  const v1::SearchPapersResponse response = SearchOk(request);
  EXPECT_EQ(response.total_size(), 2);
  EXPECT_EQ(response.full_match_count(), 2);
  std::set<std::string> shown;
  for (const v1::SearchResult& result : response.results()) {
    for (const v1::TextSpan& span : result.highlights()) {
      shown.insert(result.paper().abstract().substr(
          span.start_byte(), span.end_byte() - span.start_byte()));
    }
  }
  EXPECT_EQ(shown, (std::set<std::string>{"Mixtral 8x7B", "Mixtral-8x7B"}));
}

TEST_F(IngestThenQueryE2eTest, AVersionedModelNameMatchesHoweverItIsWritten) {
  ASSERT_TRUE(Ingest("versions.txt",
                     "NeurIPS 2024 paper list\n\nWe fine-tune Qwen2.5-7B "
                     "with quokkanomic rewards.\n\nLlama3.1 distils "
                     "quokkanomic traces.\n")
                  .ok());
  ASSERT_TRUE(engine_->CatchUp().ok());
  // The family name alone, the version glued or apart: each finds its
  // paper, and only it among the quokkanomic ones.
  for (const auto& [query, total] :
       std::vector<std::pair<std::string, int64_t>>{
           {"qwen quokkanomic", 1},
           {"qwen2.5 quokkanomic", 1},
           {"\"Qwen 2.5\" quokkanomic", 1},
           {"llama3.1 quokkanomic", 1},
           {"\"Llama 3.1\" quokkanomic", 1},
           {"llama quokkanomic", 1},
           {"quokkanomic", 2}}) {
    v1::SearchPapersRequest request;
    request.set_query(query);
    request.set_matching_strategy(v1::MATCHING_STRATEGY_ALL);
    EXPECT_EQ(SearchOk(request).total_size(), total) << query;
  }
  // GPT-3.5 of the bundled corpus, typed glued.
  EXPECT_EQ(SearchTotal("gpt3.5"), 1);
}

TEST_F(IngestThenQueryE2eTest, BadFileIsRejectedAndStoresNothing) {
  v1::IngestFileResponse response;

  const grpc::Status status = IngestOverGrpc(
      "broken.txt",
      "ICLR 2024 论文列表\n\nZanzibarish abstract.\n\nBad \xC3( byte.\n",
      &response);

  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(),
              HasSubstr("broken.txt: line 5, byte 51: not valid UTF-8"));
  ASSERT_TRUE(engine_->CatchUp().ok());
  EXPECT_EQ(PaperCount(), 76);
  EXPECT_EQ(SearchTotal("zanzibarish"), 0);
}

TEST_F(IngestThenQueryE2eTest, FileWithoutHeaderIsRejected) {
  v1::IngestFileResponse response;

  const grpc::Status status =
      IngestOverGrpc("noheader.txt", "Just an abstract.\n", &response);

  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(),
              HasSubstr("noheader.txt: line 1, byte 0: no header"));
}

}  // namespace
}  // namespace paperdb::testing
