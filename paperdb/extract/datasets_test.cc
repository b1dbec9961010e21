#include "paperdb/extract/datasets.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace paperdb::extract {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> Names(absl::string_view text) {
  std::vector<std::string> names;
  for (const Mention& m : FindDatasets(text)) names.push_back(m.name);
  return names;
}

TEST(CuratedDatasetsTest, ListIsCompiledInWithAliases) {
  EXPECT_GE(CuratedDatasetCount(), 150u);
  EXPECT_EQ(CanonicalDatasetName("CIFAR10"), "CIFAR-10");
  EXPECT_EQ(CanonicalDatasetName("Wikitext2"), "WikiText-2");
  EXPECT_EQ(CanonicalDatasetName("the Pile"), "The Pile");
  EXPECT_EQ(CanonicalDatasetName("ImageNet"), "ImageNet");
  EXPECT_EQ(CanonicalDatasetName("novel"), std::nullopt);
}

TEST(FindDatasetsTest, ReportsCanonicalNamesAndWrittenSpans) {
  const absl::string_view text =
      "models on CIFAR10 and FFHQ, then CIFAR10 again.";

  const std::vector<Mention> found = FindDatasets(text);

  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].name, "CIFAR-10");
  EXPECT_EQ(found[0].span, (Span{10, 17}));
  EXPECT_EQ(found[1].name, "FFHQ");
}

TEST(FindDatasetsTest, MatchesWholeTokensOnlyAndTheLongestSpelling) {
  EXPECT_THAT(Names("on CIFAR-100 and ImageNet-1K."),
              ElementsAre("CIFAR-100", "ImageNet"));
  EXPECT_THAT(Names("FLAN-MoE-32B beats MNISTs and xCOCO"), IsEmpty());
  EXPECT_THAT(Names("the Spiking Speech Commands (SSC) and Google Speech "
                    "Commands v0.02"),
              ElementsAre("Spiking Speech Commands", "Google Speech Commands"));
}

TEST(FindDatasetsTest, CaseMatters) {
  EXPECT_THAT(Names("On the MATH benchmark"), ElementsAre("MATH"));
  EXPECT_THAT(Names("math and glue and imagenet"), IsEmpty());
}

TEST(FindDatasetsTest, TheXBenchmarkPattern) {
  EXPECT_THAT(Names("experiments on the QDAX suite and the XYZ-7 dataset"),
              ElementsAre("QDAX", "XYZ-7"));
  EXPECT_THAT(Names("on several XC datasets and common RL benchmarks"),
              IsEmpty());
}

TEST(FindDatasetsTest, DatasetsTheAbstractIntroduces) {
  EXPECT_THAT(Names("we construct a new dataset, PerSeg, for the evaluation"),
              ElementsAre("PerSeg"));
  EXPECT_THAT(Names("the corresponding *Datasets with Diverse human "
                    "Demonstrations for Imitation Learning (D3IL)*, designed"),
              ElementsAre("D3IL"));
  EXPECT_THAT(Names("a large-scale dataset about grounded image-text pairs "
                    "(GrIT) together"),
              ElementsAre("GrIT"));
  EXPECT_THAT(Names("This work introduces SKILL-MIX, a new evaluation to "
                    "measure"),
              ElementsAre("SKILL-MIX"));
  EXPECT_THAT(Names("we introduce PassUntil, an evaluation strategy"),
              IsEmpty());
}

TEST(FindDatasetsTest, TrailingPunctuationIsNotPartOfTheSpan) {
  const std::vector<Mention> found = FindDatasets("trained on ImageNet.");

  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].span, (Span{11, 19}));
}

}  // namespace
}  // namespace paperdb::extract
