#include "paperdb/search/query_parser.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/common/error_details.h"
#include "tests/testing/status_matchers.h"

namespace paperdb::search {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Kind = QueryNode::Kind;

const std::vector<QueryNode>& Top(const absl::StatusOr<Query>& query) {
  return query->root.children;
}

// The error message of a query that must fail.
std::string ErrorOf(absl::string_view text) {
  absl::StatusOr<Query> query = ParseQuery(text);
  EXPECT_THAT(query, StatusIs(absl::StatusCode::kInvalidArgument)) << text;
  return std::string(query.status().message());
}

TEST(QueryParserTest, WordsBecomeRequiredTermsWithoutStopwords) {
  absl::StatusOr<Query> query = ParseQuery("the Spiking networks of delays");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 3u);
  EXPECT_THAT(Top(query)[0].terms, ElementsAre("spike"));
  EXPECT_EQ(Top(query)[0].word, "Spiking");
  EXPECT_EQ(Top(query)[0].position, 4u);
  EXPECT_THAT(Top(query)[2].terms, ElementsAre("delay"));
  EXPECT_FALSE(Top(query)[2].excluded);
}

TEST(QueryParserTest, QuotedTextIsAPhraseKeepingStopwords) {
  absl::StatusOr<Query> query = ParseQuery(
      "\"state of the art\" \xE2\x80\x9Cleading indicators\xE2\x80\x9D");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 2u);
  EXPECT_EQ(Top(query)[0].kind, Kind::kPhrase);
  EXPECT_THAT(Top(query)[0].terms, ElementsAre("state", "of", "the", "art"));
  EXPECT_THAT(Top(query)[1].terms, ElementsAre("lead", "indic"));
}

TEST(QueryParserTest, ProximityPhraseHasSlop) {
  absl::StatusOr<Query> query = ParseQuery("\"neural pruning\"~3");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 1u);
  EXPECT_EQ(Top(query)[0].kind, Kind::kPhrase);
  EXPECT_EQ(Top(query)[0].slop, 3u);
  EXPECT_THAT(ErrorOf("\"a b\"~x"),
              HasSubstr("character 5: expected a number"));
  EXPECT_THAT(ErrorOf("\"a b\"~65"), HasSubstr("character 5"));
}

TEST(QueryParserTest, HyphenatedWordIsAPhrase) {
  absl::StatusOr<Query> query = ParseQuery("ResNet-18");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 1u);
  // The parts as a phrase; with a joined compound from the analyzer, an OR
  // of the phrase and the joined term.
  const QueryNode& node = Top(query)[0];
  const QueryNode& phrase = node.kind == Kind::kOr ? node.children[0] : node;
  EXPECT_EQ(phrase.kind, Kind::kPhrase);
  EXPECT_THAT(phrase.terms, ElementsAre("resnet", "18"));
}

TEST(QueryParserTest, AGluedWordOfManyPartsIsAlsoItsPartsApart) {
  // Five letter-digit parts, which the index holds whole only: the whole,
  // or the parts as a phrase ("Mixtral 8x7B", "Mixtral-8x7B").
  absl::StatusOr<Query> query = ParseQuery("Mixtral8x7B");
  ASSERT_THAT(query, IsOk());
  ASSERT_EQ(Top(query).size(), 1u);
  const QueryNode& node = Top(query)[0];
  ASSERT_EQ(node.kind, Kind::kOr);
  ASSERT_EQ(node.children.size(), 2u);
  EXPECT_EQ(node.children[0].kind, Kind::kPhrase);
  EXPECT_THAT(node.children[0].terms,
              ElementsAre("mixtral", "8", "x", "7", "b"));
  EXPECT_THAT(node.children[1].terms, ElementsAre("mixtral8x7b"));
  EXPECT_EQ(node.text_begin, 0u);
  EXPECT_EQ(node.text_end, 11u);
  // A word of letters alone stays one term.
  absl::StatusOr<Query> plain = ParseQuery("Mixtral");
  ASSERT_THAT(plain, IsOk());
  EXPECT_EQ(Top(plain)[0].kind, Kind::kTerm);
}

