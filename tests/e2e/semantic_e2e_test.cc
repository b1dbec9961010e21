// The semantic side of search (paperdb/semantic/concept_lexicon.h) over
// real gRPC on loopback, against the bundled ICLR 2024 lists: concepts
// named in other words, the mode switch, persistence, deletes and verify.

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/index/verifier.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;

// CLIP-MUSED, the one bundled abstract on brain decoding: it writes "fMRI"
// once and never "brain" nor "scans".
constexpr char kClipMused[] = "iclr2024-6c678fb8ce49733d";

class SemanticE2eTest : public ServiceFixture {
 protected:
  v1::SearchPapersResponse Search(
      const std::string& query,
      v1::SemanticMode mode = v1::SEMANTIC_MODE_UNSPECIFIED) {
    v1::SearchPapersRequest request;
    request.set_query(query);
    request.set_semantic(mode);
    return SearchOk(std::move(request));
  }
};

TEST_F(SemanticE2eTest, WordsNamingAConceptFindItsOtherTerms) {
  const v1::SearchPapersResponse response = Search("brain scans");
  EXPECT_THAT(response.concepts(), ElementsAre("brain_decoding"));
  ASSERT_GE(response.results_size(), 1);
  EXPECT_EQ(response.results(0).paper().id(), kClipMused);
  EXPECT_EQ(response.results(0).match_source(), v1::MATCH_SOURCE_CONCEPTS);
  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_CONCEPTS);
  // It matches the run by its concept: a full match, before the papers
  // holding some of the words.
  EXPECT_FALSE(response.results(0).partial_match());
  EXPECT_EQ(response.full_match_count(), 1);
  ASSERT_EQ(response.results(0).explanation_size(), 1);
  EXPECT_EQ(response.results(0).explanation(0).term(),
            "concept:brain_decoding");
  // The concept's term is highlighted in the abstract: "fMRI".
  ASSERT_GE(response.results(0).highlights_size(), 1);
  const v1::TextSpan& span = response.results(0).highlights(0);
  EXPECT_EQ(response.results(0).paper().abstract().substr(
                span.start_byte(), span.end_byte() - span.start_byte()),
            "fMRI");
  bool concept_rewrite = false;
  for (const v1::QueryRewrite& rewrite : response.rewrites()) {
    if (rewrite.kind() != v1::QueryRewrite::KIND_CONCEPT) continue;
    concept_rewrite = true;
    EXPECT_EQ(rewrite.original(), "brain scans");
    EXPECT_THAT(rewrite.replacements(), Contains("fMRI"));
  }
  EXPECT_TRUE(concept_rewrite);
}

TEST_F(SemanticE2eTest, AConceptRewriteNamesTheWordsAsTyped) {
  // The run naming the concept holds a stopword: "original" is the text
  // typed, from where it starts.
  bool named = false;
  const v1::SearchPapersResponse response =
      Search("prompting with a Tree of Thoughts");
  for (const v1::QueryRewrite& rewrite : response.rewrites()) {
    if (rewrite.kind() != v1::QueryRewrite::KIND_CONCEPT) continue;
    if (rewrite.original() != "Tree of Thoughts") continue;
    named = true;
    EXPECT_EQ(rewrite.position(), 17u);
  }
  EXPECT_TRUE(named);
}

TEST_F(SemanticE2eTest, ConceptWordsAreNotSpellingCorrected) {
  // "scans" is in no abstract; its concept stands beside it, so it is not
  // corrected to "spans" (which would bring papers on time spans).
  const v1::SearchPapersResponse response = Search("brain scans");
  for (const v1::QueryRewrite& rewrite : response.rewrites()) {
    EXPECT_NE(rewrite.kind(), v1::QueryRewrite::KIND_SPELLING_CORRECTION)
        << rewrite.DebugString();
  }
  EXPECT_EQ(Search("brain scans", v1::SEMANTIC_MODE_ONLY).rewrites_size(), 0);
  // "recommender", a term of the thesaurus, is no typo of "recommend" (two
  // edits away): the one paper holds only "recommendation", a stem match.
  const v1::SearchPapersResponse recommender = Search("recommender");
  ASSERT_EQ(recommender.rewrites_size(), 1);
  EXPECT_EQ(recommender.rewrites(0).kind(),
            v1::QueryRewrite::KIND_STEM_MATCHES_ONLY);
  EXPECT_THAT(recommender.rewrites(0).replacements(),
              ElementsAre("recommendation"));
}

