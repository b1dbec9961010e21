// Searches over text the analyzer changes: compounds written hyphenated,
// glued or spaced, model and dataset names, percentages, accents and markup.

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

// The analyzer's spellings (paperdb/text/analyzer.h), end to end through
// the index: each query must find exactly the listed papers.
class AnalyzerMatchingTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::vector<v1::Paper> papers;
    const char* abstracts[] = {
        "SKILL-MIX evaluates compositional skills of state-of-the-art "
        "models.",  // 0
        "ResNet-18 and GPT-4 trained on Proof-Pile-2 and MIMIC-IV with k=5 "
        "neighbours.",                                               // 1
        "Accuracy improves by 5.4% and 10\\% of labels are noisy.",  // 2
        "Schr\xC3\xB6"
        "dinger bridges for na\xC3\xAFve top-k\xCC\x82 sampling with "
        "**STanHop-Net**, $\\eta(x)$ and the author\xE2\x80\x99s "
        "\\textbf{core}.",                                // 3
        "A network of 54 layers trades skill for luck.",  // 4
    };
    for (int i = 0; i < 5; ++i) {
      v1::Paper& p = papers.emplace_back();
      p.set_id("p" + std::to_string(i));
      p.set_abstract(abstracts[i]);
      p.add_sources()->set_file_name("t.txt");
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }

  std::vector<uint32_t> Find(absl::string_view text) {
    absl::StatusOr<Query> query = ParseQuery(text);
    EXPECT_THAT(query, IsOk()) << text;
    if (!query.ok()) return {};
    absl::StatusOr<SearchHits> hits = Searcher(store_.get()).Search(*query, 10);
    EXPECT_THAT(hits, IsOk()) << text;
    if (!hits.ok() || hits->any_terms) return {};  // Only full matches.
    std::vector<uint32_t> docs;
    for (size_t i = 0; i < hits->full_matches; ++i) {
      docs.push_back(hits->top[i].doc);
    }
    std::sort(docs.begin(), docs.end());
    return docs;
  }
};

TEST_F(AnalyzerMatchingTest, HyphenatedGluedAndSpacedSpellingsFindACompound) {
  for (const char* query :
       {"SKILL-MIX", "skill-mix", "skill mix", "SKILLMIX", "\"skill mix\""}) {
    EXPECT_THAT(Find(query), ::testing::ElementsAre(0u)) << query;
  }
  // Paper 4 has both words, but not as a compound or a phrase.
  EXPECT_THAT(Find("skill luck"), ::testing::ElementsAre(4u));
  EXPECT_THAT(Find("state-of-the-art"), ::testing::ElementsAre(0u));
  EXPECT_THAT(Find("stateoftheart"), ::testing::ElementsAre(0u));
}

TEST_F(AnalyzerMatchingTest, PhrasesAfterACompoundStillMatch) {
  EXPECT_THAT(Find("\"SKILL-MIX evaluates compositional skills\""),
              ::testing::ElementsAre(0u));
  EXPECT_THAT(Find("\"evaluates compositional\""), ::testing::ElementsAre(0u));
  EXPECT_THAT(Find("\"GPT-4 trained on Proof-Pile-2 and\""),
              ::testing::ElementsAre(1u));
  EXPECT_THAT(Find("\"art models\""), ::testing::ElementsAre(0u));
  // The joined term holds its first part's position (analyzer.h, step 7).
  EXPECT_THAT(Find("\"skills of stateoftheart\""), ::testing::ElementsAre(0u));
}

TEST_F(AnalyzerMatchingTest, ModelAndDatasetNamesAreFindableAsWritten) {
  for (const char* query :
       {"ResNet-18", "resnet18", "GPT-4", "gpt4", "Proof-Pile-2", "proofpile2",
        "MIMIC-IV", "mimiciv", "k=5", "\"k=5 neighbours\""}) {
    EXPECT_THAT(Find(query), ::testing::ElementsAre(1u)) << query;
  }
}

TEST_F(AnalyzerMatchingTest, PercentagesMatchTheirNumberOnly) {
  EXPECT_THAT(Find("5.4%"), ::testing::ElementsAre(2u));
  EXPECT_THAT(Find("5.4"), ::testing::ElementsAre(2u));
  EXPECT_THAT(Find("54"), ::testing::ElementsAre(4u));
  EXPECT_THAT(Find("10%"), ::testing::ElementsAre(2u));
  EXPECT_THAT(Find("10\\%"), ::testing::ElementsAre(2u));
}

TEST_F(AnalyzerMatchingTest, AccentsApostrophesAndMarkupAreFolded) {
  for (const char* query : {"schrodinger",
                            "SCHR\xC3\x96"
                            "DINGER",
                            "Schr\xC3\xB6"
                            "dinger",
                            "naive", "na\xC3\xAFve", "top-k", "topk",
                            "top-k\xCC\x82", "STanHop-Net", "stanhopnet", "eta",
                            "author's", "author\xE2\x80\x99s", "core"}) {
    EXPECT_THAT(Find(query), ::testing::ElementsAre(3u)) << query;
  }
  EXPECT_THAT(Find("textbf"), ::testing::IsEmpty());
}

}  // namespace
}  // namespace paperdb::search
