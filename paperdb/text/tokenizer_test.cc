#include "paperdb/text/tokenizer.h"

#include <string>
#include <vector>

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
  // U+216B ROMAN NUMERAL TWELVE. (Found by tests/fuzz/query_parser_fuzzer.)
  EXPECT_THAT(
      Words("x\xC2\xB2 CO\xE2\x82\x82 \xC2\xBD \xE2\x85\xAB"),
      ElementsAre("x\xC2\xB2", "CO\xE2\x82\x82", "\xC2\xBD", "\xE2\x85\xAB"));
}

TEST(TokenizerTest, ReportsByteOffsetsOfMultibyteText) {
  const std::vector<TokenSpan> tokens = Tokenize("ICLR 2024 论文列表");

  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_EQ(tokens[2].start_byte, 10u);
  EXPECT_EQ(tokens[2].end_byte, 22u);
}

TEST(TokenizerTest, TreatsInvalidBytesAsSeparators) {
  EXPECT_THAT(Words("ab\xFF"
                    "cd"),
              ElementsAre("ab", "cd"));
}

}  // namespace
}  // namespace paperdb::text
