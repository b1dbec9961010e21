// Queries written as sentences over real gRPC on loopback, against the
// bundled ICLR 2024 lists: function words ("what", "does") make no match
// on their own, and real English words the corpus lacks are not
// spelling-corrected into other words.

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;

// The one bundled abstract that writes "hypergraph".
constexpr char kHypergraphPaper[] = "iclr2024-bc810712166ad4ae";

class NaturalLanguageE2eTest : public ServiceFixture {
 protected:
  v1::SearchPapersResponse Search(const std::string& query) {
    v1::SearchPapersRequest request;
    request.set_query(query);
    return SearchOk(std::move(request));
  }
  // The replacements of the spelling correction of `word`, or an empty list
  // when `word` was not corrected.
  static std::vector<std::string> CorrectionsOf(
      const v1::SearchPapersResponse& response, const std::string& word) {
    for (const v1::QueryRewrite& rewrite : response.rewrites()) {
      if (rewrite.kind() == v1::QueryRewrite::KIND_SPELLING_CORRECTION &&
          rewrite.original() == word) {
        return {rewrite.replacements().begin(), rewrite.replacements().end()};
      }
    }
    return {};
  }
};

TEST_F(NaturalLanguageE2eTest, FunctionWordsAloneDoNotMakeAMatch) {
  // No paper holds every word; among papers holding some, only the one
  // with "hypergraph" shares a content word with the question.
  const v1::SearchPapersResponse response =
      Search("what does the hypergraph do");
  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_ANY_TERMS);
  EXPECT_THAT(Ids(response), ElementsAre(kHypergraphPaper));
  EXPECT_EQ(response.total_size(), 1);
}

TEST_F(NaturalLanguageE2eTest, AQueryOfFunctionWordsStillMatchesThem) {
  // With nothing else to match, the function words match: 9 papers write
  // "what", "does" or "do".
  const v1::SearchPapersResponse response = Search("what does it do");
  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_ANY_TERMS);
  EXPECT_EQ(response.total_size(), 9);
}

TEST_F(NaturalLanguageE2eTest,
       AHyphenatedWordsPartsMatchWhenNothingMatchesAll) {
  // No abstract writes "hypergraph style" nor "zebras": the fallback
  // matches the hyphenated word's parts, and "style" is in no abstract.
  const v1::SearchPapersResponse response = Search("hypergraph-style zebras");
  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_ANY_TERMS);
  EXPECT_THAT(Ids(response), ElementsAre(kHypergraphPaper));
  EXPECT_EQ(response.total_size(), 1);
}

TEST_F(NaturalLanguageE2eTest, RealWordsBesideOthersAreNotCorrected) {
  // "rewording" is in no abstract, and one edit from the stems of
  // "reward" and "records": beside other words it stays as typed.
  const v1::SearchPapersResponse response =
      Search("marking AI text so rewording doesn't erase the mark");
  EXPECT_THAT(CorrectionsOf(response, "rewording"), ::testing::IsEmpty());
  for (const v1::SearchResult& result : response.results()) {
    for (const auto& term : result.explanation()) {
      EXPECT_NE(term.term(), "reward") << result.paper().id();
      EXPECT_NE(term.term(), "record") << result.paper().id();
    }
  }
}

TEST_F(NaturalLanguageE2eTest, ARealWordAloneIsStillCorrected) {
  // Alone, a correction is all there is to find.
  const v1::SearchPapersResponse response = Search("rewording");
  EXPECT_THAT(CorrectionsOf(response, "rewording"), Contains("reward"));
  EXPECT_EQ(response.total_size(), 6);
}

TEST_F(NaturalLanguageE2eTest, MisspellingsBesideOtherWordsAreCorrected) {
  // "nueral" is no English word: a typo of "neural".
  const v1::SearchPapersResponse response = Search("nueral network pruning");
  EXPECT_THAT(CorrectionsOf(response, "nueral"), ElementsAre("neural"));
}

}  // namespace
}  // namespace paperdb::testing
