// Exact words before stems (paperdb/text/word_forms.h) over real gRPC on
// loopback: a paper holding the word typed, or an inflection of it, ranks
// above papers holding only another word of its stem, and the response
// says when a stem, not the word, matched.

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;

// The RS2 abstract: the one bundled paper writing "informative"; 14 others
// write "information" (stem "inform").
constexpr char kRs2[] = "iclr2024-57d2834f0813070e";

class WordFormsE2eTest : public ServiceFixture {
 protected:
  v1::SearchPapersResponse Search(const std::string& query,
                                  int page_size = 10) {
    v1::SearchPapersRequest request;
    request.set_query(query);
    request.set_page_size(page_size);
    return SearchOk(std::move(request));
  }
};

TEST_F(WordFormsE2eTest, ThePaperHoldingTheTypedWordRanksFirst) {
  const v1::SearchPapersResponse response = Search("informative", 20);
  ASSERT_EQ(response.total_size(), 15);
  EXPECT_EQ(response.results(0).paper().id(), kRs2);
  EXPECT_FALSE(response.results(0).explanation(0).stem_only());
  for (int i = 1; i < response.results_size(); ++i) {
    EXPECT_TRUE(response.results(i).explanation(0).stem_only()) << i;
    EXPECT_LT(response.results(i).score(), response.results(0).score());
  }
  ASSERT_EQ(response.rewrites_size(), 1);
  EXPECT_EQ(response.rewrites(0).kind(), v1::QueryRewrite::KIND_STEM_MATCHES);
  EXPECT_EQ(response.rewrites(0).original(), "informative");
  EXPECT_THAT(response.rewrites(0).replacements(), Contains("information"));
}

TEST_F(WordFormsE2eTest, APluralInIesIsTheWord) {
  // Two of the seven papers write only "policies" (stem "polici", no
  // form term): they hold the word "policy", in full and when quoted.
  const v1::SearchPapersResponse policy = Search("policy", 20);
  EXPECT_EQ(policy.total_size(), 7);
  EXPECT_EQ(Ids(policy), Ids(Search("policies", 20)));
  EXPECT_EQ(policy.rewrites_size(), 0);
  EXPECT_EQ(Search("\"policy\"", 20).total_size(), 7);
}

TEST_F(WordFormsE2eTest, TheStemsOwnWordIsNamedWhenPapersHoldOnlyIt) {
  // Nine of the 27 papers hold only "general" or "generally", which the
  // index names by the stem alone: the rewrite names "general" last.
  const std::vector<std::string> named = ReplacementsOf(
      Search("generalization"), v1::QueryRewrite::KIND_STEM_MATCHES);
  ASSERT_FALSE(named.empty());
  EXPECT_EQ(named.back(), "general");
  EXPECT_THAT(named, Contains("generalize"));
}

TEST_F(WordFormsE2eTest, AQuotedWordMatchesItsOwnPapersOnly) {
  EXPECT_THAT(Ids(Search("\"informative\"")), ElementsAre(kRs2));
  EXPECT_EQ(Search("\"informative\"").total_size(), 1);
  // Other words of the stem are not matched, so no rewrite names them.
  EXPECT_EQ(Search("\"informative\"").rewrites_size(), 0);
  // A quoted word's occurrences alone count: iTransformer's abstract writes
  // "forecasting" 3 times and "forecasters" twice (stem "forecast").
  v1::SearchPapersRequest request;
  request.set_query("\"forecasting\"");
  request.set_explain(true);
  request.set_page_size(50);
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::SearchPapersResponse quoted;
  ASSERT_TRUE(query_->SearchPapers(&context, request, &quoted).ok());
  bool seen = false;
  for (const v1::SearchResult& result : quoted.results()) {
    if (result.paper().id() != "iclr2024-4d72d7d827077ea1") continue;
    seen = true;
    EXPECT_EQ(result.explanation(0).term_frequency(), 3u);
  }
  EXPECT_TRUE(seen);
  // No bundled abstract writes "experience" (27 write "experiments" and
  // the like, stem "experi").
  EXPECT_EQ(Search("\"experience\"").results_size(), 0);
}

