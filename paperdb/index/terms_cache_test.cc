#include "paperdb/index/terms_cache.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::index {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::MakePaper;
using ::testing::ElementsAre;

class TermsCacheTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    ASSERT_THAT(writer_->Commit({MakePaper("a", "delays and spikes"),
                                 MakePaper("b", "delays matter"),
                                 MakePaper("c", "delta rule")}),
                IsOk());
  }
};

TEST_F(TermsCacheTest, DocumentFrequencyIsCachedUntilTheStoreChanges) {
  TermsCache cache(100);

  EXPECT_EQ(*cache.DocumentFrequency(*store_, "delay"), 2u);
  EXPECT_EQ(*cache.DocumentFrequency(*store_, "delay"), 2u);
  EXPECT_EQ(*cache.DocumentFrequency(*store_, "absent"), 0u);
  EXPECT_EQ(cache.size(), 2u);

  ASSERT_THAT(writer_->Commit({MakePaper("d", "delays again", "b.txt")}),
              IsOk());

  EXPECT_EQ(*cache.DocumentFrequency(*store_, "delay"), 3u);
}

TEST_F(TermsCacheTest, ScanReturnsTermsWithThePrefixAndIsCached) {
  TermsCache cache(100);

  auto first = cache.Scan(*store_, "del", 10);
  auto again = cache.Scan(*store_, "del", 10);

  ASSERT_THAT(first, IsOk());
  EXPECT_THAT(*first, ElementsAre(TermDf{"delay", 2}, TermDf{"delta", 1}));
  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(*again, *first);
  EXPECT_EQ(cache.size(), 1u);
  // A limit counts returned terms.
  EXPECT_THAT(*cache.Scan(*store_, "del", 1), ElementsAre(TermDf{"delay", 2}));
  // Long scans are not kept.
  ASSERT_THAT(cache.Scan(*store_, "del", TermsCache::kMaxCachedScan + 1),
              IsOk());
  EXPECT_EQ(cache.size(), 2u);
}

TEST_F(TermsCacheTest, KeepsAtMostItsEntryLimitDroppingTheLeastRecent) {
  TermsCache cache(2);
  ASSERT_THAT(cache.DocumentFrequency(*store_, "delay"), IsOk());
  ASSERT_THAT(cache.DocumentFrequency(*store_, "spike"), IsOk());
  ASSERT_THAT(cache.DocumentFrequency(*store_, "delay"), IsOk());  // Used.
  ASSERT_THAT(cache.DocumentFrequency(*store_, "matter"), IsOk());

  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(*cache.DocumentFrequency(*store_, "delay"), 2u);
  EXPECT_EQ(cache.size(), 2u);  // "delay" was still held: nothing evicted.
}

}  // namespace
}  // namespace paperdb::index