TEST(QueryParserTest, OrBindsLooserThanImplicitAnd) {
  absl::StatusOr<Query> query = ParseQuery("graph neural OR spiking");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 1u);
  const QueryNode& any = Top(query)[0];
  ASSERT_EQ(any.kind, Kind::kOr);
  ASSERT_EQ(any.children.size(), 2u);
  EXPECT_EQ(any.children[0].kind, Kind::kAnd);
  EXPECT_EQ(any.children[0].children.size(), 2u);
  EXPECT_THAT(any.children[1].terms, ElementsAre("spike"));
}

TEST(QueryParserTest, ParenthesesGroup) {
  absl::StatusOr<Query> query = ParseQuery("(graph OR spiking) delays");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 2u);
  EXPECT_EQ(Top(query)[0].kind, Kind::kOr);
  EXPECT_EQ(Top(query)[0].position, 0u);
  EXPECT_THAT(Top(query)[1].terms, ElementsAre("delay"));
}

TEST(QueryParserTest, LowerCaseOrIsAStopword) {
  absl::StatusOr<Query> query = ParseQuery("graph or spiking");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 2u);
  EXPECT_EQ(Top(query)[0].kind, Kind::kTerm);
}

TEST(QueryParserTest, MinusAndNotExclude) {
  absl::StatusOr<Query> query =
      ParseQuery("graph -neural -\"time series\" NOT (a OR spiking)");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 4u);
  EXPECT_FALSE(Top(query)[0].excluded);
  EXPECT_TRUE(Top(query)[1].excluded);
  EXPECT_TRUE(Top(query)[2].excluded);
  EXPECT_THAT(Top(query)[2].terms, ElementsAre("time", "seri"));
  EXPECT_TRUE(Top(query)[3].excluded);
  EXPECT_EQ(Top(query)[3].position, 29u);
}

TEST(QueryParserTest, PrefixKeepsFoldedWordAndStem) {
  absl::StatusOr<Query> query = ParseQuery("Learning*");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 1u);
  EXPECT_EQ(Top(query)[0].kind, Kind::kPrefix);
  EXPECT_THAT(Top(query)[0].terms, ElementsAre("learning", "learn"));
}

// A prefix on a word of letters and digits ("sigma2*", "zq0000*") is a
// prefix of the joined word, its '*' kept.
TEST(QueryParserTest, PrefixOfLettersAndDigitsIsTheJoinedWords) {
  for (const auto& [text, term] :
       std::vector<std::pair<std::string, std::string>>{
           {"sigma2*", "sigma2"}, {"ResNet-1*", "resnet1"}, {"3d*", "3d"}}) {
    absl::StatusOr<Query> query = ParseQuery(text);
    ASSERT_THAT(query, IsOk()) << text;
    ASSERT_EQ(Top(query).size(), 1u) << text;
    EXPECT_EQ(Top(query)[0].kind, Kind::kPrefix) << text;
    EXPECT_THAT(Top(query)[0].terms, ElementsAre(term)) << text;
  }
  absl::StatusOr<Query> several = ParseQuery("x a.b.c*");
  EXPECT_THAT(several, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(several.status().message(),
              HasSubstr("character 2: 'a.b.c*' is several words"));
}

TEST(QueryParserTest, FieldFilters) {
  absl::StatusOr<Query> query = ParseQuery(
      "venue:ICLR year:2020..2023 has:code host:www.GitHub.com "
      "method:\"STanHop Net\" dataset:ImageNet");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 6u);
  for (const QueryNode& node : Top(query)) {
    EXPECT_EQ(node.kind, Kind::kField);
  }
  EXPECT_EQ(Top(query)[0].field, "venue");
  EXPECT_EQ(Top(query)[0].value, "iclr");
  EXPECT_EQ(Top(query)[1].value, "2020");
  EXPECT_EQ(Top(query)[1].value_end, "2023");
  EXPECT_EQ(Top(query)[2].value, "code");
  EXPECT_EQ(Top(query)[3].value, "github.com");
  EXPECT_EQ(Top(query)[4].value, "stanhopnet");
  EXPECT_EQ(Top(query)[5].value, "imagenet");
}

