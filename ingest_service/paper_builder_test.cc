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
  ASSERT_EQ(paper.code_urls_size(), 1);
  EXPECT_EQ(paper.code_urls(0).host(), "github.com");
  EXPECT_EQ(paper.word_count(), 5u);
  EXPECT_EQ(paper.content_hash().size(), 32u);
}

}  // namespace
}  // namespace paperdb::ingest
