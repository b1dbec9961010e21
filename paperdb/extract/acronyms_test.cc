#include "paperdb/extract/acronyms.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace paperdb::extract {
namespace {

using ::testing::IsEmpty;

// "acronym=expansion" of every definition, for compact expectations.
std::vector<std::string> Pairs(absl::string_view text) {
  std::vector<std::string> pairs;
  for (const Acronym& a : FindAcronyms(text)) {
    pairs.push_back(a.acronym + "=" + a.expansion);
  }
  return pairs;
}

TEST(FindAcronymsTest, LongFormThenAcronym) {
  EXPECT_THAT(Pairs("We study offline reinforcement learning (RL) with"),
              ::testing::ElementsAre("RL=reinforcement learning"));
  EXPECT_THAT(Pairs("The capability of Large Language Models (LLMs) based"),
              ::testing::ElementsAre("LLMs=Large Language Models"));
  EXPECT_THAT(Pairs("priors such as Gaussian Processes (GPs)."),
              ::testing::ElementsAre("GPs=Gaussian Processes"));
  EXPECT_THAT(Pairs("each resembling the difference of Gaussian (DoG) "),
              ::testing::ElementsAre("DoG=difference of Gaussian"));
  EXPECT_THAT(Pairs("performance, state-of-the-art (SOTA) BNNs"),
              ::testing::ElementsAre("SOTA=state-of-the-art"));
}

TEST(FindAcronymsTest, GivesByteSpansOfTheTextAsWritten) {
  const absl::string_view text =
      "We study offline reinforcement learning (RL).";

  const std::vector<Acronym> found = FindAcronyms(text);

  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].acronym_span, (Span{41, 43}));
  EXPECT_EQ(found[0].expansion_span, (Span{17, 39}));
}

TEST(FindAcronymsTest, PluralAcronymOfASingularLongForm) {
  EXPECT_THAT(Pairs("inference-efficient Multi-Layer Perceptron (MLPs) to"),
              ::testing::ElementsAre("MLPs=Multi-Layer Perceptron"));
}

TEST(FindAcronymsTest, AcronymThenLongFormInParentheses) {
  EXPECT_THAT(
      Pairs("We present **STanHop-Net** (**S**parse **Tan**dem **Hop**field "
            "**Net**work) for"),
      ::testing::ElementsAre("STanHop-Net=Sparse Tandem Hopfield Network"));
}

TEST(FindAcronymsTest, MarkupInsideTheParenthesisIsIgnored) {
  const absl::string_view text =
      "Adaptive Univariate Effect Learning (**A**UEL), Federated Gradient "
      "Projection ($\\texttt{FedGP}$)";

  const std::vector<Acronym> found = FindAcronyms(text);

  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].acronym, "AUEL");
  EXPECT_EQ(
      text.substr(found[0].acronym_span.begin, found[0].acronym_span.size()),
      "A**UEL");  // From the first character of the acronym.
  EXPECT_EQ(found[1].acronym, "FedGP");
  EXPECT_EQ(found[1].expansion, "Federated Gradient Projection");
}

TEST(FindAcronymsTest, OrBeforeTheAcronymIsSkipped) {
  EXPECT_THAT(Pairs("the mechanism of the universal random features (or URFs)"),
              ::testing::ElementsAre("URFs=universal random features"));
}

TEST(FindAcronymsTest, NoMatchingLongFormGivesNothing) {
  EXPECT_THAT(Pairs("We use (RL) here."), IsEmpty());
  EXPECT_THAT(Pairs("(RL) alone"), IsEmpty());
  EXPECT_THAT(Pairs("the tasks. Reinforcement works (RL)"), IsEmpty());
}

TEST(FindAcronymsTest, ParenthesesThatAreNotAcronymsGiveNothing) {
  EXPECT_THAT(Pairs("simple (i.e., linear) maps (e.g., color) at (24h, 48h)"),
              IsEmpty());
  EXPECT_THAT(Pairs("in a paper on emergence (Arora & Goyal, 2023)"),
              IsEmpty());
  EXPECT_THAT(Pairs("(Stein) score (a) and (ii)"), IsEmpty());
}

TEST(FindAcronymsTest, TheWindowStopsAtASentenceEnd) {
  EXPECT_THAT(Pairs("Learning rates. We train (LR) models"), IsEmpty());
}

TEST(FindAcronymsTest, AnAcronymDefinedTwiceIsReportedOnce) {
  const std::vector<Acronym> found = FindAcronyms(
      "reinforcement learning (RL) and reinforcement learning "
      "(RL) again");

  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].acronym_span.begin, 24u);
}

TEST(FindAcronymsTest, CapitalsOfAMixedCaseShortFormStartWords) {
  // Schwartz & Hearst alone take the shortest fit: T, o, t inside
  // "Thoughts". The capitals of "ToT" name words.
  EXPECT_THAT(Pairs("Tree of Thoughts (ToT) generalizes chain-of-thought"),
              ::testing::ElementsAre("ToT=Tree of Thoughts"));
  EXPECT_THAT(Pairs("a sparse Mixture of Experts (MoE) layer"),
              ::testing::ElementsAre("MoE=Mixture of Experts"));
  EXPECT_THAT(Pairs("with Low-Rank Adaptation (LoRA) of weights"),
              ::testing::ElementsAre("LoRA=Low-Rank Adaptation"));
  // No reading starts a word at each capital: the letters are matched as
  // Schwartz & Hearst match them.
  EXPECT_THAT(Pairs("a bidirectional LSTM (BiLSTM) encoder"),
              ::testing::ElementsAre("BiLSTM=bidirectional LSTM"));
}

TEST(BestLongFormStartTest, FirstCharacterMustStartAWord) {
  EXPECT_EQ(internal::BestLongFormStart("RL", "offline reinforcement learning"),
            8u);
  EXPECT_EQ(internal::BestLongFormStart("XY", "no match here"),
            absl::string_view::npos);
}

}  // namespace
}  // namespace paperdb::extract