TEST(QueryParserTest, AVenueWithAYearIsTheVenueAndTheYear) {
  for (const char* text :
       {"venue:\"ICLR 2024\"", "venue:iclr2024", "venue:ICLR-2024",
        "venue:\"ICLR \uFF12\uFF10\uFF12\uFF14\"",
        "venue:ICLR\u0662\u0660\u0662\u0664"}) {
    absl::StatusOr<Query> query = ParseQuery(text);
    ASSERT_THAT(query, IsOk()) << text;
    ASSERT_EQ(Top(query).size(), 2u) << text;
    EXPECT_EQ(Top(query)[0].field, "venue");
    EXPECT_EQ(Top(query)[0].value, "iclr");
    EXPECT_EQ(Top(query)[1].field, "year");
    EXPECT_EQ(Top(query)[1].value, "2024");
    EXPECT_EQ(Top(query)[1].value_end, "2024");
  }
  // Not a year: kept whole.
  for (const char* text : {"venue:\"Track 12345\"", "venue:2024"}) {
    absl::StatusOr<Query> query = ParseQuery(text);
    ASSERT_THAT(query, IsOk()) << text;
    ASSERT_EQ(Top(query).size(), 1u) << text;
    EXPECT_EQ(Top(query)[0].field, "venue");
  }
}

// Papers are indexed under a curated dataset's canonical name, so an alias
// in any case filters by that name.
TEST(QueryParserTest, DatasetAliasesFilterByTheCanonicalName) {
  for (const char* text : {"dataset:SHD", "dataset:shd",
                           "dataset:\"Spiking Heidelberg Digits\""}) {
    absl::StatusOr<Query> query = ParseQuery(text);
    ASSERT_THAT(query, IsOk());
    ASSERT_EQ(Top(query).size(), 1u) << text;
    EXPECT_EQ(Top(query)[0].value, "spikingheidelbergdigits") << text;
  }
  absl::StatusOr<Query> other = ParseQuery("dataset:NoSuchSet");
  ASSERT_THAT(other, IsOk());
  EXPECT_EQ(Top(other)[0].value, "nosuchset");
}

// A year written in another script's digits is the year.
TEST(QueryParserTest, AYearInOtherDigitsIsTheYear) {
  absl::StatusOr<Query> query = ParseQuery(
      "year:\uFF12\uFF10\uFF12\uFF14 year:\u0662\u0660\u0662\u0663..2024");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 2u);
  EXPECT_EQ(Top(query)[0].value, "2024");
  EXPECT_EQ(Top(query)[0].value_end, "2024");
  EXPECT_EQ(Top(query)[1].value, "2023");
  EXPECT_EQ(Top(query)[1].value_end, "2024");
}

TEST(QueryParserTest, OpenYearRanges) {
  absl::StatusOr<Query> query = ParseQuery("year:2022.. year:..2019");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 2u);
  EXPECT_EQ(Top(query)[0].value, "2022");
  EXPECT_EQ(Top(query)[0].value_end, "9999");
  EXPECT_EQ(Top(query)[1].value, "0000");
  EXPECT_EQ(Top(query)[1].value_end, "2019");
}

TEST(QueryParserTest, AColonAfterAnUnknownNameIsPunctuation) {
  absl::StatusOr<Query> query = ParseQuery("Note: graph");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 2u);
  EXPECT_THAT(Top(query)[0].terms, ElementsAre("note"));
}

TEST(QueryParserTest, UrlsAreWordsNotFields) {
  absl::StatusOr<Query> query = ParseQuery("https://github.com/x/y");
  ASSERT_THAT(query, IsOk());

  EXPECT_FALSE(query->MatchesNothing());
  EXPECT_NE(Top(query)[0].kind, Kind::kField);
}