TEST_F(WordFormsE2eTest, OnlyStemMatchesAreSaidToBeSo) {
  const v1::SearchPapersResponse response = Search("experience");
  ASSERT_EQ(response.total_size(), 27);
  ASSERT_EQ(response.rewrites_size(), 1);
  EXPECT_EQ(response.rewrites(0).kind(),
            v1::QueryRewrite::KIND_STEM_MATCHES_ONLY);
  EXPECT_EQ(response.rewrites(0).original(), "experience");
  EXPECT_THAT(response.rewrites(0).replacements(), Contains("experiments"));
  for (const v1::SearchResult& result : response.results()) {
    EXPECT_TRUE(result.explanation(0).stem_only());
  }
}

TEST_F(WordFormsE2eTest, AStemThatIsTheOnlyWordMatchedIsNamed) {
  // "neurall" stems to "neural", which 22 papers write as such: the index
  // names no other word; one letter off it, it is a typo of the stem's own.
  const v1::SearchPapersResponse response = Search("neurall");
  EXPECT_EQ(response.total_size(), 22);
  ASSERT_EQ(response.rewrites_size(), 1);
  EXPECT_EQ(response.rewrites(0).kind(),
            v1::QueryRewrite::KIND_SPELLING_CORRECTION);
  EXPECT_THAT(response.rewrites(0).replacements(), ElementsAre("neural"));
  const v1::SearchPapersResponse experience = Search("experience");
  ASSERT_EQ(experience.rewrites_size(), 1);
  EXPECT_THAT(experience.rewrites(0).replacements(),
              ElementsAre("experiments", "experiment"));
}

TEST_F(WordFormsE2eTest, AnExcludedWordExcludesItsInflectionsNotItsStem) {
  // Of the 16 papers with code, 6 match "transformer"; one of them
  // (CARE) writes only "transformations". Excluding the word keeps it, as
  // excluding the quoted word does, and drops the 5 papers writing
  // "Transformer" or "Transformers".
  constexpr char kCare[] = "iclr2024-2ef0817bbcf50878";
  const v1::SearchPapersResponse with = Search("has:code transformer", 30);
  ASSERT_EQ(with.total_size(), 6);
  EXPECT_THAT(Ids(with), Contains(kCare));
  const v1::SearchPapersResponse without = Search("has:code -transformer", 30);
  EXPECT_EQ(Search("has:code", 30).total_size(), 16);
  EXPECT_EQ(without.total_size(), 11);
  EXPECT_THAT(Ids(without), Contains(kCare));
  EXPECT_EQ(Ids(without), Ids(Search("has:code -\"transformer\"", 30)));
  EXPECT_EQ(Search("has:code -(transformers)", 30).total_size(), 11);
}

TEST_F(WordFormsE2eTest, InflectionsMatchAtFullWeight) {
  // "networks" and "network" are one word: no rewrite, nothing stem-only,
  // and the same papers in the same order whichever is typed.
  const v1::SearchPapersResponse plural = Search("networks", 50);
  const v1::SearchPapersResponse singular = Search("network", 50);
  EXPECT_EQ(plural.rewrites_size(), 0) << plural.rewrites(0).DebugString();
  EXPECT_EQ(Ids(plural), Ids(singular));
  for (const v1::SearchResult& result : plural.results()) {
    EXPECT_FALSE(result.explanation(0).stem_only());
  }
  const v1::SearchPapersResponse pruning = Search("pruning", 50);
  const v1::SearchPapersResponse prune = Search("prune", 50);
  EXPECT_EQ(Ids(pruning), Ids(prune));
  EXPECT_GT(pruning.results_size(), 1);
}