TEST_F(SemanticE2eTest, HyphenatedWordsNameConceptsToo) {
  // "higher-order relations" is a term of the hypergraph concept.
  const v1::SearchPapersResponse response = Search("higher-order relations");
  EXPECT_THAT(response.concepts(), ElementsAre("hypergraph"));
  EXPECT_THAT(Ids(response),
              Contains("iclr2024-bc810712166ad4ae"));  // LightHGNN
}

TEST_F(SemanticE2eTest, EachConceptIsListedOnce) {
  const v1::SearchPapersResponse response =
      Search("fMRI decoding from brain scans");
  EXPECT_THAT(response.concepts(), ElementsAre("brain_decoding"));
}

TEST_F(SemanticE2eTest, TheSemanticSideCanBeTurnedOffOrUsedAlone) {
  const v1::SearchPapersResponse off =
      Search("brain scans", v1::SEMANTIC_MODE_OFF);
  EXPECT_THAT(Ids(off), ::testing::Not(Contains(kClipMused)));
  EXPECT_EQ(off.concepts_size(), 0);
  for (const v1::SearchResult& result : off.results()) {
    EXPECT_EQ(result.match_source(), v1::MATCH_SOURCE_UNSPECIFIED);
  }
  const v1::SearchPapersResponse only =
      Search("brain scans", v1::SEMANTIC_MODE_ONLY);
  EXPECT_THAT(Ids(only), ElementsAre(kClipMused));
  EXPECT_EQ(only.match_mode(), v1::MATCH_MODE_CONCEPTS);
  // The paper names the query's one concept: a full match.
  EXPECT_EQ(only.full_match_count(), 1);
  EXPECT_FALSE(only.results(0).partial_match());
  // Words that name no concept: nothing on the semantic side alone.
  EXPECT_EQ(Search("Kosmos", v1::SEMANTIC_MODE_ONLY).results_size(), 0);
}

TEST_F(SemanticE2eTest, ConceptsAloneKeepFiltersExclusionsAndOr) {
  // Every bundled paper is from 2024: a 2023 filter leaves nothing.
  EXPECT_EQ(
      Search("brain scans year:2023", v1::SEMANTIC_MODE_ONLY).results_size(),
      0);
  EXPECT_THAT(Ids(Search("brain scans year:2024", v1::SEMANTIC_MODE_ONLY)),
              ElementsAre(kClipMused));
  EXPECT_EQ(Search("brain scans -fMRI", v1::SEMANTIC_MODE_ONLY).results_size(),
            0);
  // Each side of an OR names its own concept.
  const v1::SearchPapersResponse either =
      Search("brain scans OR spreadsheets", v1::SEMANTIC_MODE_ONLY);
  EXPECT_THAT(either.concepts(), ElementsAre("brain_decoding", "tabular_data"));
  EXPECT_THAT(Ids(either), Contains(kClipMused));
  // One concept's total is its document frequency, exact.
  const v1::SearchPapersResponse one =
      Search("brain scans", v1::SEMANTIC_MODE_ONLY);
  EXPECT_EQ(one.total_size(), 1);
  EXPECT_FALSE(one.total_size_estimated());
}