TEST(QueryParserTest, MalformedQueriesNameThePositionAndWhatWasExpected) {
  EXPECT_THAT(ErrorOf("héllo \"leading indicators"),
              HasSubstr("character 6: unterminated phrase: expected a "
                        "closing '\"'"));
  EXPECT_THAT(ErrorOf("graph - neural"), HasSubstr("character 6"));
  EXPECT_THAT(ErrorOf("(graph OR neural"),
              HasSubstr("character 0: unbalanced parenthesis: expected a "
                        "closing ')'"));
  EXPECT_THAT(ErrorOf("graph neural)"),
              HasSubstr("character 12: unbalanced parenthesis: ')' without"));
  EXPECT_THAT(ErrorOf("graph OR"), HasSubstr("character 6: dangling OR"));
  EXPECT_THAT(ErrorOf("OR graph"), HasSubstr("character 0: expected a word"));
  EXPECT_THAT(ErrorOf("graph AND"), HasSubstr("character 6: dangling AND"));
  EXPECT_THAT(ErrorOf("graph NOT"), HasSubstr("character 6: dangling NOT"));
  EXPECT_THAT(ErrorOf("graph OR -neural"),
              HasSubstr("character 6: an OR operand cannot only exclude"));
  EXPECT_THAT(ErrorOf("graph author:smith"),
              HasSubstr("character 6: unknown field 'author': expected one "
                        "of venue, year, has, host, method, dataset"));
  EXPECT_THAT(ErrorOf("year:24"), HasSubstr("character 5: year: expected"));
  EXPECT_THAT(ErrorOf("year:2024..2020"), HasSubstr("character 5"));
  EXPECT_THAT(ErrorOf("has:data"), HasSubstr("character 4: has: expected"));
  EXPECT_THAT(ErrorOf("-graph OR network"),
              HasSubstr("character 0: an OR operand cannot only exclude"));
  EXPECT_THAT(ErrorOf("NOT NOT graph"),
              HasSubstr("character 0: a double exclusion"));
  EXPECT_THAT(ErrorOf("graph --network"),
              HasSubstr("character 6: a double exclusion"));
  EXPECT_THAT(ErrorOf("graph -(-network)"),
              HasSubstr("character 6: a double exclusion"));
  // What follows a good number is pointed at ("~2~3" names the second
  // '~', not the first).
  EXPECT_THAT(ErrorOf("\"graph neural\"~1.5"),
              HasSubstr("character 16: expected a space or the end of the "
                        "query after '~1'"));
  EXPECT_THAT(ErrorOf("\"a\"~2~3"), HasSubstr("character 5: expected a space"));
  EXPECT_THAT(ErrorOf("\"graph neural\"~x"),
              HasSubstr("character 14: expected a number"));
  EXPECT_THAT(ErrorOf("graph venue:"),
              HasSubstr("character 12: expected a value after 'venue:'"));
  // A group after a field is one value to a filter; it is pointed at.
  EXPECT_THAT(ErrorOf("venue:(ICLR OR NeurIPS)"),
              HasSubstr("character 6: 'venue:' takes one value, not a group: "
                        "write (venue:a OR venue:b)"));
  EXPECT_THAT(ErrorOf("graph year:(2023 OR 2024)"),
              HasSubstr("character 11: 'year:' takes one value"));
  EXPECT_THAT(ErrorOf("graph watermark~2"),
              HasSubstr("character 15: '~N' follows a quoted phrase"));
  EXPECT_THAT(ErrorOf("year:2025..2023"),
              HasSubstr("character 5: year: the range 2025..2023 is reversed"));
}

