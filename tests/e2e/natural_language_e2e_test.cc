// Queries as people type them, over real gRPC on loopback, against the
// bundled ICLR 2024 lists: function and request words ("what", "papers")
// make no match on their own, real English words the corpus lacks are not
// spelling-corrected into other words, and hyphenated words count their
// parts among partial matches.

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;

// The one bundled abstract that writes "hypergraph".
constexpr char kHypergraphPaper[] = "iclr2024-bc810712166ad4ae";

class NaturalLanguageE2eTest : public ServiceFixture {
 protected:
  v1::SearchPapersResponse Search(const std::string& query) {
    v1::SearchPapersRequest request;
    request.set_query(query);
    return SearchOk(std::move(request));
  }
  // The replacements of the spelling correction of `word`, or an empty list
  // when `word` was not corrected.
  static std::vector<std::string> CorrectionsOf(
      const v1::SearchPapersResponse& response, const std::string& word) {
    for (const v1::QueryRewrite& rewrite : response.rewrites()) {
      if (rewrite.kind() == v1::QueryRewrite::KIND_SPELLING_CORRECTION &&
          rewrite.original() == word) {
        return {rewrite.replacements().begin(), rewrite.replacements().end()};
      }
    }
    return {};
  }
};

TEST_F(NaturalLanguageE2eTest, FunctionWordsAloneDoNotMakeAMatch) {
  // No paper holds every word; among papers holding some, only the one
  // with "hypergraph" shares a content word with the question.
  const v1::SearchPapersResponse response =
      Search("what does the hypergraph do");
  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_ANY_TERMS);
  EXPECT_THAT(Ids(response), ElementsAre(kHypergraphPaper));
  EXPECT_EQ(response.total_size(), 1);
}

TEST_F(NaturalLanguageE2eTest, TheRequestFrameIsNotSearchedFor) {
  // "papers about" and "show me work on" frame the request: both
  // watermarking papers are full matches, though neither writes "papers",
  // and the response names the words left out.
  const v1::SearchPapersResponse response = Search("papers about watermarking");
  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_ALL_TERMS);
  EXPECT_THAT(Ids(response),
              ::testing::UnorderedElementsAre("iclr2024-9c9b8787f09878fd",
                                              "iclr2024-9e485505be9b3f16"));
  bool named = false;
  for (const v1::QueryRewrite& r : response.rewrites()) {
    if (r.kind() == v1::QueryRewrite::KIND_TERMS_DROPPED) {
      named = true;
      EXPECT_THAT(r.replacements(), ElementsAre("papers", "about"));
      EXPECT_EQ(r.original(), "papers about");
      EXPECT_EQ(r.position(), 0u);
    }
  }
  EXPECT_TRUE(named);
  // Each run of dropped words is named as typed, where it stands.
  std::vector<std::pair<std::string, uint32_t>> runs;
  const v1::SearchPapersResponse framed =
      Search("show me work on watermarking papers");
  for (const v1::QueryRewrite& r : framed.rewrites()) {
    if (r.kind() == v1::QueryRewrite::KIND_TERMS_DROPPED) {
      runs.emplace_back(r.original(), r.position());
    }
  }
  EXPECT_THAT(runs,
              ElementsAre(std::pair<std::string, uint32_t>{"show me work", 0},
                          std::pair<std::string, uint32_t>{"papers", 29}));
  EXPECT_EQ(Search("federated learning papers").match_mode(),
            Search("federated learning").match_mode());
  // "search" and "work" alone are topics, not a request.
  EXPECT_THAT(
      Search("search engines").rewrites(),
      ::testing::Not(::testing::Contains(::testing::Property(
          &v1::QueryRewrite::kind, v1::QueryRewrite::KIND_TERMS_DROPPED))));
  // A frame with nothing else is searched for as typed.
  EXPECT_GT(Search("find papers").total_size(), 0);
}

TEST_F(NaturalLanguageE2eTest, AQueryOfFunctionWordsStillMatchesThem) {
  // With nothing else to match, the function words match: 9 papers write
  // "what", "does" or "do".
  const v1::SearchPapersResponse response = Search("what does it do");
  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_ANY_TERMS);
  EXPECT_EQ(response.total_size(), 9);
}

TEST_F(NaturalLanguageE2eTest,
       AHyphenatedWordsPartsMatchWhenNothingMatchesAll) {
  // No abstract writes "hypergraph style" nor "zebras": the fallback
  // matches the hyphenated word's parts, and "style" is in no abstract.
  const v1::SearchPapersResponse response = Search("hypergraph-style zebras");
  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_ANY_TERMS);
  EXPECT_THAT(Ids(response), ElementsAre(kHypergraphPaper));
  EXPECT_EQ(response.total_size(), 1);
}

