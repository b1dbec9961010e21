#include "paperdb/text/analyzer.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libstemmer.h"
#include "paperdb/text/word_forms.h"

namespace paperdb::text {
namespace {

using ::testing::ElementsAre;

// Each token as "term@position[start_byte,end_byte)", with a trailing "+"
// for a joined compound: terms, positions and spans in one assertion.
std::vector<std::string> Describe(absl::string_view text) {
  std::vector<std::string> out;
  for (const AnalyzedToken& t : ThreadLocalAnalyzer().Analyze(text)) {
    out.push_back(absl::StrCat(t.term, "@", t.position, "[", t.start_byte, ",",
                               t.end_byte, ")", t.compound ? "+" : ""));
  }
  return out;
}

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
  // "CO₂" and "x²" fold to the whole terms of "CO2" and "x2", which plain
  // ASCII also splits into parts (letters and digits run together).
  EXPECT_THAT(Terms("CO\xE2\x82\x82 x\xC2\xB2"), ElementsAre("co2", "x2"));
  EXPECT_THAT(Terms("CO2 x2"), ElementsAre("co", "co2", "2", "x", "x2", "2"));
}

TEST(AnalyzerTest, EmphasisInsideAWordIsRemoved) {
  EXPECT_EQ(Terms("**S**parse **Tan**dem **Hop**field **Net**work"),
            Terms("Sparse Tandem Hopfield Network"));
}

TEST(AnalyzerTest, SoftHyphenDoesNotSplitAWord) {
  EXPECT_THAT(Terms("dif\xC2\xAD"
                    "fusion"),
              ElementsAre("diffus"));
}

TEST(AnalyzerTest, ZeroWidthCharactersDoNotSplitAWord) {
  // U+200B zero-width space, U+2060 word joiner, U+FEFF.
  EXPECT_THAT(Terms("spik\xE2\x80\x8Bing"), ElementsAre("spike"));
  EXPECT_THAT(Terms("zero\xE2\x81\xA0width"), ElementsAre("zerowidth"));
  EXPECT_THAT(Terms("dif\xEF\xBB\xBF"
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

TEST(AnalyzerTest, DiacriticsAreFoldedForMatchingOnly) {
  // "Schrödinger" (ö = 2 bytes), "schrodinger", "SCHRÖDINGER": one term, and
  // the spans are the original bytes.
  EXPECT_THAT(Describe("Schr\xC3\xB6"
                       "dinger schrodinger SCHR\xC3\x96"
                       "DINGER"),
              ElementsAre("schroding@0[0,12)", "schroding@1[13,24)",
                          "schroding@2[25,37)"));
  EXPECT_EQ(Terms("na\xC3\xAFve"), Terms("naive"));
  // Decomposed input: 'o' + U+0308 COMBINING DIAERESIS.
  EXPECT_EQ(Terms("Schro\xCC\x88"
                  "dinger"),
            Terms("schrodinger"));
}

TEST(AnalyzerTest, FoldKeepsDiacriticsAndFoldForMatchingDropsThem) {
  EXPECT_EQ(Analyzer::Fold("SCHR\xC3\x96"
                           "DINGER"),
            "schr\xC3\xB6"
            "dinger");
  EXPECT_EQ(Analyzer::FoldForMatching("SCHR\xC3\x96"
                                      "DINGER"),
            "schrodinger");
  EXPECT_EQ(Analyzer::FoldForMatching("Erd\xC5\x91s R\xC3\xA9nyi"),
            "erdos renyi");
  // Greek tonos and the Cyrillic breve are diacritics too.
  EXPECT_EQ(Analyzer::FoldForMatching("\xCE\x86"), "\xCE\xB1");  // Ά -> α
  EXPECT_EQ(Analyzer::FoldForMatching("\xD0\x99"), "\xD0\xB8");  // Й -> и
}

TEST(AnalyzerTest, MarksThatAreLettersInOtherScriptsAreKept) {
  // Kana voicing: が (U+304C) is not か (U+304B). Devanagari vowel signs
  // stay: "हिंदी" keeps all its 15 bytes.
  EXPECT_EQ(Analyzer::FoldForMatching("\xE3\x81\x8C"), "\xE3\x81\x8C");
  const std::string hindi =
      "\xE0\xA4\xB9\xE0\xA4\xBF\xE0\xA4\x82\xE0\xA4\xA6\xE0\xA5\x80";
  EXPECT_EQ(Analyzer::FoldForMatching(hindi), hindi);
}

TEST(AnalyzerTest, CombiningMarkAfterALetterIsFolded) {
  // "top-k̂": 'k' + U+0302 COMBINING CIRCUMFLEX ACCENT, bytes 4..7.
  EXPECT_THAT(
      Describe("top-k\xCC\x82 topk"),
      ElementsAre("top@0[0,3)", "topk@0[0,7)+", "k@1[4,7)", "topk@2[8,12)"));
}

TEST(AnalyzerTest, HyphenatedCompoundAlsoGivesItsJoinedTerm) {
  EXPECT_THAT(
      Describe("SKILL-MIX skill-mix"),
      ElementsAre("skill@0[0,5)", "skillmix@0[0,9)+", "mix@1[6,9)",
                  "skill@2[10,15)", "skillmix@2[10,19)+", "mix@3[16,19)"));
  // What a query for either spelling looks up.
  EXPECT_THAT(Describe("skill mix SKILLMIX"),
              ElementsAre("skill@0[0,5)", "mix@1[6,9)", "skillmix@2[10,18)"));
  EXPECT_EQ(ThreadLocalAnalyzer().Term("SKILLMIX"), "skillmix");
}

TEST(AnalyzerTest, ModelNamesAndDatasetsAreFindableAsWritten) {
  EXPECT_THAT(Describe("ResNet-18 GPT-4 Proof-Pile-2 MIMIC-IV"),
              ElementsAre("resnet@0[0,6)", "resnet18@0[0,9)+", "18@1[7,9)",
                          "gpt@2[10,13)", "gpt4@2[10,15)+", "4@3[14,15)",
                          "proof@4[16,21)", "proofpile2@4[16,28)+",
                          "pile@5[22,26)", "2@6[27,28)", "mimic@7[29,34)",
                          "mimiciv@7[29,37)+", "iv@8[35,37)"));
  // Written glued, letters and digits are split the same way: the parts at
  // consecutive positions, the whole at the first part's.
  EXPECT_THAT(Describe("resnet18 GPT4 proofpile2 mimiciv"),
              ElementsAre("resnet@0[0,6)", "resnet18@0[0,8)+", "18@1[6,8)",
                          "gpt@2[9,12)", "gpt4@2[9,13)+", "4@3[12,13)",
                          "proofpil@4[14,23)", "proofpile2@4[14,24)+",
                          "2@5[23,24)", "mimiciv@6[25,32)"));
}

TEST(AnalyzerTest, LettersAndDigitsSplitInsideHyphenChainsToo) {
  // "32B" of a hyphenated name holds the phrase "32 b" that the query "32B"
  // looks for; the chain's joined token stands for the glued whole.
  EXPECT_THAT(Describe("FLAN-MoE-32B, Llama2-7B"),
              ElementsAre("flan@0[0,4)", "flanmoe32b@0[0,12)+", "moe@1[5,8)",
                          "32@2[9,11)", "b@3[11,12)", "llama@4[14,19)",
                          "llama27b@4[14,23)+", "2@5[19,20)", "7@6[21,22)",
                          "b@7[22,23)"));
  EXPECT_THAT(Describe("32B"),
              ElementsAre("32@0[0,2)", "32b@0[0,3)+", "b@1[2,3)"));
}

TEST(AnalyzerTest, ALetterDigitPartIsReadAsTheWordAlone) {
  // "gmlwns" alone is an acronym plural ("gmlwn"); so is the part.
  EXPECT_THAT(Describe("gmlwns"), ElementsAre("gmlwn@0[0,6)"));
  EXPECT_THAT(
      Describe("gmlwns2000"),
      ElementsAre("gmlwn@0[0,6)", "gmlwns2000@0[0,10)+", "2000@1[6,10)"));
}

TEST(AnalyzerTest, TheLastPartOfAnAcronymPluralEndsWithItsS) {
  // Highlights of "A100s" cover the 's' too.
  EXPECT_THAT(Describe("8 A100s"), ElementsAre("8@0[0,1)", "a@1[2,3)",
                                               "a100@1[2,7)+", "100@2[3,7)"));
}

TEST(AnalyzerTest, ADecimalGluedToLettersIsOnePart) {
  // "GPT3.5" is indexed as "GPT-3.5" is: the name, the version, the whole.
  EXPECT_THAT(
      Describe("GPT3.5 and GPT-3.5"),
      ElementsAre("gpt@0[0,3)", "gpt3.5@0[0,6)+", "3.5@1[3,6)", "and@2[7,10)",
                  "gpt@3[11,14)", "gpt3.5@3[11,18)+", "3.5@4[15,18)"));
  // Inside a chain the version is a part too: "qwen" finds "Qwen2.5-7B".
  EXPECT_THAT(Describe("Qwen2.5-7B"),
              ElementsAre("qwen@0[0,4)", "qwen2.57b@0[0,10)+", "2.5@1[4,7)",
                          "7@2[8,9)", "b@3[9,10)"));
  EXPECT_THAT(LetterDigitCuts("llama3.1"), ElementsAre(5));
  EXPECT_THAT(LetterDigitCuts("x.5"), ElementsAre());
  EXPECT_THAT(LetterDigitCuts("5.4"), ElementsAre());
}

TEST(AnalyzerTest, StopwordPartsAreJoinedToo) {
  const std::vector<AnalyzedToken> tokens =
      ThreadLocalAnalyzer().Analyze("state-of-the-art methods");

  EXPECT_THAT(Describe("state-of-the-art methods"),
              ElementsAre("state@0[0,5)", "stateoftheart@0[0,16)+", "of@1[6,8)",
                          "the@2[9,12)", "art@3[13,16)", "method@4[17,24)"));
  ASSERT_EQ(tokens.size(), 6u);
  EXPECT_FALSE(tokens[1].stopword);
  EXPECT_TRUE(tokens[2].stopword);
  EXPECT_TRUE(tokens[3].stopword);
}

TEST(AnalyzerTest, JoinedTokenDoesNotShiftLaterPositions) {
  // The words after the compound keep the positions they have without it.
  EXPECT_THAT(Describe("SKILL-MIX leading indicators"),
              ElementsAre("skill@0[0,5)", "skillmix@0[0,9)+", "mix@1[6,9)",
                          "lead@2[10,17)", "indic@3[18,28)"));
  EXPECT_THAT(Describe("SKILL MIX leading indicators"),
              ElementsAre("skill@0[0,5)", "mix@1[6,9)", "lead@2[10,17)",
                          "indic@3[18,28)"));
}

TEST(AnalyzerTest, UnicodeHyphensJoinButDashesAndMinusDoNot) {
  // U+2010 HYPHEN and U+2011 NON-BREAKING HYPHEN join, like '-'.
  EXPECT_THAT(Describe("GPT\xE2\x80\x90"
                       "4 GPT\xE2\x80\x91"
                       "4"),
              ElementsAre("gpt@0[0,3)", "gpt4@0[0,7)+", "4@1[6,7)",
                          "gpt@2[8,11)", "gpt4@2[8,15)+", "4@3[14,15)"));
  // U+2013 EN DASH (a range), U+2212 MINUS SIGN, a spaced or doubled '-'.
  EXPECT_THAT(Terms("2019\xE2\x80\x93"
                    "2023 x\xE2\x88\x92y a - b c--d"),
              ElementsAre("2019", "2023", "x", "y", "a", "b", "c", "d"));
}

TEST(AnalyzerTest, LongHyphenChainsGetNoJoinedToken) {
  // Four parts are joined; five or more are a phrase, indexed as its words.
  EXPECT_THAT(Terms("w-x-y-z"), ElementsAre("w", "wxyz", "x", "y", "z"));
  EXPECT_THAT(Terms("end-to-end-trainable-model"),
              ElementsAre("end", "to", "end", "trainabl", "model"));
}

TEST(AnalyzerTest, JoinedTermEqualToTheFirstPartIsNotRepeated) {
  // "models" stems to "model": one "model" at position 0 is enough.
  EXPECT_THAT(Describe("model-s"), ElementsAre("model@0[0,5)", "s@1[6,7)"));
}

TEST(AnalyzerTest, LatexCommandEndsAHyphenChain) {
  EXPECT_THAT(Describe("x-\\foo-y"), ElementsAre("x@0[0,1)", "y@1[7,8)"));
}

TEST(AnalyzerTest, MultibyteCompoundHasByteSpans) {
  // "Schrödinger-Bridge": ö is 2 bytes, so the hyphen is byte 12.
  EXPECT_THAT(Describe("Schr\xC3\xB6"
                       "dinger-Bridge \xE8\xAE\xBA\xE6\x96\x87"),
              ElementsAre("schroding@0[0,12)", "schrodingerbridg@0[0,19)+",
                          "bridg@1[13,19)", "\xE8\xAE\xBA@2[20,23)",
                          "\xE6\x96\x87@3[23,26)"));
}

// (A British spelling is stemmed as the American one: "neighbor".)
TEST(AnalyzerTest, EqualsSignSeparatesAPhraseOfTwoWords) {
  EXPECT_THAT(
      Describe("with k=5 neighbours"),
      ElementsAre("with@0[0,4)", "k@1[5,6)", "5@2[7,8)", "neighbor@3[9,19)"));
}

TEST(AnalyzerTest, PercentagesKeepTheirDecimalPoint) {
  EXPECT_THAT(
      Describe("5.4% 54 10% 10\\%"),
      ElementsAre("5.4@0[0,3)", "54@1[5,7)", "10@2[8,10)", "10@3[12,14)"));
  EXPECT_NE(Terms("5.4%"), Terms("54"));
  EXPECT_EQ(Terms("10%"), Terms("10\\%"));
  // Full-width digits and decimal marks are the same number (NFKC).
  EXPECT_EQ(Terms("９５．３％"), Terms("95.3%"));
  EXPECT_EQ(Terms("１，０００"), Terms("1,000"));
  EXPECT_NE(Terms("９５．３"), Terms("95"));
}

TEST(AnalyzerTest, MarkdownAndLatexMarkupAreNotWords) {
  EXPECT_THAT(
      Describe("**STanHop-Net** $\\eta(x)$ \\textbf{x}"),
      ElementsAre("stanhop@0[2,9)", "stanhopnet@0[2,13)+", "net@1[10,13)",
                  "eta@2[18,21)", "x@3[22,23)", "x@4[34,35)"));
}

}  // namespace
}  // namespace paperdb::text

namespace paperdb::text {
namespace {

// A text of `count` distinct made-up words ("qa", "qb", ..., "qaa", ...).
std::string DistinctWords(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) {
    std::string word = "q";
    for (int n = i; n > 0 || word.size() == 1; n /= 26) {
      word.push_back(static_cast<char>('a' + n % 26));
    }
    absl::StrAppend(&text, word, " ");
  }
  return text;
}

// Term ids are equal exactly when terms are (a stem shared by several
// words, a joined compound, a letter-digit split), and stay so across
// analyses of one epoch.
TEST(AnalyzerTermIdTest, IdsAreEqualExactlyWhenTermsAre) {
  std::unique_ptr<Analyzer> analyzer = *Analyzer::Create();
  const uint64_t epoch = analyzer->term_epoch();
  EXPECT_NE(epoch, 0u);
  std::vector<AnalyzedToken> tokens =
      analyzer->Analyze("Networks network NETWORKED graphs ResNet-18 resnet18");
  const std::vector<AnalyzedToken> more = analyzer->Analyze("the graph");
  tokens.insert(tokens.end(), more.begin(), more.end());
  EXPECT_EQ(analyzer->term_epoch(), epoch);
  ASSERT_GE(tokens.size(), 10u);
  for (const AnalyzedToken& a : tokens) {
    ASSERT_LT(a.term_id, analyzer->term_id_limit()) << a.term;
    for (const AnalyzedToken& b : tokens) {
      EXPECT_EQ(a.term_id == b.term_id, a.term == b.term)
          << a.term << " " << b.term;
    }
  }
}

// The stem cache takes ASCII words as written: every spelling of a word,
// in either order of first use, gets the lower case's term, id and stopword
// flag, and a fresh analyzer agrees with one that saw the others first.
TEST(AnalyzerTermIdTest, CaseVariantsShareTheLowerCasesEntry) {
  std::unique_ptr<Analyzer> analyzer = *Analyzer::Create();
  const std::vector<AnalyzedToken> tokens =
      analyzer->Analyze("The THE the Networks networks NETWORKS");
  ASSERT_EQ(tokens.size(), 6u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(tokens[i].term, "the");
    EXPECT_TRUE(tokens[i].stopword);
    EXPECT_EQ(tokens[i].term_id, tokens[0].term_id);
    EXPECT_EQ(tokens[3 + i].term, "network");
    EXPECT_FALSE(tokens[3 + i].stopword);
    EXPECT_EQ(tokens[3 + i].term_id, tokens[3].term_id);
  }
  EXPECT_NE(tokens[0].term_id, tokens[3].term_id);
  // Letters and digits run together past the parts' bound: one token.
  std::unique_ptr<Analyzer> fresh = *Analyzer::Create();
  const std::vector<AnalyzedToken> blob =
      fresh->Analyze("A1B2C3D4E5F6G7H8 The");
  ASSERT_EQ(blob.size(), 2u);
  EXPECT_EQ(blob[0].term, "a1b2c3d4e5f6g7h8");
  EXPECT_EQ(blob[1].term, "the");
  EXPECT_TRUE(blob[1].stopword);
}

// Words without letters skip Snowball: it must return every such word
// unchanged. Checked against Snowball itself on every string of up to four
// bytes over digits and the separators a token can hold, and longer ones.
TEST(AnalyzerTest, WordsWithoutLettersAreTheirOwnStems) {
  sb_stemmer* stemmer = sb_stemmer_new("english", "UTF_8");
  ASSERT_NE(stemmer, nullptr);
  std::unique_ptr<Analyzer> analyzer = *Analyzer::Create();
  const std::string alphabet = "0179.,_%-";
  std::vector<std::string> words = {"12345678901234567890", "3.14.159,2",
                                    "2024"};
  std::vector<std::string> shorter = {""};
  for (int length = 1; length <= 4; ++length) {
    std::vector<std::string> longer;
    for (const std::string& w : shorter) {
      for (char c : alphabet) longer.push_back(w + c);
    }
    words.insert(words.end(), longer.begin(), longer.end());
    shorter = std::move(longer);
  }
  int checked = 0;
  for (const std::string& word : words) {
    const sb_symbol* stemmed = sb_stemmer_stem(
        stemmer, reinterpret_cast<const sb_symbol*>(word.data()),
        static_cast<int>(word.size()));
    ASSERT_NE(stemmed, nullptr);
    const std::string expected(reinterpret_cast<const char*>(stemmed),
                               sb_stemmer_length(stemmer));
    ASSERT_EQ(expected, word);
    for (const AnalyzedToken& token : analyzer->Analyze(word)) {
      if (token.compound) continue;
      EXPECT_EQ(token.term, word.substr(token.start_byte,
                                        token.end_byte - token.start_byte));
      ++checked;
    }
  }
  EXPECT_GT(checked, 5000);
  // A word with a letter still goes to the stemmer.
  EXPECT_EQ(analyzer->Term("networks"), "network");
  EXPECT_EQ(analyzer->Term("2024s"), "2024s");
  sb_stemmer_delete(stemmer);
}

// Past the caches' bound, the next analysis starts a new epoch (never
// during one) whose ids count from 0 again, with the same terms.
TEST(AnalyzerTermIdTest, FullCachesStartANewEpochBetweenAnalyses) {
  std::unique_ptr<Analyzer> analyzer = *Analyzer::Create();
  const std::vector<AnalyzedToken> before = analyzer->Analyze("neural graphs");
  const uint64_t first = analyzer->term_epoch();
  const std::vector<AnalyzedToken> many =
      analyzer->Analyze(DistinctWords(140000));
  EXPECT_EQ(analyzer->term_epoch(), first);  // Not during an analysis.
  EXPECT_EQ(many.size(), 140000u);
  EXPECT_GT(analyzer->term_id_limit(), 131072u);
  const std::vector<AnalyzedToken> after = analyzer->Analyze("graphs neural");
  EXPECT_NE(analyzer->term_epoch(), first);
  ASSERT_EQ(after.size(), 2u);
  EXPECT_EQ(after[0].term, before[1].term);
  EXPECT_EQ(after[1].term, before[0].term);
  // "graph" ("graphs" is an inflection of it: no form term,
  // text/word_forms.h) and "neural".
  EXPECT_EQ(after[0].term_id, 0u);
  EXPECT_EQ(after[0].form_id, kNoTermId);
  EXPECT_EQ(after[1].term_id, 1u);
  EXPECT_EQ(analyzer->TermText(1), "neural");
  EXPECT_EQ(analyzer->term_id_limit(), 2u);
}

// The head of a word hyphened to a particle is a phrasal noun, not its word
// inflected: its form term names the compound. A head hyphened to another
// word, and the word alone, get none.
TEST(AnalyzerTest, AWordHyphenedToAParticleHasTheCompoundAsItsForm) {
  std::unique_ptr<Analyzer> analyzer = *Analyzer::Create();
  const std::vector<AnalyzedToken> tokens =
      analyzer->Analyze("a trade-off, trade-offs, warm-up, trade-based trade");
  std::vector<std::string> forms;
  for (const AnalyzedToken& token : tokens) {
    if (token.term == "trade" || token.term == "warm") {
      forms.push_back(
          token.form_id == kNoTermId
              ? "-"
              : std::string(FormOf(analyzer->TermText(token.form_id))));
    }
  }
  EXPECT_THAT(forms, ::testing::ElementsAre("tradeoff", "tradeoffs", "warmup",
                                            "-", "-"));
}

TEST(AnalyzerTest, AShownWordHasNoEmphasisAsterisks) {
  EXPECT_EQ(Analyzer::ShownWord("Hop**field"), "Hopfield");
  EXPECT_EQ(Analyzer::ShownWord("S*parse"), "Sparse");
  EXPECT_EQ(Analyzer::ShownWord("ResNet"), "ResNet");
}

}  // namespace
}  // namespace paperdb::text
