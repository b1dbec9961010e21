#include "paperdb/text/analyzer.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace paperdb::text {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> Terms(absl::string_view text) {
  std::vector<std::string> terms;
  for (const AnalyzedToken& t : ThreadLocalAnalyzer().Analyze(text)) {
    terms.push_back(t.term);
  }
  return terms;
}

TEST(AnalyzerTest, FoldsCaseAndStemsEnglish) {
  EXPECT_THAT(Terms("Spiking Neural Networks delays"),
              ElementsAre("spike", "neural", "network", "delay"));
}

TEST(AnalyzerTest, TypographicAndAsciiApostrophesGiveTheSameTerm) {
  EXPECT_EQ(Terms("model\xE2\x80\x99s"), Terms("model's"));
  EXPECT_THAT(Terms("model's"), ElementsAre("model"));
}

TEST(AnalyzerTest, NfkcFoldsCompatibilityCharacters) {
  // U+FB01 LATIN SMALL LIGATURE FI and fullwidth letters.
  EXPECT_THAT(Terms("\xEF\xAC\x81nd \xEF\xBC\xA7\xEF\xBC\xB0\xEF\xBC\xB5"),
              ElementsAre("find", "gpu"));
}

TEST(AnalyzerTest, SuperscriptAndSubscriptDigitsMeetPlainOnes) {
  // "CO₂" and "x²" fold to the terms of "CO2" and "x2".
  EXPECT_THAT(Terms("CO\xE2\x82\x82 x\xC2\xB2"), ElementsAre("co2", "x2"));
  EXPECT_EQ(Terms("CO\xE2\x82\x82 x\xC2\xB2"), Terms("CO2 x2"));
}

TEST(AnalyzerTest, SoftHyphenDoesNotSplitAWord) {
  EXPECT_THAT(Terms("dif\xC2\xAD"
                    "fusion"),
              ElementsAre("diffus"));
}

TEST(AnalyzerTest, OverlongTokensAreNotIndexedButKeepTheirPosition) {
  const std::vector<AnalyzedToken> tokens =
      ThreadLocalAnalyzer().Analyze("a " + std::string(300, 'x') + " b");

  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[1].term, "b");
  EXPECT_EQ(tokens[1].position, 2u);
}

TEST(AnalyzerTest, AcronymPluralsMeetTheirSingular) {
  EXPECT_THAT(Terms("SNNs LLMs GPUs RNN"),
              ElementsAre("snn", "llm", "gpu", "rnn"));
  EXPECT_THAT(Terms("CEOs ASs Ts"), ElementsAre("ceo", "as", "ts"));
  EXPECT_THAT(Terms("llms snns CNNS mlps"),
              ElementsAre("llm", "snn", "cnn", "mlp"));
  EXPECT_THAT(Terms("bus thus this"), ElementsAre("bus", "thus", "this"));
}

TEST(AnalyzerTest, LatexCommandsAreMarkupButGreekLettersAreWords) {
  EXPECT_THAT(Terms("$2.73\\times$ \\textbf{Fast} $\\eta(x)$ \\Omega"),
              ElementsAre("2.73", "fast", "eta", "x", "omega"));
}

TEST(AnalyzerTest, MarksStopwordsAndKeepsTheirPositions) {
  const std::vector<AnalyzedToken> tokens =
      ThreadLocalAnalyzer().Analyze("leading the indicators");

  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_FALSE(tokens[0].stopword);
  EXPECT_TRUE(tokens[1].stopword);
  EXPECT_EQ(tokens[2].term, "indic");
  EXPECT_EQ(tokens[2].position, 2u);
  EXPECT_EQ(tokens[2].start_byte, 12u);
}

}  // namespace
}  // namespace paperdb::text