TEST(QueryParserTest, APastedAbstractThatIsNotSyntaxIsReadAsWords) {
  const std::string pasted =
      "We study two settings: 1) offline reinforcement learning - with "
      "\"pessimism and 2) online learning where the agent explores the "
      "environment OR a simulator, and we show that both reach the bound";
  absl::StatusOr<Query> query = ParseQuery(pasted);
  ASSERT_THAT(query, IsOk());

  EXPECT_TRUE(query->read_as_text);
  EXPECT_GE(Top(query).size(), 15u);
  for (const QueryNode& node : Top(query)) {
    EXPECT_FALSE(node.excluded);
    EXPECT_NE(node.kind, Kind::kOr);
  }
  // A short malformed query is still an error.
  EXPECT_THAT(ErrorOf("settings: 1) offline"), HasSubstr("character 11"));
}

TEST(QueryParserTest, ParenthesesInsideAWordAreText) {
  absl::StatusOr<Query> query = ParseQuery("f(x) eta");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 2u);
  EXPECT_THAT(Top(query)[0].terms, ElementsAre("f", "x"));
}

// Pasted LaTeX opens a '(' in one word and closes it in a later one: the
// ')' is text, not an unbalanced group. A ')' that nothing glued opened
// still is.
TEST(QueryParserTest, ParenthesesAcrossWordsAreText) {
  absl::StatusOr<Query> query =
      ParseQuery("$\\eta(x)=\\mathbb{P}(Y=1\\mid X=x)$");
  ASSERT_THAT(query, IsOk());
  ASSERT_EQ(Top(query).size(), 2u);
  EXPECT_THAT(Top(query)[1].terms, ElementsAre("x", "x"));
  EXPECT_THAT(ParseQuery("finite $O(\\mathrm{Poly}(d,H)/(\\varepsilon^2 "
                         "N^{E}))$ in linear"),
              IsOk());
  // A group closed after a glued '(' closes: the ')' is the group's.
  query = ParseQuery("(graph f(x) neural) OR tree");
  ASSERT_THAT(query, IsOk());
  EXPECT_EQ(query->root.children.size(), 1u);
  EXPECT_EQ(query->root.children[0].kind, Kind::kOr);
  EXPECT_THAT(ErrorOf("graph neural)"),
              HasSubstr("character 12: unbalanced parenthesis"));
  EXPECT_THAT(ErrorOf("f(x) neural))"),
              HasSubstr("character 11: unbalanced parenthesis"));
}

TEST(QueryParserTest, RepeatedClausesCountOnce) {
  absl::StatusOr<Query> query = ParseQuery("x x X \"a b\" \"a b\" -x");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 3u);
  EXPECT_TRUE(Top(query)[2].excluded);
}

TEST(QueryParserTest, OnlyTheFirstLeavesCount) {
  std::string text;
  for (size_t i = 0; i < kMaxClauses + 10; ++i) {
    text += "w" + std::to_string(i) + " ";
  }
  absl::StatusOr<Query> query = ParseQuery(text);

  ASSERT_THAT(query, IsOk());
  EXPECT_EQ(Top(query).size(), kMaxClauses);
}

// A word of letters only (digits would split it): "wa", "wb", ..., "wba".
std::string LetterWord(size_t i) {
  std::string word;
  do {
    word.insert(word.begin(), static_cast<char>('a' + i % 26));
    i /= 26;
  } while (i > 0);
  return "w" + word;
}

TEST(QueryParserTest, LongPhraseIsOnePhraseUpToTheLimit) {
  // A quoted sentence of more words than kPastedWords is still a phrase.
  std::string phrase = "\"";
  for (size_t i = 0; i < 40; ++i) phrase += LetterWord(i) + " ";
  phrase += "\"";
  absl::StatusOr<Query> query = ParseQuery(phrase);
  ASSERT_THAT(query, IsOk());
  EXPECT_FALSE(query->read_as_text);
  ASSERT_EQ(Top(query).size(), 1u);
  EXPECT_EQ(Top(query)[0].kind, Kind::kPhrase);
  EXPECT_EQ(Top(query)[0].terms.size(), 40u);
}