TEST_F(SemanticE2eTest, EachSideOfAnOrNamesItsConceptBesideItsWords) {
  // Words only: the two papers writing "robotics"; CLIP-MUSED writes
  // neither "brain" nor "scans".
  const v1::SearchPapersResponse words =
      Search("brain scans OR robotics", v1::SEMANTIC_MODE_OFF);
  EXPECT_EQ(words.total_size(), 2);
  EXPECT_THAT(Ids(words), ::testing::Not(Contains(kClipMused)));
  const v1::SearchPapersResponse both = Search("brain scans OR robotics");
  EXPECT_THAT(both.concepts(), ElementsAre("brain_decoding", "robotics"));
  EXPECT_EQ(both.total_size(), 4);
  bool clip_mused = false;
  for (const v1::SearchResult& result : both.results()) {
    if (result.paper().id() != kClipMused) continue;
    clip_mused = true;
    EXPECT_EQ(result.match_source(), v1::MATCH_SOURCE_CONCEPTS);
  }
  EXPECT_TRUE(clip_mused);
  int concept_rewrites = 0;
  for (const v1::QueryRewrite& rewrite : both.rewrites()) {
    concept_rewrites += rewrite.kind() == v1::QueryRewrite::KIND_CONCEPT;
  }
  EXPECT_EQ(concept_rewrites, 2);
}

TEST_F(SemanticE2eTest, StopwordsInsideATermAreSkipped) {
  // "rows and columns" is a term of tabular_data; the parser drops "and".
  EXPECT_THAT(Search("rows and columns").concepts(), Contains("tabular_data"));
}

TEST_F(SemanticE2eTest, ConceptsFollowIngestDeleteAndRestart) {
  const auto ingested =
      Ingest("tab.txt",
             "Test 2024 paper list\n\n"
             "Gradient boosting on spreadsheets: rows and columns of "
             "mixed types.\n");
  ASSERT_TRUE(ingested.ok()) << ingested.status();
  ASSERT_TRUE(engine_->CatchUp().ok());
  // "tabular data" is the concept of "spreadsheets".
  const v1::SearchPapersResponse found = Search("tabular data");
  ASSERT_GE(found.results_size(), 1);
  std::string id;
  for (const v1::SearchResult& result : found.results()) {
    if (result.paper().venue() == "Test") id = result.paper().id();
  }
  ASSERT_FALSE(id.empty());
  absl::StatusOr<index::VerifyReport> report = index::VerifyStore(*store_);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_THAT(report->problems, ::testing::IsEmpty());

  // The concept postings are stored: a query engine opened anew on the
  // store finds the paper without re-analyzing anything.
  auto reopened = query::QueryEngine::Open((dir_ / "db").string(),
                                           (dir_ / "secondary2").string());
  ASSERT_TRUE(reopened.ok()) << reopened.status();
  v1::SearchPapersRequest request;
  request.set_query("tabular data");
  v1::SearchPapersResponse again;
  ASSERT_TRUE((*reopened)->SearchPapers(request, &again).ok());
  EXPECT_THAT(Ids(again), Contains(id));

  // Deleted: gone from the concept's postings, and the store verifies.
  ASSERT_TRUE(Ingest("tab.txt", "Test 2024 paper list\n\nOther words.\n").ok());
  ASSERT_TRUE(engine_->CatchUp().ok());
  EXPECT_THAT(Ids(Search("tabular data")), ::testing::Not(Contains(id)));
  report = index::VerifyStore(*store_);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_THAT(report->problems, ::testing::IsEmpty());
}

// Llemma writes "formal theorem proving": its concept outscores its words,
// and both are said.
TEST_F(SemanticE2eTest, PapersHoldingTheWordsAreSaidToMatchByWords) {
  const v1::SearchPapersResponse response = Search("theorem proving");
  ASSERT_GE(response.results_size(), 1);
  const v1::SearchResult& first = response.results(0);
  EXPECT_EQ(first.paper().id(), "iclr2024-5dfa03b10d9f583a");
  EXPECT_EQ(first.match_source(), v1::MATCH_SOURCE_WORDS_AND_CONCEPTS);
  std::vector<std::string> outscored;
  for (const v1::TermScore& term : first.explanation()) {
    if (term.outscored()) outscored.push_back(term.term());
  }
  EXPECT_THAT(outscored, ElementsAre("theorem", "prove"));
}

