#include "paperdb/index/paper_concepts.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace paperdb::index {
namespace {

using ::testing::ElementsAre;

// Paper with `abstract` defining `acronym` as the text at [start, start +
// expansion.size()) of it.
v1::Paper PaperDefining(const std::string& abstract, const std::string& acronym,
                        const std::string& expansion) {
  v1::Paper paper;
  paper.set_abstract(abstract);
  v1::AcronymDefinition* definition = paper.add_acronyms();
  definition->set_acronym(acronym);
  definition->set_expansion(expansion);
  const size_t start = abstract.find(expansion);
  definition->mutable_expansion_span()->set_start_byte(
      static_cast<uint32_t>(start));
  definition->mutable_expansion_span()->set_end_byte(
      static_cast<uint32_t>(start + expansion.size()));
  return paper;
}

// Positions of the mentions of concept `id` in `paper`.
std::vector<uint32_t> MentionsOf(const v1::Paper& paper, const char* id) {
  const std::vector<text::AnalyzedToken> tokens =
      text::ThreadLocalAnalyzer().Analyze(paper.abstract());
  const int64_t concept_index = semantic::ConceptLexicon::Default().Find(id);
  std::vector<uint32_t> out;
  for (const semantic::ConceptMention& m : PaperConcepts(paper, tokens)) {
    if (m.concept_index == concept_index) out.push_back(m.position);
  }
  return out;
}

TEST(PaperConceptsTest, AnAcronymMeansWhatTheAbstractDefinesItAs) {
  const v1::Paper binary =
      PaperDefining("We study binary neural networks (BNNs). BNNs are small.",
                    "BNNs", "binary neural networks");

  EXPECT_THAT(MentionsOf(binary, "bayesian_neural_network"), ElementsAre());
  EXPECT_THAT(MentionsOf(binary, "binary_networks"), ElementsAre(2));
}

TEST(PaperConceptsTest, AnAcronymDefinedAsTheConceptNamesItEachTime) {
  const v1::Paper bayesian =
      PaperDefining("We study Bayesian neural networks (BNNs). BNNs are slow.",
                    "BNNs", "Bayesian neural networks");

  EXPECT_THAT(MentionsOf(bayesian, "bayesian_neural_network"),
              ElementsAre(2, 5, 6));
}

TEST(PaperConceptsTest, AnUndefinedAcronymNamesTheThesaurusConcept) {
  v1::Paper paper;
  paper.set_abstract("A BNN gives calibrated uncertainty.");

  EXPECT_THAT(MentionsOf(paper, "bayesian_neural_network"), ElementsAre(1));
}

}  // namespace
}  // namespace paperdb::index