TEST_F(WordFormsE2eTest, UniverseAndUniversityEachFindTheirOwnPaper) {
  // Both stem to "univers", as does "universal" (two bundled papers).
  // Each new paper writes its own word twice and the other's once.
  const auto ingested =
      Ingest("univ.txt",
             "Test 2024 paper list\n\n"
             "A survey of the universe: dark matter maps of the "
             "universe, with one note on a university telescope.\n\n"
             "Teaching at a university: universities and their "
             "students, and courses on the universe.\n");
  ASSERT_TRUE(ingested.ok()) << ingested.status();
  ASSERT_TRUE(engine_->CatchUp().ok());
  const v1::SearchPapersResponse universe = Search("universe");
  const v1::SearchPapersResponse university = Search("university");
  ASSERT_EQ(universe.results_size(), 4);
  ASSERT_EQ(university.results_size(), 4);
  EXPECT_NE(universe.results(0).paper().id(),
            university.results(0).paper().id());
  EXPECT_THAT(universe.results(0).paper().abstract(),
              ::testing::StartsWith("A survey of the universe"));
  EXPECT_THAT(university.results(0).paper().abstract(),
              ::testing::StartsWith("Teaching at a university"));
}

// "trade-off" (four bundled papers) is a phrasal noun, not "trade"
// inflected: "trading" ranks the paper on trading first and counts the
// trade-off papers as stem matches only.
TEST_F(WordFormsE2eTest, AWordHyphenedToAParticleIsNotItsHeadInflected) {
  const v1::SearchPapersResponse before = Search("trading");
  ASSERT_EQ(before.total_size(), 4);
  for (const v1::SearchResult& result : before.results()) {
    EXPECT_TRUE(result.explanation(0).stem_only()) << result.paper().id();
  }
  EXPECT_THAT(ReplacementsOf(before, v1::QueryRewrite::KIND_STEM_MATCHES),
              ElementsAre("tradeoff", "tradeoffs"));
  const auto ingested =
      Ingest("trading.txt",
             "Test 2024 paper list\n\n"
             "Agents for algorithmic trading: a market simulator where "
             "trading agents trade futures.\n");
  ASSERT_TRUE(ingested.ok()) << ingested.status();
  ASSERT_TRUE(engine_->CatchUp().ok());

  const v1::SearchPapersResponse after = Search("trading");

  ASSERT_EQ(after.total_size(), 5);
  EXPECT_THAT(after.results(0).paper().abstract(),
              ::testing::StartsWith("Agents for algorithmic trading"));
  EXPECT_FALSE(after.results(0).explanation(0).stem_only());
  for (int i = 1; i < after.results_size(); ++i) {
    EXPECT_TRUE(after.results(i).explanation(0).stem_only()) << i;
  }
  // The phrase still finds every trade-off paper.
  EXPECT_EQ(Search("\"trade-off\"").total_size(), 4);
  EXPECT_EQ(Search("\"trade\"").total_size(), 1);
}

// British and American spellings are one word, in papers and in queries:
// "quantisation" was corrected to "quantitative" before.
TEST_F(WordFormsE2eTest, BritishAndAmericanSpellingsFindEachOther) {
  EXPECT_EQ(Search("quantisation").total_size(), 0);
  EXPECT_THAT(ReplacementsOf(Search("quantisation"),
                             v1::QueryRewrite::KIND_SPELLING_CORRECTION),
              ::testing::IsEmpty());
  const auto ingested =
      Ingest("british.txt",
             "Test 2024 paper list\n\n"
             "Quantisation of language models changes the behaviour of "
             "their optimisers.\n");
  ASSERT_TRUE(ingested.ok()) << ingested.status();
  ASSERT_TRUE(engine_->CatchUp().ok());

  for (const char* query :
       {"quantization", "quantisation", "\"quantization\"",
        "quantization behavior", "quantisation behaviour optimizers"}) {
    const v1::SearchPapersResponse response = Search(query);
    ASSERT_GE(response.results_size(), 1) << query;
    EXPECT_THAT(response.results(0).paper().abstract(),
                ::testing::StartsWith("Quantisation of language models"))
        << query;
    EXPECT_FALSE(response.results(0).explanation(0).stem_only()) << query;
  }
  EXPECT_EQ(Search("quantisation").total_size(), 1);
  EXPECT_EQ(Search("quantization").total_size(), 1);
}

