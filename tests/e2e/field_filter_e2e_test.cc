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

}  // namespace
}  // namespace paperdb::testing
