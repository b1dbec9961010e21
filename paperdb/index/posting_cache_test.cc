#include "paperdb/index/posting_cache.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/index/posting_iterator.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::index {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::MakePaper;

class PostingCacheTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    // 300 papers with "delay": three blocks of up to 128 postings.
    std::vector<v1::Paper> papers;
    for (int i = 0; i < 300; ++i) {
      papers.push_back(MakePaper("p" + std::to_string(i),
                                 i % 2 ? "delays" : "delays and spikes"));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }
};

TEST_F(PostingCacheTest, ReadsEveryBlockWithItsDirectory) {
  PostingCache cache(1 << 20);

  auto list = cache.Get(*store_, "delay");

  ASSERT_THAT(list, IsOk());
  ASSERT_EQ((*list)->blocks.size(), 3u);
  EXPECT_EQ((*list)->blocks[0].first_doc, 0u);
  EXPECT_EQ((*list)->blocks[0].header.last_doc, 127u);
  EXPECT_EQ((*list)->blocks[1].first_doc, 128u);
  EXPECT_EQ((*list)->blocks[2].header.last_doc, 299u);
  EXPECT_EQ((*list)->blocks[2].header.count, 44u);
}

TEST_F(PostingCacheTest, SecondReadIsTheSameListUntilTheStoreChanges) {
  PostingCache cache(1 << 20);
  auto first = cache.Get(*store_, "spike");
  auto again = cache.Get(*store_, "spike");
  ASSERT_THAT(first, IsOk());
  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(first->get(), again->get());
  EXPECT_EQ(cache.size(), 1u);

  ASSERT_THAT(writer_->Commit({MakePaper("new", "spikes")}), IsOk());
  auto after = cache.Get(*store_, "spike");

  ASSERT_THAT(after, IsOk());
  EXPECT_NE(after->get(), first->get());
  EXPECT_EQ((*after)->blocks.back().header.last_doc, 300u);  // The new doc.
  EXPECT_EQ(cache.size(), 1u);  // The stale entry was replaced.
}

TEST_F(PostingCacheTest, EvictsLeastRecentlyUsedWithinBudget) {
  auto delay = ReadPostingList(*store_, "delay");
  auto spike = ReadPostingList(*store_, "spike");
  ASSERT_THAT(delay, IsOk());
  ASSERT_THAT(spike, IsOk());
  // Room for both lists' bytes but not a third list as large as "delay";
  // each is within an eighth of the budget.
  const size_t budget = 8 * (*delay)->ByteSize();
  ASSERT_LT((*delay)->ByteSize() + (*spike)->ByteSize(), budget);
  PostingCache cache(budget);
  ASSERT_THAT(cache.Get(*store_, "delay"), IsOk());
  ASSERT_THAT(cache.Get(*store_, "spike"), IsOk());
  EXPECT_EQ(cache.size(), 2u);

  cache.SetCapacity((*delay)->ByteSize() + (*spike)->ByteSize() - 1);

  EXPECT_EQ(cache.size(), 1u);  // "delay", used first, went first.
  EXPECT_EQ(cache.ByteSize(), (*spike)->ByteSize());

  cache.SetCapacity(0);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.ByteSize(), 0u);
  ASSERT_THAT(cache.Get(*store_, "delay"), IsOk());
  EXPECT_EQ(cache.size(), 0u);  // Nothing is cached with no budget.
}

TEST_F(PostingCacheTest, IteratorSkipsToAnyDocThroughTheDirectory) {
  PostingIterator delay(*store_, "delay");
  delay.Advance(200);
  EXPECT_EQ(delay.doc(), 200u);
  delay.Advance(299);
  EXPECT_EQ(delay.doc(), 299u);
  delay.Next();
  EXPECT_EQ(delay.doc(), kNoMoreDocs);
  PostingIterator spike(*store_, "spike");  // Even docs only.
  spike.Advance(127);
  EXPECT_EQ(spike.doc(), 128u);
  spike.Advance(299);
  EXPECT_EQ(spike.doc(), kNoMoreDocs);
  EXPECT_THAT(spike.status(), IsOk());
}

}  // namespace
}  // namespace paperdb::index