// No paper's score counts one term twice (the explanation lists each
// scored term once).
void ExpectEachTermScoredOnce(const v1::SearchPapersResponse& response) {
  for (const v1::SearchResult& result : response.results()) {
    std::vector<std::string> scored;
    for (const auto& term : result.explanation()) {
      if (term.score() > 0) scored.push_back(term.term());
    }
    std::sort(scored.begin(), scored.end());
    EXPECT_EQ(std::adjacent_find(scored.begin(), scored.end()), scored.end())
        << result.paper().id();
  }
}

TEST_F(NaturalLanguageE2eTest, AWordRepeatedInAHyphenatedWordCountsOnce) {
  const v1::SearchPapersResponse response =
      Search("graph-level representation graph");
  ASSERT_GT(response.results_size(), 3);
  ExpectEachTermScoredOnce(response);
}

TEST_F(NaturalLanguageE2eTest, AConceptNamedTwiceCountsOnce) {
  // "brain scans" and "neuroimaging" name one concept: it counts once, for
  // the first words that name it.
  const v1::SearchPapersResponse response = Search("brain scans neuroimaging");
  EXPECT_THAT(response.concepts(), ElementsAre("brain_decoding"));
  int concept_rewrites = 0;
  for (const v1::QueryRewrite& rewrite : response.rewrites()) {
    concept_rewrites += rewrite.kind() == v1::QueryRewrite::KIND_CONCEPT;
  }
  EXPECT_EQ(concept_rewrites, 1);
  ASSERT_GE(response.results_size(), 1);
  EXPECT_EQ(response.results(0).paper().id(), "iclr2024-6c678fb8ce49733d");
  ExpectEachTermScoredOnce(response);
}

TEST_F(NaturalLanguageE2eTest, ANumberAloneFromAHyphenatedWordIsNoMatch) {
  // "CIFAR-10 zzzzunknown": no full match; "10" alone ("10%") is not one
  // either, so only the paper writing CIFAR-10 is found.
  const v1::SearchPapersResponse response = Search("CIFAR-10 zzzzunknown");
  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_ANY_TERMS);
  EXPECT_THAT(Ids(response), ElementsAre("iclr2024-0ec1b279a7b0833e"));
}

TEST_F(NaturalLanguageE2eTest, AdjacentWordsMatchTheOneWordPapersWrite) {
  // Papers write "DreamClean" and "IceFormer"; people type two words.
  const v1::SearchPapersResponse dream = Search("Dream Clean");
  ASSERT_GE(dream.results_size(), 1);
  EXPECT_EQ(dream.results(0).paper().id(), "iclr2024-61db24a660ba2050");
  ASSERT_GE(dream.rewrites_size(), 1);
  EXPECT_EQ(dream.rewrites(0).kind(), v1::QueryRewrite::KIND_JOINED_WORDS);
  EXPECT_EQ(dream.rewrites(0).original(), "Dream Clean");
  EXPECT_THAT(dream.rewrites(0).replacements(), ElementsAre("dreamclean"));
  const v1::SearchPapersResponse ice = Search("ice former");
  ASSERT_GE(ice.results_size(), 1);
  EXPECT_EQ(ice.results(0).paper().id(), "iclr2024-e346e31e6f3135a0");
  // Words no paper writes joined stay two words.
  const v1::SearchPapersResponse two = Search("graph rewiring");
  for (const v1::QueryRewrite& rewrite : two.rewrites()) {
    EXPECT_NE(rewrite.kind(), v1::QueryRewrite::KIND_JOINED_WORDS);
  }
}

TEST_F(NaturalLanguageE2eTest, HyphenatedPartsOfNoContentMatchNothingAlone) {
  // "how" (a function word) and "1.0" (a number) are parts of hyphenated
  // words; no result is matched by them alone.
  for (const std::string query :
       {"how-to guide for watermarking", "GPT-1.0 watermarking"}) {
    const v1::SearchPapersResponse response = Search(query);
    ASSERT_GT(response.results_size(), 0) << query;
    for (const v1::SearchResult& result : response.results()) {
      bool content = false;
      for (const auto& term : result.explanation()) {
        content |= term.score() > 0 && term.term() != "how" &&
                   term.term() != "1.0" && term.term() != "to";
      }
      EXPECT_TRUE(content) << query << ": " << result.paper().id();
    }
  }
}

