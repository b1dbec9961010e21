#include "paperdb/text/british_spelling.h"

#include <string>

#include "gtest/gtest.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/text/english_words.h"

namespace paperdb::text {
namespace {

TEST(BritishSpellingTest, IseWordsAreSpelledWithIze) {
  EXPECT_EQ(AmericanSpelling("quantisation"), "quantization");
  EXPECT_EQ(AmericanSpelling("regularisations"), "regularizations");
  EXPECT_EQ(AmericanSpelling("tokenising"), "tokenizing");
  EXPECT_EQ(AmericanSpelling("normalised"), "normalized");
  EXPECT_EQ(AmericanSpelling("optimiser"), "optimizer");
  EXPECT_EQ(AmericanSpelling("generalise"), "generalize");
  EXPECT_EQ(AmericanSpelling("organisational"), "organizational");
  // Words ending in a short listed word: "arise", "rise", "anise".
  EXPECT_EQ(AmericanSpelling("summarise"), "summarize");
  EXPECT_EQ(AmericanSpelling("vectorised"), "vectorized");
}

TEST(BritishSpellingTest, WordsOfBothSpellingsStayAsWritten) {
  // Listed words, and words ending in a listed -ise word.
  for (const char* word :
       {"exercise",     "promised",    "otherwise", "premises", "precise",
        "advertising",  "surprising",  "denoising", "denoiser", "layerwise",
        "pairwise",     "elementwise", "raising",   "analyses", "sciences",
        "quantization", "behavior",    "network",   "model",    "noise",
        "arise"}) {
    EXPECT_EQ(AmericanSpelling(word), "") << word;
  }
}

TEST(BritishSpellingTest, OtherEndingsNeedTheAmericanWordListed) {
  EXPECT_EQ(AmericanSpelling("behaviour"), "behavior");
  EXPECT_EQ(AmericanSpelling("behavioural"), "behavioral");
  EXPECT_EQ(AmericanSpelling("neighbours"), "neighbors");
  EXPECT_EQ(AmericanSpelling("colourful"), "colorful");
  EXPECT_EQ(AmericanSpelling("centred"), "centered");
  EXPECT_EQ(AmericanSpelling("spectres"), "specters");
  EXPECT_EQ(AmericanSpelling("metres"), "");  // Two letters before -tre.
  EXPECT_EQ(AmericanSpelling("defence"), "defense");
  EXPECT_EQ(AmericanSpelling("analysing"), "analyzing");
  // Other words that only look British.
  EXPECT_EQ(AmericanSpelling("prise"), "");
  EXPECT_EQ(AmericanSpelling("bourne"), "");
  EXPECT_EQ(AmericanSpelling("entre"), "");
  EXPECT_EQ(AmericanSpelling("neighbourhood"), "neighborhood");
  // No listed American word: left alone.
  EXPECT_EQ(AmericanSpelling("contour"), "");
  EXPECT_EQ(AmericanSpelling("divergence"), "");
}

TEST(BritishSpellingTest, ABritishSpellingIsAWordWhenItsAmericanOneIs) {
  EXPECT_TRUE(IsEnglishWord("behaviour"));
  EXPECT_TRUE(IsEnglishWord("analysed"));
  EXPECT_FALSE(IsListedEnglishWord("behaviour"));
  // "tokenize" is not on the list, so "tokenise" is not either.
  EXPECT_FALSE(IsEnglishWord("tokenise"));
}

TEST(BritishSpellingTest, TheAnalyzerIndexesBothSpellingsAsOneTerm) {
  std::unique_ptr<Analyzer> analyzer = *Analyzer::Create();
  const auto british = analyzer->Analyze("Quantisation of behaviour");
  const auto american = analyzer->Analyze("quantization of behavior");
  ASSERT_EQ(british.size(), american.size());
  for (size_t i = 0; i < british.size(); ++i) {
    EXPECT_EQ(british[i].term, american[i].term) << i;
    EXPECT_EQ(british[i].form_id == kNoTermId, american[i].form_id == kNoTermId)
        << i;
  }
  // Offsets stay the text's.
  EXPECT_EQ(british[0].end_byte, 12u);
}

}  // namespace
}  // namespace paperdb::text
