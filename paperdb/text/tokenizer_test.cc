#include "paperdb/text/tokenizer.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace paperdb::text {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> Words(absl::string_view text) {
  std::vector<std::string> words;
  for (const TokenSpan& t : Tokenize(text)) {
    words.emplace_back(text.substr(t.start_byte, t.end_byte - t.start_byte));
  }
  return words;
}

TEST(TokenizerTest, SplitsOnSpacesPunctuationAndHyphens) {
  EXPECT_THAT(Words("ResNet-18 on ImageNet, (RS2)."),
              ElementsAre("ResNet", "18", "on", "ImageNet", "RS2"));
}

TEST(TokenizerTest, KeepsApostrophesBetweenLettersAndDecimalPoints) {
  EXPECT_THAT(
      Words("the model\xE2\x80\x99s 5.4% and 10\\% 'quoted'"),
      ElementsAre("the", "model\xE2\x80\x99s", "5.4", "and", "10", "quoted"));
}

TEST(TokenizerTest, DropsLatexMarkupButKeepsItsWords) {
  EXPECT_THAT(Words("$\\eta(x)$ and **STanHop-Net**"),
              ElementsAre("eta", "x", "and", "STanHop", "Net"));
}

TEST(TokenizerTest, KeepsCombiningMarksInsideTheToken) {
  // "k̂": 'k' followed by U+0302 COMBINING CIRCUMFLEX ACCENT.
  EXPECT_THAT(Words("top-k\xCC\x82 ok"), ElementsAre("top", "k\xCC\x82", "ok"));
}

TEST(TokenizerTest, AllNumbersAreWordCharactersNotJustDecimalDigits) {
  // General categories No and Nl, as tokenizer.h says (N*): U+00B2
  // SUPERSCRIPT TWO, U+2082 SUBSCRIPT TWO, U+00BD VULGAR FRACTION ONE HALF,
  // U+216B ROMAN NUMERAL TWELVE.
  EXPECT_THAT(
      Words("x\xC2\xB2 CO\xE2\x82\x82 \xC2\xBD \xE2\x85\xAB"),
      ElementsAre("x\xC2\xB2", "CO\xE2\x82\x82", "\xC2\xBD", "\xE2\x85\xAB"));
}

TEST(TokenizerTest, ReportsByteOffsetsOfMultibyteText) {
  const std::vector<TokenSpan> tokens = Tokenize("ICLR 2024 论文列表");

  // Han characters are one token each: 论 文 列 表, 3 bytes apiece.
  ASSERT_EQ(tokens.size(), 6u);
  EXPECT_EQ(tokens[2].start_byte, 10u);
  EXPECT_EQ(tokens[2].end_byte, 13u);
  EXPECT_EQ(tokens[5].start_byte, 19u);
  EXPECT_EQ(tokens[5].end_byte, 22u);
}

TEST(TokenizerTest, HanAndKanaAreOneTokenPerCharacterHangulIsNot) {
  EXPECT_THAT(Words("用GPT模型"), ElementsAre("用", "GPT", "模", "型"));
  EXPECT_THAT(Words("ニューラル"), ElementsAre("ニ", "ュ", "ー", "ラ", "ル"));
  EXPECT_THAT(Words("신경망 모델"), ElementsAre("신경망", "모델"));
}

TEST(TokenizerTest, TreatsInvalidBytesAsSeparators) {
  EXPECT_THAT(Words("ab\xFF"
                    "cd"),
              ElementsAre("ab", "cd"));
}

// Each token as its text, with a leading "-" when it is `after_hyphen`.
std::vector<std::string> WordsAndJoins(absl::string_view text) {
  std::vector<std::string> words;
  for (const TokenSpan& t : Tokenize(text)) {
    words.push_back(
        absl::StrCat(t.after_hyphen ? "-" : "",
                     text.substr(t.start_byte, t.end_byte - t.start_byte)));
  }
  return words;
}

TEST(TokenizerTest, MarksTokensJoinedByOneHyphen) {
  EXPECT_THAT(
      WordsAndJoins("SKILL-MIX Proof-Pile-2 **STanHop-Net**"),
      ElementsAre("SKILL", "-MIX", "Proof", "-Pile", "-2", "STanHop", "-Net"));
}

TEST(TokenizerTest, UnicodeHyphensJoinButDashesDoNot) {
  // U+2010 HYPHEN, U+2011 NON-BREAKING HYPHEN; then U+2012 FIGURE DASH,
  // U+2013 EN DASH, U+2212 MINUS SIGN.
  EXPECT_THAT(WordsAndJoins("a\xE2\x80\x90"
                            "b c\xE2\x80\x91"
                            "d e\xE2\x80\x92"
                            "f g\xE2\x80\x93"
                            "h i\xE2\x88\x92"
                            "j"),
              ElementsAre("a", "-b", "c", "-d", "e", "f", "g", "h", "i", "j"));
}

TEST(TokenizerTest, SpacedDoubledOrLeadingHyphensDoNotJoin) {
  EXPECT_THAT(WordsAndJoins("-a b - c d--e f -g h-\xFF"
                            "i 'j'-k k=5"),
              ElementsAre("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k",
                          "k", "5"));
}

TEST(TokenizerTest, JoinedTokenAfterAMultibyteCharacterHasByteOffsets) {
  // "naïve-Bayes": ï is 2 bytes.
  const std::vector<TokenSpan> tokens = Tokenize("na\xC3\xAFve-Bayes");

  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0].end_byte, 6u);
  EXPECT_FALSE(tokens[0].after_hyphen);
  EXPECT_EQ(tokens[1].start_byte, 7u);
  EXPECT_EQ(tokens[1].end_byte, 12u);
  EXPECT_TRUE(tokens[1].after_hyphen);
}

TEST(TokenizerTest, EmphasisInsideAWordDoesNotSplitIt) {
  // STanHop's abstract spells out its name so; a bold word stays apart from
  // its neighbours, and asterisks before a digit or a space still separate.
  const std::string text = "**S**parse **Hop**field *x*y **bold** a**2 b* c";
  std::vector<std::string> words;
  std::vector<bool> marked;
  for (const TokenSpan& t : Tokenize(text)) {
    words.push_back(text.substr(t.start_byte, t.end_byte - t.start_byte));
    marked.push_back(t.inner_emphasis);
  }
  EXPECT_THAT(words, ElementsAre("S**parse", "Hop**field", "x*y", "bold", "a",
                                 "2", "b", "c"));
  EXPECT_THAT(marked,
              ElementsAre(true, true, true, false, false, false, false, false));
  // At most three asterisks: four are not emphasis.
  EXPECT_EQ(Tokenize("a****b").size(), 2u);
}

}  // namespace
}  // namespace paperdb::text
