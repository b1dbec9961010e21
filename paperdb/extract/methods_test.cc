#include "paperdb/extract/methods.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace paperdb::extract {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> Names(absl::string_view text) {
  std::vector<std::string> names;
  for (const Mention& m : FindMethods(text)) names.push_back(m.name);
  return names;
}

TEST(FindMethodsTest, NamedCalledDubbedTermed) {
  EXPECT_THAT(Names("we propose a new method named LIFT that first"),
              ElementsAre("LIFT"));
  EXPECT_THAT(Names("a module, termed TabUnit. This"), ElementsAre("TabUnit"));
  EXPECT_THAT(Names("a variant dubbed ResNet-18, which"),
              ElementsAre("ResNet-18"));
  EXPECT_THAT(Names("an approach called Pathformer, a"),
              ElementsAre("Pathformer"));
}

TEST(FindMethodsTest, GivesTheSpanOfTheName) {
  const absl::string_view text = "In short, we propose a method named LIFT.";

  const std::vector<Mention> found = FindMethods(text);

  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].span, (Span{36, 40}));  // Without the final '.'.
}

TEST(FindMethodsTest, WeProposeIntroducePresent) {
  EXPECT_THAT(Names("We propose iTransformer that simply applies"),
              ElementsAre("iTransformer"));
  EXPECT_THAT(Names("We introduce Kosmos-2, a Multimodal Large Language "
                    "Model (MLLM), enabling"),
              ElementsAre("Kosmos-2"));
  EXPECT_THAT(Names("We present Llemma, a large language model"),
              ElementsAre("Llemma"));
  EXPECT_THAT(Names("We then propose the NfgTransformer architecture that"),
              ElementsAre("NfgTransformer"));
}

TEST(FindMethodsTest, OneCapitalWordNeedsACommaOrColonAfterIt) {
  EXPECT_THAT(Names("we propose Hedgehog, a learnable linear attention"),
              ElementsAre("Hedgehog"));
  EXPECT_THAT(Names("we propose Scaling Laws of RoPE-based Extrapolation, a"),
              IsEmpty());
}

TEST(FindMethodsTest, NameColonExpansion) {
  EXPECT_THAT(Names("we introduce MUSE: a mutual-consistent graph method."),
              ElementsAre("MUSE"));
  EXPECT_THAT(Names("Our method, CARE: Contrastive Augmentation-induced "
                    "Rotational Equivariance, leads to"),
              ElementsAre("CARE"));
  EXPECT_THAT(Names("the two abilities of LLMs: (a) recalling facts"),
              IsEmpty());
}

TEST(FindMethodsTest, BoldNames) {
  EXPECT_THAT(
      Names("We present **STanHop-Net** (**S**parse **Tan**dem **Hop**field "
            "**Net**work) for time series. At its heart is **STanHop**, a "
            "block. We fix **6.16\\%** label errors with \\textbf{VWFormer}."),
      ElementsAre("STanHop-Net", "STanHop", "VWFormer"));
  EXPECT_THAT(Names("Random Dropping (**R**D) and **Codable Text "
                    "Watermarking for LLMs** (CTWL)"),
              IsEmpty());
}

TEST(FindMethodsTest, LongNameWithAcronymIntroducedByTheAuthors) {
  EXPECT_THAT(Names("In this paper, we propose Non-negative Contrastive "
                    "Learning (NCL), a renaissance of Non-negative Matrix "
                    "Factorization (NMF)."),
              ElementsAre("NCL"));
  EXPECT_THAT(Names("we propose a novel Cooperative Coevolution QD (CCQD) "
                    "framework"),
              ElementsAre("CCQD"));
  EXPECT_THAT(Names("a distributed RL system called ReaLly Scalable RL (SRL), "
                    "which"),
              ElementsAre("SRL"));
  EXPECT_THAT(Names("we propose a novel lightweight aggregation rule, "
                    "Federated Gradient Projection ($\\texttt{FedGP}$), which"),
              ElementsAre("FedGP"));
}

TEST(FindMethodsTest, AcronymsNotIntroducedAsMethodsAreNot) {
  EXPECT_THAT(Names("Driven by pre-training, Segment Anything Model (SAM) has "
                    "been demonstrated"),
              IsEmpty());
  EXPECT_THAT(Names("we introduce a vector BPP variant called Class-"
                    "Constrained Bin Packing Problem (CCBPP), dealing"),
              IsEmpty());
  EXPECT_THAT(Names("we introduce the concept of scalable neural network "
                    "kernels (SNNKs), the replacements"),
              IsEmpty());
}

TEST(FindMethodsTest, AppositiveAfterAHeadNoun) {
  EXPECT_THAT(Names("It proposes a principled knowledge distillation "
                    "framework, LEVER, which enhances"),
              ElementsAre("LEVER"));
  EXPECT_THAT(Names("we present an efficient one-shot fine-tuning variant, "
                    "PerSAM-F."),
              ElementsAre("PerSAM-F"));
}

TEST(FindMethodsTest, CommonWordsAndDescriptionsAreNotNames) {
  EXPECT_THAT(Names("We propose a novel method for detection."), IsEmpty());
  EXPECT_THAT(Names("we propose a learning-based Encoder-Decoder Model."),
              IsEmpty());
  EXPECT_THAT(Names("we propose CLIP-guided decoding."), IsEmpty());
  EXPECT_THAT(Names("the efficacy of our approach. Lastly, we demonstrate"),
              IsEmpty());
  EXPECT_THAT(Names("we propose two generic lower bounds"), IsEmpty());
  EXPECT_THAT(Names("termed delphic uncertainty, which"), IsEmpty());
}

TEST(FindMethodsTest, NamesIntroducedAsBenchmarksAreLeftToDatasets) {
  EXPECT_THAT(Names("This work introduces SKILL-MIX, a new evaluation to "
                    "measure ability"),
              IsEmpty());
  EXPECT_THAT(Names("we introduce PassUntil, an evaluation strategy with"),
              ElementsAre("PassUntil"));
}

TEST(FindMethodsTest, EachNameOnceAtItsFirstIntroduction) {
  const std::vector<Mention> found = FindMethods(
      "we devise a method named **Balance-Marking**. Balance-Marking works.");

  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].name, "Balance-Marking");
  EXPECT_EQ(found[0].span, (Span{27, 42}));
}

}  // namespace
}  // namespace paperdb::extract
