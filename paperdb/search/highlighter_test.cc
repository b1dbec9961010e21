#include "paperdb/search/highlighter.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/index/token_spans.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/text/analyzer.h"

namespace paperdb::search {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// HighlightAt() as a search calls it: the stored spans of `text`'s tokens
// and each term's positions, as the postings hold them.
std::vector<ByteSpan> HighlightStored(absl::string_view text,
                                      const std::vector<MatchUnit>& units) {
  const std::vector<text::AnalyzedToken> tokens =
      text::ThreadLocalAnalyzer().Analyze(text);
  absl::flat_hash_map<std::string, std::vector<uint32_t>> positions;
  for (const text::AnalyzedToken& token : tokens) {
    positions[token.term].push_back(token.position);
  }
  const absl::StatusOr<index::TokenSpans> spans = index::TokenSpans::Decode(
      index::EncodeTokenSpans(tokens), static_cast<uint32_t>(text.size()));
  EXPECT_TRUE(spans.ok()) << spans.status();
  if (!spans.ok()) return {};
  return HighlightAt(*spans, units, positions);
}

// Spans with their clauses, to compare the two ways of highlighting.
std::vector<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> Full(
    const std::vector<ByteSpan>& spans) {
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> out;
  for (const ByteSpan& s : spans) {
    out.emplace_back(s.start, s.end, s.clause, s.weight);
  }
  return out;
}

// Highlight() of `query` in `text`; every test also checks that
// HighlightAt() from stored spans finds exactly the same spans.
std::vector<ByteSpan> HighlightQuery(absl::string_view text,
                                     absl::string_view query) {
  const std::vector<MatchUnit> units =
      CollectMatchUnits(ParseQuery(query)->root);
  std::vector<ByteSpan> analysed = Highlight(text, units);
  EXPECT_EQ(Full(HighlightStored(text, units)), Full(analysed))
      << "query: " << query << "\ntext: " << text;
  return analysed;
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

TEST(HighlighterTest, SloppyPhraseMarksEachPlaceOfARepeatedWord) {
  //                          0         1
  //                          01234567890123456789
  EXPECT_THAT(HighlightQuery("echo golf echo hotel", "\"echo echo\"~2"),
              ElementsAre(ByteSpan{0, 4}, ByteSpan{10, 14}));
  // The word once: the search does not match it, and nothing is marked.
  EXPECT_THAT(HighlightQuery("echo golf hotel", "\"echo echo\"~2"), IsEmpty());
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

TEST(SnippetTest, AHighlightLongerThanTheWindowIsShownWhole) {
  const std::string text = "The agent learns by reinforcement from rewards.";
  const uint32_t at = static_cast<uint32_t>(text.find("reinforcement"));

  const SnippetWindow snippet = MakeSnippet(text, {{at, at + 13}}, 5);

  EXPECT_EQ(snippet.range, (ByteSpan{at, at + 13}));  // "reinforcement"
  EXPECT_THAT(snippet.highlights, ElementsAre(ByteSpan{0, 13}));
  EXPECT_TRUE(snippet.truncated_start);
  EXPECT_TRUE(snippet.truncated_end);
}

TEST(SnippetTest, APhraseCutByTheWindowWidensItToTheWordsEnd) {
  const std::string text =
      "We study random subsampling of training data for large models.";
  const uint32_t at = static_cast<uint32_t>(text.find("random"));

  const SnippetWindow snippet = MakeSnippet(text, {{at, at + 18}}, 12);

  EXPECT_EQ(
      text.substr(snippet.range.start, snippet.range.end - snippet.range.start),
      "random subsampling");
  EXPECT_THAT(snippet.highlights, ElementsAre(ByteSpan{0, 18}));
}

TEST(SnippetTest, ALaterHighlightTheEndWouldCutIsLeftOut) {
  const std::string text = "alpha beta gamma delta epsilonzetaeta theta";
  const uint32_t alpha = 0;
  const uint32_t eps = static_cast<uint32_t>(text.find("epsilon"));

  const SnippetWindow snippet =
      MakeSnippet(text, {{alpha, alpha + 5}, {eps, eps + 15}}, 28);

  // "epsilonzetaeta" starts at code point 23 and would be cut at 28: the
  // window ends before it, on a word.
  EXPECT_EQ(
      text.substr(snippet.range.start, snippet.range.end - snippet.range.start),
      "alpha beta gamma delta");
  EXPECT_THAT(snippet.highlights, ElementsAre(ByteSpan{0, 5}));
}

TEST(SnippetTest, NeverStartsOrEndsInsideAWord) {
  const std::string text =
      "aaaa bbbbbbbbbbbbbbbbbbbb target cccccccccccccccccccc dd";
  const uint32_t at = static_cast<uint32_t>(text.find("target"));

  const SnippetWindow snippet = MakeSnippet(text, {{at, at + 6}}, 12);

  const uint32_t s = snippet.range.start, e = snippet.range.end;
  EXPECT_TRUE(s == 0 || text[s - 1] == ' ') << s;
  EXPECT_TRUE(e == text.size() || text[e] == ' ') << e;
  EXPECT_EQ(text.substr(s, e - s), "target");
}

// For `Kosmos-2` the snippet is the sentence introducing Kosmos-2 (one
// highlight), not the closing "Code can be found in
// [https://aka.ms/kosmos-2](https://aka.ms/kosmos-2)" (two, inside URLs).
TEST(SnippetTest, HighlightsInsideUrlsDoNotOutnumberTheText) {
  std::string text = "We introduce Kosmos-2, a model.";
  for (int i = 0; i < 20; ++i) text += " Filler words here.";
  text += " Code: [https://aka.ms/kosmos-2](https://aka.ms/kosmos-2).";
  std::vector<ByteSpan> highlights;
  for (size_t at = text.find("osmos-2"); at != std::string::npos;
       at = text.find("osmos-2", at + 1)) {
    highlights.push_back(
        {static_cast<uint32_t>(at - 1), static_cast<uint32_t>(at + 7)});
  }
  ASSERT_EQ(highlights.size(), 3u);

  const SnippetWindow snippet = MakeSnippet(text, highlights, 60);

  // Around the first mention, not the link at the end.
  EXPECT_LT(snippet.range.start, 13u);
  ASSERT_EQ(snippet.highlights.size(), 1u);
  EXPECT_EQ(snippet.range.start + snippet.highlights[0].start, 13u);
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

// "graph" next to "graph-52985" is not marked as the compound (a 16-bit
// fingerprint of compound terms in the stored spans would collide).
TEST(HighlighterTest, APlainWordNextToAHyphenIsNotMarkedAsTheCompound) {
  //                   0         1         2         3         4
  //                   01234567890123456789012345678901234567890123
  const std::string text = "We study graph-52985 structures and graph methods.";
  EXPECT_THAT(HighlightQuery(text, "graph"),
              ElementsAre(ByteSpan{9, 14}, ByteSpan{36, 41}));
}

// Every abstract of data/*.txt.
std::vector<std::string> SeedAbstracts() {
  std::vector<std::string> abstracts;
  for (const auto& entry :
       std::filesystem::directory_iterator(PAPERDB_DATA_DIR)) {
    if (entry.path().extension() != ".txt") continue;
    std::ifstream in(entry.path());
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string file = buffer.str();
    size_t at = file.find("\n\n");  // Skip the header line.
    while (at != std::string::npos) {
      const size_t next = file.find("\n\n", at + 2);
      abstracts.push_back(file.substr(at + 2, next == std::string::npos
                                                  ? std::string::npos
                                                  : next - at - 2));
      at = next;
    }
  }
  return abstracts;
}

// On the 76 bundled abstracts, stored spans give exactly the highlights of a
// second analysis, for every term of the abstract alone, every pair of
// neighbouring words as a phrase, and the same pairs as sloppy phrases.
TEST(HighlighterTest, StoredSpansMatchAnalysisOnTheBundledAbstracts) {
  const std::vector<std::string> abstracts = SeedAbstracts();
  ASSERT_EQ(abstracts.size(), 76u);
  size_t compared = 0, compounds = 0;
  for (const std::string& text : abstracts) {
    const std::vector<text::AnalyzedToken> tokens =
        text::ThreadLocalAnalyzer().Analyze(text);
    std::vector<MatchUnit> units;
    std::vector<MatchUnit> phrases;
    for (size_t i = 0; i < tokens.size(); ++i) {
      compounds += tokens[i].compound;
      units.push_back({{tokens[i].term}, 0});
      if (i + 1 < tokens.size()) {
        phrases.push_back({{tokens[i].term, tokens[i + 1].term}, 0});
        phrases.push_back({{tokens[i + 1].term, tokens[i].term}, 2});
      }
    }
    for (const std::vector<MatchUnit>* set : {&units, &phrases}) {
      const std::vector<ByteSpan> analysed = Highlight(text, *set);
      ASSERT_EQ(Full(HighlightStored(text, *set)), Full(analysed)) << text;
      compared += analysed.size();
    }
  }
  EXPECT_GT(compared, 10000u);
  EXPECT_GT(compounds, 50u);  // Compounds were among the tokens compared.
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

TEST(SnippetTest, CountsTheWindowInCodePointsAroundMultibyteCharacters) {
  std::string text;
  for (int i = 0; i < 50; ++i) text += "caf\xC3\xA9 ";  // "café ", 6 bytes.
  const uint32_t target = static_cast<uint32_t>(text.size());
  text += "target";
  for (int i = 0; i < 50; ++i) text += " na\xC3\xAFve";  // " naïve".
  const std::vector<ByteSpan> highlights = {{target, target + 6, 0, 1}};

  const SnippetWindow snippet = MakeSnippet(text, highlights, 40);

  const std::string window =
      text.substr(snippet.range.start, snippet.range.end - snippet.range.start);
  size_t code_points = 0;
  for (unsigned char c : window) code_points += (c & 0xC0) != 0x80;
  EXPECT_LE(code_points, 40u);
  EXPECT_GE(code_points, 34u);  // Trimmed to whole words only.
  // The window starts 8 code points (a fifth) before the highlight, moved
  // forward to the next word: "café target naïve naïve ...".
  EXPECT_EQ(window.substr(0, 12), "caf\xC3\xA9 target");
  ASSERT_EQ(snippet.highlights.size(), 1u);
  EXPECT_EQ(snippet.highlights[0].start, 6u);
  EXPECT_EQ(snippet.highlights[0].end, 12u);
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
