#include "paperdb/search/highlighter.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/search/query_parser.h"

namespace paperdb::search {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<ByteSpan> HighlightQuery(absl::string_view text,
                                     absl::string_view query) {
  return Highlight(text, CollectMatchUnits(ParseQuery(query)->root));
}

TEST(HighlighterTest, MarksEveryOccurrenceOfATermInAnyInflection) {
  EXPECT_THAT(HighlightQuery("Delays matter; a delay.", "delays"),
              ElementsAre(ByteSpan{0, 6}, ByteSpan{17, 22}));
}

TEST(HighlighterTest, PhraseIsOneSpanAndLooseWordsAreNotMarked) {
  //                          0         1         2         3         4
  //                          0123456789012345678901234567890123456789012345
  const std::string text = "indicators lead; leading indicators are used";

  EXPECT_THAT(HighlightQuery(text, "\"leading indicators\""),
              ElementsAre(ByteSpan{17, 35}));
}

TEST(HighlighterTest, HyphenatedWordIsMarkedOnlyAsAWhole) {
  EXPECT_THAT(HighlightQuery("OPT-1 beats OPT and 1", "OPT-1"),
              ElementsAre(ByteSpan{0, 5}));
}

TEST(HighlighterTest, GluedQueryMarksTheWholeHyphenatedCompound) {
  //                   0         1         2
  //                   0123456789012345678901234
  const char* text = "SKILL-MIX and a skill mix";

  EXPECT_THAT(HighlightQuery(text, "SKILLMIX"), ElementsAre(ByteSpan{0, 9}));
  EXPECT_THAT(HighlightQuery(text, "skill-mix"),
              ElementsAre(ByteSpan{0, 9}, ByteSpan{16, 25}));
}

TEST(HighlighterTest, ExcludedClausesAreNotMarked) {
  EXPECT_THAT(HighlightQuery("graph neural", "graph -neural"),
              ElementsAre(ByteSpan{0, 5}));
}

TEST(SnippetTest, ShortTextIsWholeAndUntruncated) {
  const SnippetWindow snippet = MakeSnippet("a short text", {{2, 7}}, 100);

  EXPECT_EQ(snippet.range, (ByteSpan{0, 12}));
  EXPECT_THAT(snippet.highlights, ElementsAre(ByteSpan{2, 7}));
  EXPECT_FALSE(snippet.truncated_start);
  EXPECT_FALSE(snippet.truncated_end);
}

TEST(SnippetTest, WindowSurroundsTheHighlightAtWordBoundaries) {
  std::string text;
  for (int i = 0; i < 50; ++i) text += "word ";
  const uint32_t target = static_cast<uint32_t>(text.size());
  text += "target";
  for (int i = 0; i < 50; ++i) text += " word";

  const SnippetWindow snippet = MakeSnippet(text, {{target, target + 6}}, 60);

  EXPECT_TRUE(snippet.truncated_start);
  EXPECT_TRUE(snippet.truncated_end);
  EXPECT_LE(snippet.range.end - snippet.range.start, 60u);
  ASSERT_EQ(snippet.highlights.size(), 1u);
  EXPECT_EQ(text.substr(snippet.range.start + snippet.highlights[0].start, 6),
            "target");
  EXPECT_EQ(text.substr(snippet.range.start, 4), "word");  // Starts on a word.
  EXPECT_EQ(text.substr(snippet.range.end - 4, 4), "word");
}

TEST(SnippetTest, PrefersAWindowWithMoreDistinctClauses) {
  std::string text = "alpha alpha alpha";
  for (int i = 0; i < 40; ++i) text += " filler";
  const uint32_t beta = static_cast<uint32_t>(text.size()) + 1;
  text += " alpha beta";
  for (int i = 0; i < 40; ++i) text += " filler";
  const std::vector<ByteSpan> highlights =
      Highlight(text, CollectMatchUnits(ParseQuery("alpha beta")->root));
  ASSERT_EQ(highlights.size(), 5u);

  const SnippetWindow snippet = MakeSnippet(text, highlights, 40);

  EXPECT_LE(snippet.range.start, beta);
  EXPECT_GE(snippet.range.end, beta + 4);
}

TEST(SnippetTest, PhraseOutweighsASingleWord) {
  std::string text = "forecasting";
  for (int i = 0; i < 40; ++i) text += " filler";
  const uint32_t phrase = static_cast<uint32_t>(text.size()) + 1;
  text += " leading indicators";
  for (int i = 0; i < 40; ++i) text += " filler";
  const std::vector<ByteSpan> highlights = Highlight(
      text, CollectMatchUnits(
                ParseQuery("forecasting \"leading indicators\"")->root));

  const SnippetWindow snippet = MakeSnippet(text, highlights, 40);

  EXPECT_LE(snippet.range.start, phrase);
  EXPECT_GE(snippet.range.end, phrase + 18);
}

TEST(SnippetTest, NeverCutsInsideAMultibyteCharacter) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "\xE8\xAE\xBA";  // 论, no spaces.

  const SnippetWindow snippet = MakeSnippet(text, {}, 10);

  EXPECT_EQ(snippet.range.start, 0u);
  EXPECT_EQ(snippet.range.end, 30u);
  EXPECT_THAT(snippet.highlights, IsEmpty());
}

}  // namespace
}  // namespace paperdb::search
