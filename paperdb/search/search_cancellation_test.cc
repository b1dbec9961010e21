// Cancellation: searches stop with CANCELLED wherever they spend time
// (phrases, counting, building clauses, expanding prefixes).

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/index/common_grams.h"
#include "paperdb/index/index_writer.h"
#include "paperdb/index/posting_iterator.h"
#include "paperdb/search/doc_iterator.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/search/searcher.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::search {
namespace {

using ::paperdb::testing::IsOk;

// A phrase whose candidates all fail their positions check, and a count of
// a disjunction of phrases, ask the CancelFn: neither runs to the end past
// the deadline.
class CancellationTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::vector<v1::Paper> papers;
    for (int i = 0; i < 20000; ++i) {
      v1::Paper& p = papers.emplace_back();
      p.set_id("p" + std::to_string(i));
      p.set_abstract("alpha beta gamma " + std::to_string(i));
      p.add_sources()->set_file_name("t.txt");
    }
    ASSERT_THAT(writer_->Commit(papers), ::paperdb::testing::IsOk());
  }

  // Searches `text`, saying "cancelled" from the second question on;
  // returns the status and how many times the search asked.
  std::pair<absl::Status, int> SearchCancelledLater(const std::string& text) {
    absl::StatusOr<Query> query = ParseQuery(text);
    EXPECT_THAT(query, IsOk());
    int asked = 0;
    absl::StatusOr<SearchHits> hits =
        Searcher(store_.get()).Search(*query, 10, [&asked] {
          return ++asked > 1;
        });
    return {hits.status(), asked};
  }
};

TEST_F(CancellationTest, APhraseWithNoMatchesStopsWhenCancelled) {
  // Every paper is a candidate of "gamma alpha"; none has it.
  const auto [status, asked] = SearchCancelledLater("\"gamma alpha\"");
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(asked, 2);
}

TEST_F(CancellationTest, CountingADisjunctionOfPhrasesStopsWhenCancelled) {
  const auto [status, asked] = SearchCancelledLater(
      "\"alpha beta\" OR \"beta gamma\" OR \"gamma alpha\"");
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled);
  EXPECT_LE(asked, 3);  // Each level that checks stops at its next check.
}

// Building the clauses of a long disjunction (each one reads its posting
// list, a RocksDB read when the list is not cached) asks the CancelFn:
// without it, 200 OR'd phrases overrun a 50 ms limit by 15 to 20 times.
TEST_F(CancellationTest, BuildingClausesStopsWhenCancelled) {
  std::string text = "1";
  for (int i = 2; i <= 40; ++i) absl::StrAppend(&text, " OR ", i * 7);
  const auto [status, asked] = SearchCancelledLater(text);
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(asked, 2);  // Asked before each clause; cancelled at the 2nd.
  const auto [and_status, and_asked] =
      SearchCancelledLater("alpha beta gamma 7");
  EXPECT_EQ(and_status.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(and_asked, 2);
}

// Expanding many prefixes (each to 64 terms, each shown as a word read from
// a stored abstract) stops at the deadline.
TEST_F(CancellationTest, ExpandingPrefixesStopsWhenCancelled) {
  absl::StatusOr<Query> query = ParseQuery("1* OR 2* OR 3*");
  ASSERT_THAT(query, IsOk());
  int asked = 0;
  absl::StatusOr<ExpandedQuery> expanded =
      ExpandQuery(*store_, *query, [&asked] { return ++asked > 1; });
  EXPECT_THAT(expanded.status(),
              ::paperdb::testing::StatusIs(absl::StatusCode::kCancelled));
  EXPECT_EQ(asked, 2);

  absl::StatusOr<ExpandedQuery> whole =
      ExpandQuery(*store_, *std::move(query), [] { return false; });
  ASSERT_THAT(whole, IsOk());
  ASSERT_EQ(whole->rewrites.size(), 3u);
  EXPECT_EQ(whole->rewrites[1].original, "2*");
  EXPECT_EQ(whole->rewrites[1].replacements.size(), kMaxPrefixTerms);
}

TEST_F(CancellationTest, NotCancelledTheSameSearchesFinish) {
  absl::StatusOr<Query> query =
      ParseQuery("\"alpha beta\" OR \"beta gamma\" OR \"gamma alpha\"");
  ASSERT_THAT(query, IsOk());
  absl::StatusOr<SearchHits> hits =
      Searcher(store_.get()).Search(*query, 10, [] { return false; });
  ASSERT_THAT(hits, IsOk());
  EXPECT_EQ(hits->total, 20000u);
}

}  // namespace
}  // namespace paperdb::search
