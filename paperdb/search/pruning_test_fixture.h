// PruningTest: a store of generated papers whose posting lists span many
// blocks and whose scores often tie, and the searches the pruning tests
// compare: exhaustive evaluation against block-max and MaxScore pruning.

#ifndef PAPERDB_SEARCH_PRUNING_TEST_FIXTURE_H_
#define PAPERDB_SEARCH_PRUNING_TEST_FIXTURE_H_

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/index/index_writer.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/search/searcher.h"
#include "paperdb/search/skip_estimator.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::search {

using ::paperdb::testing::IsOk;

// Words chosen so that the stemmer leaves them alone; the i-th is drawn
// with weight 1 / (i + 1) (Zipf).
inline const char* const kWords[] = {
    "alpha",  "bravo", "delta",  "echo",    "golf", "hotel",  "india",
    "kilo",   "lima",  "mike",   "oscar",   "papa", "quebec", "romeo",
    "sierra", "tango", "victor", "whiskey", "xray", "yankee", "zulu"};
inline constexpr int kNumWords = sizeof(kWords) / sizeof(kWords[0]);
inline constexpr int kPapers = 3000;

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

  enum Mode {
    kPruned,       // The default options: totals past 1,000 estimated.
    kPrunedExact,  // Pruned, every match counted.
    kPrunedEarly,  // Pruned, totals past 100 estimated.
    kExhaustive,   // The reference: every match scored and counted.
  };

  SearchHits Search(absl::string_view text, Mode mode) {
    absl::StatusOr<Query> query = ParseQuery(text);
    EXPECT_THAT(query, IsOk());
    absl::StatusOr<ExpandedQuery> expanded =
        ExpandQuery(*store_, *std::move(query));
    EXPECT_THAT(expanded, IsOk());
    SearchOptions options;
    // The reference scores every match: no pruning, and no MaxScore (which
    // collecting the matches turns off).
    options.collect_matches = mode == kExhaustive;
    options.prune = mode != kExhaustive;
    if (mode == kPrunedExact) options.exact_total_up_to = UINT64_MAX;
    if (mode == kPrunedEarly) options.exact_total_up_to = 100;
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

  // Commits `first` papers of `first_text`, then `then` of `then_text`.
  void CommitTwoKinds(int first, const std::string& first_text, int then,
                      const std::string& then_text) {
    std::vector<v1::Paper> papers;
    for (int d = 0; d < first + then; ++d) {
      papers.push_back(::paperdb::testing::MakePaper(
          "k" + std::to_string(d), d < first ? first_text : then_text));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }

  // Commits papers 0 to count - 1 with the texts `text_of` gives them.
  void CommitTexts(int count, const std::function<std::string(int)>& text_of) {
    std::vector<v1::Paper> papers;
    for (int d = 0; d < count; ++d) {
      papers.push_back(
          ::paperdb::testing::MakePaper("t" + std::to_string(d), text_of(d)));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }

  // Pruned (counting exactly or not), `query`'s top 10 are papers first,
  // first + step, ..., with the scores of exhaustive evaluation.
  void ExpectTopTenEvery(const char* query, uint32_t first, uint32_t step) {
    const SearchHits reference = Search(query, kExhaustive);
    ASSERT_EQ(reference.top.size(), 10u);
    for (const Mode mode : {kPrunedExact, kPruned}) {
      SCOPED_TRACE(mode);
      const SearchHits pruned = Search(query, mode);
      ASSERT_EQ(pruned.top.size(), 10u);
      for (size_t i = 0; i < 10; ++i) {
        EXPECT_EQ(pruned.top[i].doc, first + step * i) << "rank " << i;
        EXPECT_EQ(pruned.top[i].doc, reference.top[i].doc) << "rank " << i;
        EXPECT_NEAR(pruned.top[i].score, reference.top[i].score, 1e-9);
      }
    }
  }

  // Papers holding all of `words`, counted from the generated texts.
  uint64_t CountAll(const std::vector<std::string>& words) const {
    uint64_t n = 0;
    for (const auto& t : texts_) {
      bool all = true;
      for (const auto& w : words) all &= t.contains(w);
      n += all;
    }
    return n;
  }

  std::vector<std::set<std::string>> texts_;
};

// Dense lists (alpha, bravo: a bitset each, posting_list.h) and sparse ones
// (yankee, zulu) in conjunctions: the count is the texts' count.

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_PRUNING_TEST_FIXTURE_H_
