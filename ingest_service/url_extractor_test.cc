#include "ingest_service/url_extractor.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace paperdb::ingest {
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

TEST(IsCodeHostTest, TellsCodeHostsFromProjectPages) {
  EXPECT_TRUE(IsCodeHost("github.com"));
  EXPECT_TRUE(IsCodeHost("gist.github.com"));
  EXPECT_TRUE(IsCodeHost("anonymous.4open.science"));
  EXPECT_FALSE(IsCodeHost("skill-mix.github.io"));
  EXPECT_FALSE(IsCodeHost("notgithub.com"));
  EXPECT_FALSE(IsCodeHost("aka.ms"));
}

}  // namespace
}  // namespace paperdb::ingest