TEST(QueryParserTest, OverlongPhraseIsInvalidNeverReadAsWords) {
  // Few typed words, many terms: "x-x-x-...".
  std::string dashed;
  for (size_t i = 0; i <= kMaxPhraseTerms; ++i) dashed += "x-";
  EXPECT_THAT(ErrorOf("\"" + dashed + "\""),
              HasSubstr("character 0: phrase of 257 words is longer than "
                        "the limit of 256"));
  // As many typed words, well-formed: still an error (read as words it
  // would match any paper holding one of them), with its own reason.
  std::string phrase = "see \"";
  for (size_t i = 0; i <= kMaxPhraseTerms; ++i) phrase += LetterWord(i) + " ";
  phrase += "\"";
  absl::StatusOr<Query> query = ParseQuery(phrase);
  ASSERT_FALSE(query.ok());
  EXPECT_EQ(query.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(query.status().message(),
            "query: character 4: phrase of 257 words is longer than the "
            "limit of 256");
  EXPECT_EQ(ReasonOf(query.status()), "PHRASE_TOO_LONG");
}

TEST(QueryParserTest, UnquotedWordOverThePhraseLimitIsPhrasesOfItsRuns) {
  // A pasted hyphen chain of 280 parts: two phrases, both required (the
  // query's conjunction takes them in).
  std::string chain;
  for (int i = 0; i < 70; ++i) chain += "A-C-G-T-";
  absl::StatusOr<Query> query = ParseQuery("motif " + chain + " binding");
  ASSERT_THAT(query, IsOk());
  EXPECT_FALSE(query->read_as_text);
  ASSERT_EQ(Top(query).size(), 4u);
  EXPECT_THAT(Top(query)[0].terms, ElementsAre("motif"));
  EXPECT_EQ(Top(query)[1].kind, Kind::kPhrase);
  EXPECT_EQ(Top(query)[1].terms.size(), 256u);
  EXPECT_EQ(Top(query)[2].kind, Kind::kPhrase);
  EXPECT_EQ(Top(query)[2].terms.size(), 24u);
  EXPECT_EQ(Top(query)[2].terms[0], "a");
  EXPECT_EQ(Top(query)[2].terms[23], "t");
  EXPECT_THAT(Top(query)[3].terms, ElementsAre("bind"));
  // Each phrase alone, not holding copies of the ones before it.
  for (const QueryNode& node : Top(query)) EXPECT_TRUE(node.children.empty());
}

TEST(QueryParserTest, DeepNestingIsInvalid) {
  const std::string deep =
      std::string(kMaxDepth + 1, '(') + "x" + std::string(kMaxDepth + 1, ')');
  EXPECT_THAT(ErrorOf(deep), HasSubstr("nested deeper"));
  const std::string ok =
      std::string(kMaxDepth, '(') + "x" + std::string(kMaxDepth, ')');
  EXPECT_THAT(ParseQuery(ok), IsOk());
}

TEST(QueryParserTest, UnicodeSpacesSeparateAndUnicodeMinusExcludes) {
  // NBSP, U+3000 and U+2212 MINUS SIGN.
  absl::StatusOr<Query> query =
      ParseQuery("graph\xC2\xA0neural\xE3\x80\x80\xE2\x88\x92series");
  ASSERT_THAT(query, IsOk());

  ASSERT_EQ(Top(query).size(), 3u);
  EXPECT_EQ(Top(query)[0].kind, Kind::kTerm);
  EXPECT_FALSE(Top(query)[1].excluded);
  EXPECT_TRUE(Top(query)[2].excluded);
  EXPECT_THAT(Top(query)[2].terms, ElementsAre("seri"));
}

// A CJK input method's full-width syntax reads as its ASCII form, German
// and CJK quote marks as quotes; the query's text stays as typed, with
// positions in code points.
TEST(QueryParserTest, FullWidthSyntaxAndOtherQuoteMarksAreSyntax) {
  // （graph ＯＲ network） －series ｙｅａｒ：２０２４
  const std::string typed =
      "\uFF08graph \uFF2F\uFF32 network\uFF09 \uFF0Dseries "
      "\uFF59\uFF45\uFF41\uFF52\uFF1A\uFF12\uFF10\uFF12\uFF14";
  absl::StatusOr<Query> query = ParseQuery(typed);
  ASSERT_THAT(query, IsOk());
  EXPECT_EQ(query->text, typed);
  ASSERT_EQ(Top(query).size(), 3u);
  EXPECT_EQ(Top(query)[0].kind, Kind::kOr);
  EXPECT_EQ(Top(query)[0].position, 0u);
  EXPECT_TRUE(Top(query)[1].excluded);
  EXPECT_THAT(Top(query)[1].terms, ElementsAre("seri"));
  EXPECT_EQ(Top(query)[1].position, 19u);
  EXPECT_EQ(Top(query)[2].kind, Kind::kField);
  EXPECT_EQ(Top(query)[2].field, "year");

  // „leading indicators“ (German), 「leading indicators」 (CJK), and the
  // full-width ＂: each the phrase.
  for (const std::string phrase :
       {"\u201Eleading indicators\u201C", "\u300Cleading indicators\u300D",
        "\uFF02leading indicators\uFF02"}) {
    absl::StatusOr<Query> quoted = ParseQuery(phrase);
    ASSERT_THAT(quoted, IsOk()) << phrase;
    ASSERT_EQ(Top(quoted).size(), 1u) << phrase;
    EXPECT_EQ(Top(quoted)[0].kind, Kind::kPhrase) << phrase;
    EXPECT_THAT(Top(quoted)[0].terms, ElementsAre("lead", "indic")) << phrase;
  }
}

// A name no field has before a number is an identifier pasted whole, read
// as its words; before a letter it is a mistyped field.
TEST(QueryParserTest, APastedIdentifierIsWordsNotAnUnknownField) {
  for (const char* text :
       {"arXiv:2310.06625", "doi:10.48550/arXiv.2310.06625", "ICLR:2024"}) {
    absl::StatusOr<Query> query = ParseQuery(text);
    ASSERT_THAT(query, IsOk()) << text;
    EXPECT_FALSE(query->MatchesNothing()) << text;
    EXPECT_NE(query->root.kind, Kind::kField) << text;
    for (const QueryNode& child : Top(query)) {
      EXPECT_NE(child.kind, Kind::kField) << text;
    }
  }
  EXPECT_THAT(ErrorOf("venu:ICLR"), HasSubstr("unknown field 'venu'"));
  EXPECT_THAT(ErrorOf("year:x2024"), HasSubstr("year: expected"));
}

TEST(QueryParserTest, OnlyStopwordsAndPunctuationMatchNothing) {
  for (const char* text :
       {"", "   ", "the of and", "?!  ...", "-the", "(the)", "the OR a"}) {
    absl::StatusOr<Query> query = ParseQuery(text);
    ASSERT_THAT(query, IsOk()) << text;
    EXPECT_TRUE(query->MatchesNothing()) << text;
  }
}

TEST(QueryParserTest, InvalidUtf8IsInvalidArgument) {
  EXPECT_THAT(ParseQuery("ab\xFF"),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(QueryParserTest, OverlongQueryIsInvalidArgument) {
  EXPECT_THAT(ParseQuery(std::string(kMaxQueryBytes + 1, 'a')),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(QueryParserTest, MatchUnitsSkipExclusionsAndFilters) {
  absl::StatusOr<Query> query =
      ParseQuery("graph \"leading indicators\"~2 -neural venue:ICLR");
  ASSERT_THAT(query, IsOk());

  const std::vector<MatchUnit> units = CollectMatchUnits(query->root);
  ASSERT_EQ(units.size(), 2u);
  EXPECT_THAT(units[0].terms, ElementsAre("graph"));
  EXPECT_THAT(units[1].terms, ElementsAre("lead", "indic"));
  EXPECT_EQ(units[1].slop, 2u);
}

}  // namespace
}  // namespace paperdb::search