TEST_F(NaturalLanguageE2eTest, NamesAreNotCorrectedEither) {
  // "Turing" and "Texas" are on the word list (names folded in): not
  // "tuning" and "text".
  EXPECT_THAT(CorrectionsOf(Search("Turing machines"), "Turing"),
              ::testing::IsEmpty());
  EXPECT_THAT(CorrectionsOf(Search("Texas forecasting"), "Texas"),
              ::testing::IsEmpty());
}

TEST_F(NaturalLanguageE2eTest, RealWordsBesideOthersAreNotCorrected) {
  // "rewording" is in no abstract, and one edit from the stems of
  // "reward" and "records": beside other words it stays as typed.
  const v1::SearchPapersResponse response =
      Search("marking AI text so rewording doesn't erase the mark");
  EXPECT_THAT(CorrectionsOf(response, "rewording"), ::testing::IsEmpty());
  for (const v1::SearchResult& result : response.results()) {
    for (const auto& term : result.explanation()) {
      EXPECT_NE(term.term(), "reward") << result.paper().id();
      EXPECT_NE(term.term(), "record") << result.paper().id();
    }
  }
}

TEST_F(NaturalLanguageE2eTest, ARealWordAloneIsNotCorrectedEither) {
  // No abstract writes "rewording": nothing matches, rather than papers on
  // rewards.
  const v1::SearchPapersResponse response = Search("rewording");
  EXPECT_THAT(CorrectionsOf(response, "rewording"), ::testing::IsEmpty());
  EXPECT_EQ(response.total_size(), 0);
  // A possessive is its word.
  EXPECT_THAT(CorrectionsOf(Search("lightning's networks"), "lightning's"),
              ::testing::IsEmpty());
}

TEST_F(NaturalLanguageE2eTest, FieldWordsTheThesaurusKnowsAreNotCorrected) {
  // No abstract writes "quantized" (nor "quantization"); the thesaurus
  // knows "quantization", of the same stem: not "quantified" nor the
  // corpus' "quantifed", alone or in an OR.
  for (const char* query : {"quantized", "quantized OR pruning"}) {
    const v1::SearchPapersResponse response = Search(query);
    EXPECT_THAT(CorrectionsOf(response, "quantized"), ::testing::IsEmpty())
        << query;
  }
  EXPECT_EQ(Search("quantized").total_size(), 0);
  // A typo of a field word is still corrected.
  EXPECT_THAT(CorrectionsOf(Search("trasnformer"), "trasnformer"),
              ::testing::Not(::testing::IsEmpty()));
}

TEST_F(NaturalLanguageE2eTest, AMisspelledWordSearchesAsTheWordItStandsFor) {
  // "optimizaton" names no concept as typed. Corrected, it ranks as the
  // word: its stem's other words count less (a KIND_STEM_MATCHES names
  // them) and it names the word's concept.
  for (const auto& [typo, word] : {std::pair{"optimizaton", "optimization"}}) {
    const v1::SearchPapersResponse typed = Search(typo);
    const v1::SearchPapersResponse right = Search(word);
    EXPECT_THAT(CorrectionsOf(typed, typo), ElementsAre(word));
    EXPECT_EQ(Ids(typed), Ids(right)) << typo;
    EXPECT_THAT(typed.concepts(), ::testing::ElementsAreArray(right.concepts()))
        << typo;
    bool stems_named = false;
    for (const v1::QueryRewrite& rewrite : typed.rewrites()) {
      stems_named |= rewrite.kind() == v1::QueryRewrite::KIND_STEM_MATCHES &&
                     rewrite.original() == word;
    }
    EXPECT_TRUE(stems_named) << typo;
  }
  // A British spelling is the word itself, not a typo: no correction, the
  // same papers and concepts, and the same stem rewrite.
  const v1::SearchPapersResponse british = Search("generalisation");
  const v1::SearchPapersResponse american = Search("generalization");
  EXPECT_THAT(CorrectionsOf(british, "generalisation"), ::testing::IsEmpty());
  EXPECT_EQ(Ids(british), Ids(american));
  EXPECT_THAT(british.concepts(),
              ::testing::ElementsAreArray(american.concepts()));
  EXPECT_EQ(ReplacementsOf(british, v1::QueryRewrite::KIND_STEM_MATCHES),
            ReplacementsOf(american, v1::QueryRewrite::KIND_STEM_MATCHES));
  EXPECT_THAT(Search("optimizaton").concepts(), Contains("optimization"));
  EXPECT_EQ(Ids(Search("optimizaton"))[0], "iclr2024-fe0510f026b67547");
  // Beside another word a typo that stems as the word matches as it, and
  // the response still says which word it was read as.
  const v1::SearchPapersResponse pair = Search("offline reinforcment");
  EXPECT_THAT(CorrectionsOf(pair, "reinforcment"),
              ElementsAre("reinforcement"));
  EXPECT_EQ(Ids(pair), Ids(Search("offline reinforcement")));
  // Corrected words that spell an acronym's expansion match the acronym
  // too, as the words typed right do.
  const v1::SearchPapersResponse run = Search("reinforcment lerning");
  bool acronym = false;
  for (const v1::QueryRewrite& rewrite : run.rewrites()) {
    acronym |= rewrite.kind() == v1::QueryRewrite::KIND_ACRONYM_EXPANSION &&
               rewrite.replacements_size() == 1 &&
               rewrite.replacements(0) == "RL";
  }
  EXPECT_TRUE(acronym);
  // DrS writes only "RL".
  EXPECT_THAT(Ids(run), ::testing::UnorderedElementsAreArray(
                            Ids(Search("reinforcement learning"))));
  EXPECT_THAT(Ids(run), Contains("iclr2024-ade0dc5593ac7a33"));
}

