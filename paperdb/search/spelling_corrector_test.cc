#include "paperdb/search/spelling_corrector.h"

#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::search {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::MakePaper;

class SpellingCorrectionsTest : public ::paperdb::testing::StoreFixture {};

TEST_F(SpellingCorrectionsTest, AnAnswerHoldsUntilTheStoreChanges) {
  ASSERT_THAT(writer_->Commit({MakePaper("a", "semantic segmentation")}),
              IsOk());

  auto first = SpellingCorrections(*store_, "segmantation", "segmant", {});
  auto again = SpellingCorrections(*store_, "segmantation", "segmant", {});
  ASSERT_THAT(writer_->Commit({MakePaper("b", "segmentation masks", "b.txt")}),
              IsOk());
  auto after = SpellingCorrections(*store_, "segmantation", "segmant", {});

  ASSERT_THAT(first, IsOk());
  ASSERT_EQ(first->size(), 1u);
  EXPECT_EQ((*first)[0].term, "segment");
  EXPECT_EQ((*first)[0].word, "segmentation");
  EXPECT_EQ((*first)[0].df, 1u);
  ASSERT_THAT(again, IsOk());
  ASSERT_EQ(again->size(), 1u);
  EXPECT_EQ((*again)[0].df, 1u);
  ASSERT_THAT(after, IsOk());
  ASSERT_EQ(after->size(), 1u);
  EXPECT_EQ((*after)[0].df, 2u);
}

// A correction is within the documented distance of a word the corpus
// writes, not of its stem plus any suffix: "neuralabc" is two edits from
// "neural" + "able", which no paper writes.
TEST_F(SpellingCorrectionsTest, TheDistanceIsToAWordTheCorpusWrites) {
  ASSERT_THAT(writer_->Commit({MakePaper("a", "neural networks")}), IsOk());

  auto far = SpellingCorrections(*store_, "neuralabc", "neuralabc", {});
  // Nor of an inflection no paper writes: "neural" + "y", "neural" + "e".
  auto made_up = SpellingCorrections(*store_, "neuralxyz", "neuralxyz", {});
  auto made_up_es = SpellingCorrections(*store_, "neuralnet", "neuralnet", {});
  auto near = SpellingCorrections(*store_, "nueral", "nueral", {});

  ASSERT_THAT(far, IsOk());
  EXPECT_TRUE(far->empty());
  ASSERT_THAT(made_up, IsOk());
  EXPECT_TRUE(made_up->empty());
  ASSERT_THAT(made_up_es, IsOk());
  EXPECT_TRUE(made_up_es->empty());
  ASSERT_THAT(near, IsOk());
  ASSERT_EQ(near->size(), 1u);
  EXPECT_EQ((*near)[0].term, "neural");
}

TEST(EditDistanceTest, CountsATranspositionAsOneEdit) {
  EXPECT_EQ(EditDistance(U"nueral", U"neural", 2), 1u);
  EXPECT_EQ(EditDistance(U"modles", U"models", 2), 1u);
}

TEST(EditDistanceTest, CountsCodePointsNotBytes) {
  EXPECT_EQ(EditDistance(U"caf\u00e9", U"cafe", 2), 1u);
}

TEST(EditDistanceTest, StopsPastTheMaximum) {
  EXPECT_EQ(EditDistance(U"reword", U"record", 2), 1u);
  EXPECT_EQ(EditDistance(U"rewording", U"reward", 2), 3u);  // Max + 1.
  EXPECT_EQ(EditDistance(U"abc", U"abcdefgh", 1), 2u);
}

}  // namespace
}  // namespace paperdb::search