// Concepts alone match as words do: papers naming every concept first,
// then papers naming some, marked partial.
TEST_F(SemanticE2eTest, OnlyConceptsFullMatchesComeFirstThenSome) {
  v1::SearchPapersRequest request;
  request.set_query("watermark LLM");
  request.set_semantic(v1::SEMANTIC_MODE_ONLY);
  request.set_page_size(4);
  const v1::SearchPapersResponse response = SearchOk(request);
  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_CONCEPTS);
  EXPECT_EQ(response.full_match_count(), 2);
  // The papers naming either concept; "language modeling" alone names no
  // large language model.
  EXPECT_EQ(response.total_size(), 15);
  ASSERT_EQ(response.results_size(), 4);
  const std::vector<std::string> ids = Ids(response);
  EXPECT_THAT(std::vector<std::string>(ids.begin(), ids.begin() + 2),
              ::testing::UnorderedElementsAre("iclr2024-9c9b8787f09878fd",
                                              "iclr2024-9e485505be9b3f16"));
  EXPECT_FALSE(response.results(0).partial_match());
  EXPECT_FALSE(response.results(1).partial_match());
  EXPECT_TRUE(response.results(2).partial_match());
  EXPECT_TRUE(response.results(3).partial_match());
}

TEST_F(SemanticE2eTest, OnlyConceptsWithMatchingAllRequiresEveryConcept) {
  v1::SearchPapersRequest request;
  request.set_query("watermark LLM");
  request.set_semantic(v1::SEMANTIC_MODE_ONLY);
  request.set_matching_strategy(v1::MATCHING_STRATEGY_ALL);
  const v1::SearchPapersResponse response = SearchOk(request);
  // The two watermarking papers, both about LLMs: full matches.
  EXPECT_THAT(Ids(response),
              ::testing::UnorderedElementsAre("iclr2024-9c9b8787f09878fd",
                                              "iclr2024-9e485505be9b3f16"));
  EXPECT_EQ(response.total_size(), 2);
  EXPECT_EQ(response.full_match_count(), 2);
  for (const v1::SearchResult& result : response.results()) {
    EXPECT_FALSE(result.partial_match());
  }
}

// A word the corpus defines as an acronym keeps the corpus's meaning: the
// bundled Hoyer-BANN abstract defines "Binary Neural networks (BNN)", so
// the thesaurus' Bayesian neural network does not stand beside "BNN";
// "SNN", which the corpus defines as the thesaurus does, keeps its concept.
TEST_F(SemanticE2eTest, AnAcronymTheCorpusDefinesKeepsItsMeaning) {
  constexpr char kHoyerBann[] = "iclr2024-7d26bab93afdcd07";
  const v1::SearchPapersResponse bnn = Search("BNN");
  EXPECT_THAT(bnn.concepts(), ::testing::IsEmpty());
  EXPECT_THAT(Ids(bnn), ElementsAre(kHoyerBann));
  ASSERT_EQ(bnn.rewrites_size(), 1);
  EXPECT_EQ(bnn.rewrites(0).kind(), v1::QueryRewrite::KIND_ACRONYM_EXPANSION);
  EXPECT_THAT(bnn.rewrites(0).replacements(),
              ElementsAre("Binary Neural networks"));

  const v1::SearchPapersResponse snn = Search("SNN");
  EXPECT_THAT(snn.concepts(), ElementsAre("spiking_neural_network"));
  EXPECT_THAT(Ids(snn), ElementsAre(kHoyerBann, "iclr2024-ded565ac33542ddd"));
}

