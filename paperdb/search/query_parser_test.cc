#include "paperdb/search/query_parser.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace paperdb::search {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(QueryParserTest, WordsBecomeRequiredTermsWithoutStopwords) {
  absl::StatusOr<Query> query = ParseQuery("the Spiking networks of delays");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(query->clauses.size(), 3u);
  EXPECT_THAT(query->clauses[0].terms, ElementsAre("spike"));
  EXPECT_EQ(query->clauses[0].position, 4u);
  EXPECT_THAT(query->clauses[2].terms, ElementsAre("delay"));
  EXPECT_FALSE(query->clauses[2].excluded);
}

TEST(QueryParserTest, QuotedTextIsAPhraseKeepingStopwords) {
  absl::StatusOr<Query> query = ParseQuery(
      "\"state of the art\" \xE2\x80\x9Cleading indicators\xE2\x80\x9D");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(query->clauses.size(), 2u);
  EXPECT_EQ(query->clauses[0].kind, QueryClause::Kind::kPhrase);
  EXPECT_THAT(query->clauses[0].terms,
              ElementsAre("state", "of", "the", "art"));
  EXPECT_THAT(query->clauses[1].terms, ElementsAre("lead", "indic"));
}

TEST(QueryParserTest, HyphenatedWordIsAPhrase) {
  absl::StatusOr<Query> query = ParseQuery("ResNet-18");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(query->clauses.size(), 1u);
  EXPECT_EQ(query->clauses[0].kind, QueryClause::Kind::kPhrase);
  EXPECT_THAT(query->clauses[0].terms, ElementsAre("resnet", "18"));
}

TEST(QueryParserTest, MinusExcludesWordsAndPhrases) {
  absl::StatusOr<Query> query = ParseQuery("graph -neural -\"time series\"");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(query->clauses.size(), 3u);
  EXPECT_FALSE(query->clauses[0].excluded);
  EXPECT_TRUE(query->clauses[1].excluded);
  EXPECT_TRUE(query->clauses[2].excluded);
  EXPECT_THAT(query->clauses[2].terms, ElementsAre("time", "seri"));
}

TEST(QueryParserTest, RepeatedClausesCountOnce) {
  absl::StatusOr<Query> query = ParseQuery("x x X \"a b\" \"a b\" -x");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(query->clauses.size(), 3u);
  EXPECT_TRUE(query->clauses[2].excluded);
}

TEST(QueryParserTest, OnlyTheFirstDistinctClausesCount) {
  std::string text;
  for (size_t i = 0; i < kMaxClauses + 10; ++i)
    text += "w" + std::to_string(i) + " ";

  absl::StatusOr<Query> query = ParseQuery(text);

  ASSERT_THAT(query, IsOk());
  EXPECT_EQ(query->clauses.size(), kMaxClauses);
}

TEST(QueryParserTest, OverlongPhraseIsInvalid) {
  std::string phrase = "\"";
  for (size_t i = 0; i <= kMaxPhraseTerms; ++i) phrase += "x ";
  phrase += "\"";

  EXPECT_THAT(ParseQuery(phrase), StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(QueryParserTest, UnicodeSpacesSeparateAndUnicodeMinusExcludes) {
  // NBSP, U+3000 and U+2212 MINUS SIGN.
  absl::StatusOr<Query> query =
      ParseQuery("graph\xC2\xA0neural\xE3\x80\x80\xE2\x88\x92series");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(query->clauses.size(), 3u);
  EXPECT_EQ(query->clauses[0].kind, QueryClause::Kind::kTerm);
  EXPECT_FALSE(query->clauses[1].excluded);
  EXPECT_TRUE(query->clauses[2].excluded);
  EXPECT_THAT(query->clauses[2].terms, ElementsAre("seri"));
}

TEST(QueryParserTest, OnlyStopwordsAndPunctuationMatchNothing) {
  for (const char* text : {"", "   ", "the of and", "?!  ...", "-the"}) {
    absl::StatusOr<Query> query = ParseQuery(text);
    ASSERT_THAT(query, IsOk()) << text;
    EXPECT_TRUE(query->MatchesNothing()) << text;
  }
}

TEST(QueryParserTest, UnterminatedPhraseNamesItsPosition) {
  absl::StatusOr<Query> query = ParseQuery("héllo \"leading indicators");

  EXPECT_THAT(query, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(query.status().message(), HasSubstr("character 6"));
  EXPECT_THAT(query.status().message(), HasSubstr("closing '\"'"));
}

TEST(QueryParserTest, DanglingMinusIsInvalid) {
  absl::StatusOr<Query> query = ParseQuery("graph - neural");

  EXPECT_THAT(query, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(query.status().message(), HasSubstr("character 6"));
}

TEST(QueryParserTest, InvalidUtf8IsInvalidArgument) {
  EXPECT_THAT(ParseQuery("ab\xFF"),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(QueryParserTest, OverlongQueryIsInvalidArgument) {
  EXPECT_THAT(ParseQuery(std::string(kMaxQueryBytes + 1, 'a')),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

}  // namespace
}  // namespace paperdb::search