TEST_F(NaturalLanguageE2eTest, WordsInAnExclusionAreNotCorrected) {
  // "neutral" and "banana" are in no abstract: excluding them excludes
  // nothing, as "-neutral" alone does; corrected, "neutral" would exclude
  // the papers on neural networks.
  const v1::SearchPapersResponse plain = Search("forecasting");
  const v1::SearchPapersResponse group =
      Search("forecasting -(neutral OR banana)");
  const v1::SearchPapersResponse typo =
      Search("forecasting -(nueral OR banana)");
  EXPECT_EQ(group.total_size(), plain.total_size());
  EXPECT_EQ(typo.total_size(), plain.total_size());
  for (const auto* r : {&group, &typo}) {
    for (const v1::QueryRewrite& rewrite : r->rewrites()) {
      EXPECT_NE(rewrite.kind(), v1::QueryRewrite::KIND_SPELLING_CORRECTION)
          << rewrite.original();
    }
  }
}

TEST_F(NaturalLanguageE2eTest, MisspellingsBesideOtherWordsAreCorrected) {
  // "nueral" is no English word: a typo of "neural".
  const v1::SearchPapersResponse response = Search("nueral network pruning");
  EXPECT_THAT(CorrectionsOf(response, "nueral"), ElementsAre("neural"));
}

// A partial match of a hyphenated word holds some of its parts: those are
// highlighted, not the whole word.
TEST_F(NaturalLanguageE2eTest, PartialMatchesOfAHyphenatedWordMarkItsParts) {
  v1::SearchPapersRequest request;
  request.set_query("graph-level");
  request.set_page_size(100);
  const v1::SearchPapersResponse response = SearchOk(request);
  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_ALL_TERMS_THEN_SOME);
  ASSERT_EQ(response.full_match_count(), 1);
  ASSERT_GE(response.results_size(), 3);
  for (int i = 1; i < response.results_size(); ++i) {
    const v1::SearchResult& result = response.results(i);
    EXPECT_TRUE(result.partial_match()) << i;
    ASSERT_GE(result.highlights_size(), 1) << result.paper().name();
    for (const v1::TextSpan& span : result.highlights()) {
      const std::string marked = result.paper().abstract().substr(
          span.start_byte(), span.end_byte() - span.start_byte());
      EXPECT_TRUE(absl::EqualsIgnoreCase(marked, "graph") ||
                  absl::EqualsIgnoreCase(marked, "graphs") ||
                  absl::EqualsIgnoreCase(marked, "level") ||
                  absl::EqualsIgnoreCase(marked, "levels"))
          << result.paper().name() << ": " << marked;
    }
  }
  // A number alone is no part worth matching: "CIFAR-10" does not fill
  // with papers writing "10".
  const v1::SearchPapersResponse cifar = Search("CIFAR-10");
  EXPECT_EQ(cifar.match_mode(), v1::MATCH_MODE_ALL_TERMS);
  EXPECT_EQ(cifar.total_size(), 1);
}

TEST_F(NaturalLanguageE2eTest, AWordSplitAtDigitsIsNotFilledWithItsParts) {
  // "RS2": one paper; its parts ("rs", "2") are not partial matches.
  const v1::SearchPapersResponse rs2 = Search("RS2");
  ASSERT_GE(rs2.full_match_count(), 1);
  EXPECT_EQ(rs2.total_size(), rs2.full_match_count());
  EXPECT_EQ(rs2.match_mode(), v1::MATCH_MODE_ALL_TERMS);
}

}  // namespace
}  // namespace paperdb::testing
