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

TEST_F(PostingCacheTest, DenseListsGetABitsetOfTheirDocs) {
  ASSERT_THAT(writer_->Commit({MakePaper("u1", "unicorns", "u.txt"),
                               MakePaper("u2", "unicorns", "u.txt")}),
              IsOk());
  PostingCache cache(1 << 20);
  auto spike = cache.Get(*store_, "spike");      // 150 of docs 0-298.
  auto unicorn = cache.Get(*store_, "unicorn");  // 2 of docs 0-301.
  ASSERT_THAT(spike, IsOk());
  ASSERT_THAT(unicorn, IsOk());
  EXPECT_TRUE((*unicorn)->doc_bits.empty());
  ASSERT_EQ((*spike)->doc_bits.size(), 5u);  // Bits for docs 0-319.
  EXPECT_TRUE((*spike)->Contains(128));
  EXPECT_FALSE((*spike)->Contains(129));
  EXPECT_FALSE((*spike)->Contains(5000));
  EXPECT_EQ((*spike)->NextDoc(127), 128u);  // Across a word of 64 bits.
  EXPECT_EQ((*spike)->NextDoc(129), 130u);
  EXPECT_EQ((*spike)->NextDoc(298), 298u);
  EXPECT_EQ((*spike)->NextDoc(299), UINT32_MAX);
  // Docs of the list before a doc, from a block's first doc: its index.
  EXPECT_EQ((*spike)->Rank(0, 0), 0u);
  EXPECT_EQ((*spike)->Rank(0, 128), 64u);    // 0, 2, ..., 126.
  EXPECT_EQ((*spike)->Rank(128, 200), 36u);  // 128, ..., 198.
  EXPECT_EQ((*spike)->Rank(1, 3), 1u);       // 2.
  EXPECT_EQ((*spike)->Rank(0, 298), 149u);
}

// An Advance() by the bitset leaves the block to be found on demand: what
// is read there must be the posting of doc(), as a walk finds it.
TEST_F(PostingCacheTest, IteratorAdvancedByTheBitsetReadsTheRightPosting) {
  PostingIterator advanced(*store_, "spike");
  PostingIterator walked(*store_, "spike");
  for (const uint32_t target : {3u, 128u, 200u, 255u, 298u}) {
    SCOPED_TRACE(target);
    advanced.Advance(target);
    while (walked.doc() < target) walked.Next();
    ASSERT_EQ(advanced.doc(), walked.doc());
    EXPECT_EQ(advanced.doc(), target + target % 2);
    EXPECT_EQ(advanced.tf(), 1u);
    EXPECT_EQ(advanced.doc_length(), walked.doc_length());
    absl::StatusOr<std::vector<uint32_t>> positions = advanced.Positions();
    ASSERT_THAT(positions, IsOk());
    EXPECT_EQ(*positions, std::vector<uint32_t>{2});  // "delays and spikes"
  }
  advanced.Next();  // From the found posting on.
  EXPECT_EQ(advanced.doc(), kNoMoreDocs);
  EXPECT_THAT(advanced.status(), IsOk());
}

}  // namespace
}  // namespace paperdb::index
