#include "paperdb/extract/urls.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace paperdb::extract {
namespace {

using ::testing::ElementsAre;

TEST(ExtractUrlsTest, TrimsTrailingPunctuationAndUnmatchedParens) {
  EXPECT_THAT(
      ExtractUrls("Code: https://github.com/SJTU-Quant/LIFT. And "
                  "(see https://github.com/godatta/Ultra-Low-Latency-SNN)."),
      ElementsAre("https://github.com/SJTU-Quant/LIFT",
                  "https://github.com/godatta/Ultra-Low-Latency-SNN"));
}

TEST(ExtractUrlsTest, MarkdownLinkGivesOneUrl) {
  EXPECT_THAT(
      ExtractUrls(
          "[https://skill-mix.github.io](https://skill-mix.github.io)."),
      ElementsAre("https://skill-mix.github.io"));
}

TEST(ExtractUrlsTest, KeepsBalancedParenthesesAndTrailingSlash) {
  EXPECT_THAT(ExtractUrls("https://en.wikipedia.org/wiki/Foo_(bar) and "
                          "https://anonymous.4open.science/r/srl-1E45/."),
              ElementsAre("https://en.wikipedia.org/wiki/Foo_(bar)",
                          "https://anonymous.4open.science/r/srl-1E45/"));
}

TEST(ExtractUrlsTest, IgnoresBareSchemesAndWordsStartingWithHttp) {
  EXPECT_THAT(ExtractUrls("httpx https:// http://x.org"),
              ElementsAre("http://x.org"));
}

TEST(UrlHostTest, LowerCasesAndDropsPortAndUserinfo) {
  EXPECT_EQ(UrlHost("https://user@GitHub.com:443/a/b"), "github.com");
  EXPECT_EQ(UrlHost("no scheme"), "");
}

TEST(FindUrlsTest, GivesByteSpansWithRepeats) {
  const absl::string_view text = "é https://x.org/a, and https://x.org/a.";

  EXPECT_THAT(FindUrls(text), ElementsAre(Span{3, 18}, Span{24, 39}));
}

}  // namespace
}  // namespace paperdb::extract