// A word no paper holds whose stem a paper's word shares, within spelling
// distance ("reinforcment" and "reinforcement" both stem to "reinforc"), is
// a typo of that word: corrected, at full weight, not a stem-only match.
TEST_F(WordFormsE2eTest, ATypoSharingTheStemIsCorrectedNotWeighedDown) {
  const v1::SearchPapersResponse typo = Search("reinforcment", 20);
  const v1::SearchPapersResponse right = Search("reinforcement", 20);
  ASSERT_EQ(typo.rewrites_size(), 1);
  EXPECT_EQ(typo.rewrites(0).kind(),
            v1::QueryRewrite::KIND_SPELLING_CORRECTION);
  EXPECT_EQ(typo.rewrites(0).original(), "reinforcment");
  EXPECT_THAT(typo.rewrites(0).replacements(), ElementsAre("reinforcement"));
  EXPECT_EQ(Ids(typo), Ids(right));
  ASSERT_GE(typo.results_size(), 1);
  EXPECT_EQ(typo.results(0).score(), right.results(0).score());
}

// Words folded to a stem have no form term; a stem whose papers all hold the
// typed word says nothing of other words ("iTransformer", one paper).
TEST_F(WordFormsE2eTest, NoStemRewriteWhereEveryPaperHoldsTheWord) {
  for (const char* word : {"iTransformer", "reinforcement", "diffusion"}) {
    const v1::SearchPapersResponse response = Search(word);
    for (const v1::QueryRewrite& rewrite : response.rewrites()) {
      EXPECT_NE(rewrite.kind(), v1::QueryRewrite::KIND_STEM_MATCHES) << word;
      EXPECT_NE(rewrite.kind(), v1::QueryRewrite::KIND_STEM_MATCHES_ONLY)
          << word;
    }
    EXPECT_GE(response.results_size(), 1) << word;
  }
}

// A spelling correction is judged on words: the typed word against the
// words the corpus spells with a stem, within 1 edit (2 from 9 letters).
// Stems alone put "compositional" two edits from "competitive" (composit /
// competit) and "segmantation" one from "semantic" (segmant / semant).
TEST_F(WordFormsE2eTest, SpellingCorrectionsAreWordsWithinReach) {
  auto corrections = [&](const std::string& query) {
    return ReplacementsOf(Search(query),
                          v1::QueryRewrite::KIND_SPELLING_CORRECTION);
  };
  EXPECT_THAT(corrections("compositional"), ::testing::IsEmpty());
  EXPECT_THAT(corrections("segmantation"), ElementsAre("segmentation"));
  EXPECT_THAT(corrections("difussion"), ElementsAre("diffusion"));
  EXPECT_THAT(corrections("netwrok"), ElementsAre("network"));
  EXPECT_THAT(corrections("lerning"), ElementsAre("learning"));
  // A typo that keeps Snowball from stripping the suffix ("trnsformer",
  // "spking" stay whole) is judged on the word too.
  EXPECT_THAT(corrections("trnsformer"), ElementsAre("transformer"));
  EXPECT_THAT(corrections("spking"), ElementsAre("spiking"));
  EXPECT_THAT(corrections("delayss"), ElementsAre("delays"));
  // Shown as the corpus word nearest the one typed, not the first word of
  // the stem an abstract writes ("optimality" for "optim").
  EXPECT_THAT(corrections("optmizaton"), ElementsAre("optimization"));
  EXPECT_THAT(corrections("forcastng"), ElementsAre("forecasting"));
  // A stem one edit from the typed word's stem still counts: "synapt".
  EXPECT_THAT(corrections("synaptic"), ElementsAre("synapse"));
}

}  // namespace
}  // namespace paperdb::testing
