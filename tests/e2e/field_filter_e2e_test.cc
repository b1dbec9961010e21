// Field filters over real gRPC on loopback, against the bundled ICLR 2024
// lists: how a typed venue, dataset or method name finds the names papers
// are indexed under.

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

class FieldFilterE2eTest : public ServiceFixture {
 protected:
  v1::SearchPapersResponse Search(const std::string& query) {
    v1::SearchPapersRequest request;
    request.set_query(query);
    return SearchOk(std::move(request));
  }
};

TEST_F(FieldFilterE2eTest, DatasetAndMethodFiltersIgnoreHyphensAndSpaces) {
  const int64_t canonical = Search("dataset:CIFAR-10").total_size();
  ASSERT_GE(canonical, 1);
  EXPECT_EQ(Search("dataset:CIFAR10").total_size(), canonical);
  EXPECT_EQ(Search("dataset:\"cifar 10\"").total_size(), canonical);
  // U+2010 HYPHEN and U+2011 NON-BREAKING HYPHEN are hyphens.
  EXPECT_EQ(Search("dataset:CIFAR\u201010").total_size(), canonical);
  EXPECT_EQ(Search("dataset:CIFAR\u201110").total_size(), canonical);
  EXPECT_EQ(Search("method:stanhopnet").total_size(),
            Search("method:STanHop-Net").total_size());
}

TEST_F(FieldFilterE2eTest, ANameNoPaperWritesIsItsNumberedVariants) {
  // The bundled papers name WikiText-2 or WikiText-103, never "WikiText".
  EXPECT_EQ(Search("dataset:WikiText").total_size(),
            Search("dataset:WikiText-2 OR dataset:WikiText-103").total_size());
  EXPECT_EQ(Search("dataset:WikiText").total_size(), 2);
  // A word that merely starts a name is not its family: ImageNet is not
  // "Image".
  EXPECT_EQ(Search("dataset:Image").total_size(), 0);
  // A venue written with its year, as a list's header writes it.
  EXPECT_EQ(Search("venue:\"ICLR 2024\"").total_size(), 76);
  EXPECT_EQ(Search("venue:\"ICLR 2023\"").total_size(), 0);
}

// A group of filters, "(has:code OR host:gitlab.com)", restricts as one
// filter does: among partial matches and in the any-term fallback too, and
// it is never a word a paper may lack.
TEST_F(FieldFilterE2eTest, AGroupOfFiltersRestrictsInEveryMode) {
  const v1::SearchPapersResponse one = Search("has:code spiking delays");
  const v1::SearchPapersResponse group =
      Search("(has:code OR host:gitlab.com) spiking delays");
  ASSERT_GE(one.total_size(), 1);
  EXPECT_EQ(group.total_size(), one.total_size());
  ASSERT_EQ(group.results_size(), one.results_size());
  for (int i = 0; i < group.results_size(); ++i) {
    EXPECT_EQ(group.results(i).paper().id(), one.results(i).paper().id());
    EXPECT_TRUE(group.results(i).paper().has_code());
  }
  // No bundled paper is of NeurIPS: the venues' group keeps ICLR's two
  // spiking papers only, however many papers hold neither word.
  EXPECT_EQ(Search("(venue:ICLR OR venue:NeurIPS) spiking").total_size(),
            Search("venue:ICLR spiking").total_size());
  EXPECT_EQ(Search("venue:ICLR spiking").total_size(), 2);
  // The any-term fallback keeps the group: no bundled paper is of a year
  // before 2024 or of NeurIPS.
  const v1::SearchPapersResponse fallback =
      Search("(year:2020..2023 OR venue:NeurIPS) spiking delays");
  EXPECT_EQ(fallback.total_size(), 0);
  EXPECT_EQ(fallback.results_size(), 0);
}

}  // namespace
}  // namespace paperdb::testing