// An acronym that spells an English word expands only when typed as an
// acronym: the bundled DREAM abstract defines "Dual Structured Exploration
// with Mixup (DREAM)", and a query for "Dream" means the word.
TEST_F(SemanticE2eTest, AnAcronymThatIsAnEnglishWordExpandsOnlyInCapitals) {
  constexpr char kDream[] = "iclr2024-244f152e794e4f44";
  auto acronym_rewrites = [&](const std::string& query) {
    int n = 0;
    const v1::SearchPapersResponse response = Search(query);
    for (const v1::QueryRewrite& r : response.rewrites()) {
      n += r.kind() == v1::QueryRewrite::KIND_ACRONYM_EXPANSION;
    }
    return n;
  };
  EXPECT_EQ(acronym_rewrites("DREAM"), 1);
  EXPECT_EQ(acronym_rewrites("Dream"), 0);
  EXPECT_EQ(acronym_rewrites("dream"), 0);
  // Not English words, acronyms expand in any case.
  EXPECT_EQ(acronym_rewrites("bnn"), 1);
  EXPECT_EQ(Ids(Search("DREAM"))[0], kDream);
}

// "Segment Anything" is the name of one segmentation model (a narrower
// term, concepts.txt): typed, it names that model, not image segmentation;
// written in an abstract, it still indexes the paper under the concept.
TEST_F(SemanticE2eTest, AnInstanceNameIsNotExpandedToItsConcept) {
  constexpr char kSam[] = "iclr2024-2ee30a0b46d17725";
  constexpr char kVwFormer[] = "iclr2024-b7713047ae744274";
  const v1::SearchPapersResponse typed = Search("segment anything");
  EXPECT_THAT(typed.concepts(), ::testing::IsEmpty());
  ASSERT_GE(typed.results_size(), 1);
  EXPECT_EQ(typed.results(0).paper().id(), kSam);
  EXPECT_EQ(typed.full_match_count(), 1);

  const v1::SearchPapersResponse only =
      Search("image segmentation", v1::SEMANTIC_MODE_ONLY);
  EXPECT_THAT(only.concepts(), ElementsAre("image_segmentation"));
  EXPECT_THAT(Ids(only), ::testing::UnorderedElementsAre(kVwFormer, kSam));
}

// "KV" is the field's abbreviation of key-value: it finds the one bundled
// abstract that writes "key/value pairs", through the concept alone.
TEST_F(SemanticE2eTest, AnAbbreviationFindsItsSpelledOutForm) {
  const v1::SearchPapersResponse response = Search("KV");
  EXPECT_THAT(response.concepts(), ElementsAre("key_value"));
  ASSERT_EQ(response.results_size(), 1);
  EXPECT_EQ(response.results(0).paper().id(), "iclr2024-8f67bba6d492d91f");
  EXPECT_EQ(response.results(0).match_source(), v1::MATCH_SOURCE_CONCEPTS);
}

// The bundled Hoyer BANN abstract defines "Binary Neural networks (BNN)":
// its BNNs are not the thesaurus's Bayesian neural networks.
TEST_F(SemanticE2eTest, AnAbstractsOwnAcronymDecidesItsConcept) {
  const v1::SearchPapersResponse response =
      Search("Bayesian neural network", v1::SEMANTIC_MODE_ONLY);
  EXPECT_THAT(response.concepts(), ElementsAre("bayesian_neural_network"));
  EXPECT_EQ(response.results_size(), 0);
}

// The words typed choose the snippet before a concept's longer names:
// LIFT writes "leading indicators" five times and "time series
// forecasting" once.
TEST_F(SemanticE2eTest, TheWordsTypedChooseTheSnippet) {
  v1::SearchPapersRequest request;
  request.set_query("\"leading indicators\" forecasting");
  request.set_snippet_length(80);
  const v1::SearchPapersResponse response = SearchOk(std::move(request));
  ASSERT_GE(response.results_size(), 1);
  EXPECT_EQ(response.results(0).paper().id(), "iclr2024-f791c9de5a54a17f");
  EXPECT_THAT(response.results(0).snippet().text(),
              ::testing::HasSubstr("leading indicators"));
}

}  // namespace
}  // namespace paperdb::testing
