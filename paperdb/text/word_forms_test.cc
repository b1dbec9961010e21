#include "paperdb/text/word_forms.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "paperdb/text/analyzer.h"

namespace paperdb::text {
namespace {

TEST(WordFormsTest, InflectionsOfOneWordAreOneWord) {
  const std::vector<std::pair<std::string, std::string>> same = {
      {"network", "networks"},      {"prune", "pruning"},
      {"prune", "pruned"},          {"study", "studies"},
      {"studied", "studying"},      {"bias", "biases"},
      {"model", "modelling"},       {"stop", "stopped"},
      {"embed", "embedding"},       {"process", "processes"},
      {"efficient", "efficiently"}, {"universe", "universes"},
      {"network", "network's"},     {"networks", "networks'"},
      {"embeddings", "embedded"},   {"models", "modelings"},
      {"trainings", "trained"}};
  for (const auto& [a, b] : same) {
    EXPECT_TRUE(AreInflections(a, b)) << a << " " << b;
    EXPECT_TRUE(AreInflections(b, a)) << b << " " << a;
  }
}

TEST(WordFormsTest, WordsOfOneStemThatAreOtherWordsAreNot) {
  const std::vector<std::pair<std::string, std::string>> other = {
      {"experience", "experiments"},  {"experience", "experiment"},
      {"informative", "information"}, {"universe", "university"},
      {"universe", "universities"},   {"general", "generalization"},
      {"optimal", "optimization"}};
  for (const auto& [a, b] : other) {
    EXPECT_FALSE(AreInflections(a, b)) << a << " " << b;
    EXPECT_FALSE(AreInflections(b, a)) << b << " " << a;
  }
}

TEST(WordFormsTest, AnInflectionFoldedToTheStemIsFound) {
  // "policies" stems to "polici" and is indexed without a form term.
  EXPECT_TRUE(HasUnmarkedInflection("policy", "polici"));
  EXPECT_TRUE(HasUnmarkedInflection("study", "studi"));
  EXPECT_FALSE(HasUnmarkedInflection("university", "univers"));
  EXPECT_FALSE(HasUnmarkedInflection("experience", "experi"));
  EXPECT_FALSE(HasUnmarkedInflection("informative", "inform"));
}

TEST(WordFormsTest, FormTermsNameTheFoldedWordUnderItsStem) {
  EXPECT_EQ(FormTerm("experi", "experience"),
            "\x03"
            "experi\x1f"
            "experience");
  EXPECT_EQ(FormOf(FormTerm("experi", "experience")), "experience");
  EXPECT_EQ(FormOf("experi"), "");
  EXPECT_TRUE(IsFormTerm(FormTerm("a", "b")));
  EXPECT_FALSE(HasFormTerm("network", "network"));
  EXPECT_FALSE(HasFormTerm("language", "languag"));
  EXPECT_FALSE(HasFormTerm("languages", "languag"));
  EXPECT_FALSE(HasFormTerm("networks", "network"));
  EXPECT_TRUE(HasFormTerm("information", "inform"));
  EXPECT_TRUE(HasFormTerm("university", "univers"));
}

TEST(WordFormsTest, TheAnalyzerGivesContentWordsTheirFormTerm) {
  auto analyzer = Analyzer::Create();
  ASSERT_TRUE(analyzer.ok());
  const std::vector<AnalyzedToken> tokens =
      (*analyzer)->Analyze("The Experiments on networks and ResNet-18");
  // the experi on network and resnet resnet18 18
  ASSERT_EQ(tokens.size(), 8u);
  EXPECT_EQ(tokens[0].form_id, kNoTermId);  // A stopword.
  ASSERT_NE(tokens[1].form_id, kNoTermId);
  EXPECT_EQ((*analyzer)->TermText(tokens[1].form_id),
            FormTerm("experi", "experiments"));
  EXPECT_EQ((*analyzer)->TermText(tokens[1].term_id), "experi");
  // "networks" is an inflection of its stem: no form term.
  EXPECT_EQ(tokens[3].form_id, kNoTermId);
  EXPECT_TRUE(tokens[6].compound);
  EXPECT_EQ(tokens[6].form_id, kNoTermId);  // Joined compounds get none.
}

}  // namespace
}  // namespace paperdb::text
