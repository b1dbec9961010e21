// Dynamic pruning (MaxScore for disjunctions, block skipping) must return
// exactly what exhaustive evaluation returns: the same top k, the same
// scores, the same exact count. The corpus is generated so that posting
// lists span many blocks and scores often tie.

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/index/index_writer.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/search/searcher.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::search {
namespace {

using ::paperdb::testing::IsOk;

// Words chosen so that the stemmer leaves them alone; the i-th is drawn
// with weight 1 / (i + 1) (Zipf).
const char* const kWords[] = {
    "alpha",  "bravo", "delta",  "echo",    "golf", "hotel",  "india",
    "kilo",   "lima",  "mike",   "oscar",   "papa", "quebec", "romeo",
    "sierra", "tango", "victor", "whiskey", "xray", "yankee", "zulu"};
constexpr int kNumWords = sizeof(kWords) / sizeof(kWords[0]);
constexpr int kPapers = 3000;

class PruningTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    double total = 0;
    for (int i = 0; i < kNumWords; ++i) total += 1.0 / (i + 1);
    uint64_t state = 12345;
    auto next = [&] {  // A fixed LCG: the same corpus on every platform.
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return static_cast<double>(state >> 11) / static_cast<double>(1ULL << 53);
    };
    std::vector<v1::Paper> papers;
    for (int d = 0; d < kPapers; ++d) {
      const int length = 3 + static_cast<int>(next() * 12);
      std::string text;
      std::set<std::string> words;
      for (int w = 0; w < length; ++w) {
        double x = next() * total;
        int i = 0;
        while (i < kNumWords - 1 && (x -= 1.0 / (i + 1)) > 0) ++i;
        text += std::string(kWords[i]) + " ";
        words.insert(kWords[i]);
      }
      texts_.push_back(words);
      v1::Paper& p = papers.emplace_back();
      p.set_id("p" + std::to_string(d));
      p.set_abstract(text);
      p.add_sources()->set_file_name("t.txt");
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }

  SearchHits Search(absl::string_view text, bool exhaustive) {
    absl::StatusOr<Query> query = ParseQuery(text);
    EXPECT_THAT(query, IsOk());
    absl::StatusOr<ExpandedQuery> expanded =
        ExpandQuery(*store_, *std::move(query));
    EXPECT_THAT(expanded, IsOk());
    SearchOptions options;
    // The reference scores every match: no pruning, and no MaxScore (which
    // collecting the matches turns off).
    options.collect_matches = exhaustive;
    options.prune = !exhaustive;
    absl::StatusOr<SearchHits> hits =
        Searcher(store_.get()).Search(expanded->query, options);
    EXPECT_THAT(hits, IsOk());
    return hits.ok() ? *hits : SearchHits{};
  }

  // Papers holding any of `words`, counted from the generated texts.
  uint64_t CountAny(const std::vector<std::string>& words) const {
    uint64_t n = 0;
    for (const auto& t : texts_) {
      bool any = false;
      for (const auto& w : words) any |= t.contains(w);
      n += any;
    }
    return n;
  }

  std::vector<std::set<std::string>> texts_;
};

TEST_F(PruningTest, DisjunctionCountIsExact) {
  EXPECT_EQ(Search("xray OR zulu", false).total, CountAny({"xray", "zulu"}));
  EXPECT_EQ(Search("alpha OR yankee OR zulu", false).total,
            CountAny({"alpha", "yankee", "zulu"}));
}

TEST_F(PruningTest, PrunedTopKEqualsExhaustive) {
  const char* queries[] = {
      "alpha OR zulu",
      "alpha OR bravo OR xray",
      "bravo OR delta OR echo OR yankee",
      "zulu OR yankee",
      "alpha OR (bravo zulu)",
      "(alpha bravo) OR zulu",
      "alpha OR \"bravo delta\"",
      "\"yankee zulu\" OR delta",
      "\"xray zulu\" OR yankee OR alpha",
      "alpha zulu",
      "alpha bravo",
      "alpha bravo delta",
      "alpha -bravo",
      "alpha (bravo OR zulu)",
      "alpha yankee xray zulu whiskey",  // Few full matches: a fill.
  };
  for (const char* q : queries) {
    SCOPED_TRACE(q);
    const SearchHits pruned = Search(q, false);
    const SearchHits reference = Search(q, true);
    EXPECT_EQ(pruned.total, reference.total);
    EXPECT_EQ(pruned.full_matches, reference.full_matches);
    ASSERT_EQ(pruned.top.size(), reference.top.size());
    ASSERT_EQ(pruned.top.size(), 10u);
    for (size_t i = 0; i < pruned.top.size(); ++i) {
      EXPECT_EQ(pruned.top[i].doc, reference.top[i].doc) << "rank " << i;
      EXPECT_NEAR(pruned.top[i].score, reference.top[i].score, 1e-9);
    }
  }
}

}  // namespace
}  // namespace paperdb::search
