#include "ingest_service/paper_builder.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace paperdb::ingest {
namespace {

TEST(PaperIdTest, IsStableAcrossCaseAndWhitespace) {
  const std::string id = PaperId("ICLR", 2024, "We study  RL.");

  EXPECT_EQ(id, PaperId("ICLR", 2024, "we study\nrl."));
  EXPECT_NE(id, PaperId("ICLR", 2023, "We study RL."));
  EXPECT_EQ(id.substr(0, 9), "iclr2024-");
  EXPECT_EQ(id.size(), 25u);
}

// Ids are stored, so they must never change: these are the ids the first
// release's code gave (an ASCII text with a tab and a double space, and one
// with non-ASCII letters, a dash and a tab).
TEST(PaperIdTest, KeepsTheIdsOfEarlierReleases) {
  EXPECT_EQ(PaperId("ICLR", 2024, "We\tstudy  RL with ResNet-18."),
            "iclr2024-a035dc99174ab7e7");
  EXPECT_EQ(
      PaperId("ICLR", 2024, "\u00dcber  Stra\u00dfe TEST \u2014 caf\u00e9\tX"),
      "iclr2024-23fff4d453aa7016");
}

// Venues alike in their ASCII letters and digits are still two venues: the
// same abstract under each is two papers. Case and NFKC width are one venue.
TEST(PaperIdTest, VenuesAlikeInLettersAndDigitsGiveDifferentIds) {
  const std::string plain = PaperId("NeurIPS", 2024, "We study RL.");
  const std::string spaced = PaperId("Neur IPS", 2024, "We study RL.");
  EXPECT_EQ(plain.substr(0, 12), "neurips2024-");
  EXPECT_EQ(spaced.substr(0, 12), "neurips2024-");
  EXPECT_NE(spaced, plain);
  EXPECT_NE(PaperId("# ICLR", 2024, "x"), PaperId("ICLR", 2024, "x"));
  EXPECT_NE(PaperId("ICLR-W", 2024, "x"), PaperId("ICLRW", 2024, "x"));
  EXPECT_NE(PaperId("ICLR-W", 2024, "x"), PaperId("ICLR W", 2024, "x"));
  const std::string cjk = PaperId("\u8ba1\u7b97\u673a\u5b66\u62a5", 2024, "x");
  EXPECT_EQ(cjk.substr(0, 5), "2024-");
  EXPECT_NE(cjk, PaperId("\u8f6f\u4ef6\u5b66\u62a5", 2024, "x"));
  EXPECT_EQ(spaced, PaperId("neur ips", 2024, "we study rl."));
  // A venue folding to letters and digits is that venue.
  EXPECT_EQ(PaperId("\uff29\uff23\uff2c\uff32", 2024, "We study RL."),
            PaperId("ICLR", 2024, "We study RL."));
  EXPECT_EQ(PaperId("Stra\u00dfe", 2024, "x"), PaperId("STRASSE", 2024, "x"));
  EXPECT_EQ(spaced,
            PaperId("\uff2e\uff45\uff55\uff52 IPS", 2024, "We study RL."));
}

TEST(BuildPaperTest, FillsSourceUrlsCountsAndHash) {
  ParsedAbstract abstract{
      .text = "Code at https://github.com/a/b. Page https://a.github.io",
      .paragraph_ordinal = 2,
      .line_number = 5,
      .byte_offset = 100,
      .venue = "ICLR",
      .year = 2024};

  const v1::Paper paper = BuildPaper(abstract, "list.txt");

  EXPECT_EQ(paper.name(), "papers/" + paper.id());
  EXPECT_EQ(paper.venue(), "ICLR");
  EXPECT_EQ(paper.year(), 2024);
  EXPECT_EQ(paper.sources(0).file_name(), "list.txt");
  EXPECT_EQ(paper.sources(0).byte_offset(), 100u);
  EXPECT_THAT(paper.urls(), ::testing::ElementsAre("https://github.com/a/b",
                                                   "https://a.github.io"));
  ASSERT_EQ(paper.code_urls_size(), 2);
  EXPECT_EQ(paper.code_urls(0).host(), "github.com");
  EXPECT_EQ(paper.code_urls(0).repository(), "a/b");
  EXPECT_EQ(paper.code_urls(0).kind(), v1::CODE_URL_KIND_REPOSITORY);
  EXPECT_EQ(paper.code_urls(1).host(), "a.github.io");
  EXPECT_EQ(paper.code_urls(1).kind(), v1::CODE_URL_KIND_PROJECT_PAGE);
  EXPECT_TRUE(paper.has_code());
  EXPECT_EQ(paper.word_count(), 5u);
  EXPECT_EQ(paper.content_hash().size(), 32u);
}

// data/000_286d7a53da2fb062.txt, paragraph 2.
constexpr absl::string_view kLiftAbstract =
    "Recently, channel-independent methods have achieved "
    "state-of-the-art performance in multivariate time series (MTS) "
    "forecasting. Despite reducing overfitting risks, these methods "
    "miss potential opportunities in utilizing channel dependence for "
    "accurate predictions. We argue that there exist locally stationary "
    "lead-lag relationships between variates, i.e., some lagged "
    "variates may follow the leading indicators within a short time "
    "period. Exploiting such channel dependence is beneficial since "
    "leading indicators offer advance information that can be used to "
    "reduce the forecasting difficulty of the lagged variates. In this "
    "paper, we propose a new method named LIFT that first efficiently "
    "estimates leading indicators and their leading steps at each time "
    "step and then judiciously allows the lagged variates to utilize "
    "the advance information from leading indicators. LIFT plays as a "
    "plugin that can be seamlessly collaborated with arbitrary time "
    "series forecasting methods. Extensive experiments on six "
    "real-world datasets demonstrate that LIFT improves the "
    "state-of-the-art methods by 5.4% in average forecasting "
    "performance. Our code is available at "
    "https://github.com/SJTU-Quant/LIFT.";

ParsedAbstract Abstract(absl::string_view text) {
  return ParsedAbstract{.text = std::string(text),
                        .paragraph_ordinal = 1,
                        .line_number = 3,
                        .byte_offset = 0,
                        .venue = "ICLR",
                        .year = 2024};
}

TEST(BuildPaperTest, ExtractsMethodCodeAndAcronymsOfTheLiftAbstract) {
  const v1::Paper paper = BuildPaper(Abstract(kLiftAbstract), "000.txt");

  ASSERT_EQ(paper.code_urls_size(), 1);
  EXPECT_EQ(paper.code_urls(0).url(), "https://github.com/SJTU-Quant/LIFT");
  EXPECT_EQ(paper.code_urls(0).repository(), "SJTU-Quant/LIFT");
  EXPECT_EQ(paper.code_urls(0).kind(), v1::CODE_URL_KIND_REPOSITORY);
  EXPECT_TRUE(paper.has_code());
  ASSERT_EQ(paper.methods_size(), 1);
  EXPECT_EQ(paper.methods(0).name(), "LIFT");
  EXPECT_EQ(paper.methods(0).span().start_byte(), 663u);
  EXPECT_EQ(paper.methods(0).span().end_byte(), 667u);
  ASSERT_EQ(paper.acronyms_size(), 1);
  const v1::AcronymDefinition& mts = paper.acronyms(0);
  EXPECT_EQ(mts.acronym(), "MTS");
  EXPECT_EQ(mts.expansion(), "multivariate time series");
  EXPECT_EQ(mts.acronym_span().start_byte(), 110u);
  EXPECT_EQ(mts.acronym_span().end_byte(), 113u);
  EXPECT_EQ(mts.expansion_span().start_byte(), 84u);
  EXPECT_EQ(mts.expansion_span().end_byte(), 108u);
  EXPECT_EQ(mts.expansion_span().end_code_point(), 108u);  // All ASCII.
  EXPECT_EQ(mts.expansion_span().end_utf16(), 108u);
  EXPECT_EQ(paper.datasets_size(), 0);
}

TEST(BuildPaperTest, SpansCountBytesCodePointsAndUtf16Units) {
  // "Ü", "ï", the quotes: 2 or 3 bytes, 1 unit; the emoji: 4 bytes, 2 units.
  const v1::Paper paper = BuildPaper(
      Abstract("Ünïcode “x” 😀 uses reinforcement learning (RL); we propose "
               "SEA: a method on ImageNet."),
      "x.txt");

  ASSERT_EQ(paper.acronyms_size(), 1);
  const v1::TextSpan& rl = paper.acronyms(0).acronym_span();
  EXPECT_EQ(rl.start_byte(), 52u);
  EXPECT_EQ(rl.end_byte(), 54u);
  EXPECT_EQ(rl.start_code_point(), 43u);
  EXPECT_EQ(rl.end_code_point(), 45u);
  EXPECT_EQ(rl.start_utf16(), 44u);
  EXPECT_EQ(rl.end_utf16(), 46u);
  const v1::TextSpan& expansion = paper.acronyms(0).expansion_span();
  EXPECT_EQ(expansion.start_byte(), 28u);
  EXPECT_EQ(expansion.start_code_point(), 19u);
  EXPECT_EQ(expansion.start_utf16(), 20u);
  ASSERT_EQ(paper.methods_size(), 1);
  EXPECT_EQ(paper.methods(0).name(), "SEA");
  EXPECT_EQ(paper.methods(0).span().start_byte(), 68u);
  EXPECT_EQ(paper.methods(0).span().start_code_point(), 59u);
  EXPECT_EQ(paper.methods(0).span().start_utf16(), 60u);
  EXPECT_EQ(paper.methods(0).span().end_utf16(), 63u);
  ASSERT_EQ(paper.datasets_size(), 1);
  EXPECT_EQ(paper.datasets(0).name(), "ImageNet");
  EXPECT_FALSE(paper.has_code());
}

TEST(BuildPaperTest, AnonymousReviewLinkCountsAsCodeAndOtherLinksDoNot) {
  const v1::Paper paper =
      BuildPaper(Abstract("See https://aka.ms/x and "
                          "https://anonymous.4open.science/r/srl-1E45/."),
                 "x.txt");

  EXPECT_EQ(paper.urls_size(), 2);
  ASSERT_EQ(paper.code_urls_size(), 1);
  EXPECT_EQ(paper.code_urls(0).kind(), v1::CODE_URL_KIND_ANONYMOUS_REVIEW);
  EXPECT_EQ(paper.code_urls(0).repository(), "");
  EXPECT_TRUE(paper.has_code());
}

TEST(BuildPaperTest, ProjectPageAloneIsNotCode) {
  const v1::Paper paper =
      BuildPaper(Abstract("Page: https://maincold2.github.io/cam/."), "x.txt");

  ASSERT_EQ(paper.code_urls_size(), 1);
  EXPECT_EQ(paper.code_urls(0).kind(), v1::CODE_URL_KIND_PROJECT_PAGE);
  EXPECT_FALSE(paper.has_code());
}

}  // namespace
}  // namespace paperdb::ingest
