#include "paperdb/index/posting_block.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace paperdb::index {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;
using ::testing::ElementsAre;

std::string ThreePostings() {
  PostingBlockBuilder builder;
  builder.Add(100, 40, {3});
  builder.Add(105, 12, {0, 7, 9});
  builder.Add(300, 90, {88, 89});
  return builder.Finish();
}

TEST(PostingBlockTest, RoundTripsDocsTfsLengthsAndPositions) {
  absl::StatusOr<PostingBlock> block =
      PostingBlock::Decode(100, ThreePostings());
  ASSERT_THAT(block, IsOk());

  ASSERT_EQ(block->size(), 3u);
  EXPECT_EQ(block->doc(1), 105u);
  EXPECT_EQ(block->doc(2), 300u);
  EXPECT_EQ(block->tf(1), 3u);
  EXPECT_EQ(block->doc_length(2), 90u);
  EXPECT_THAT(*block->Positions(2), ElementsAre(88, 89));
  EXPECT_THAT(*block->Positions(1), ElementsAre(0, 7, 9));  // Going back works.
}

TEST(PostingBlockTest, HeaderBoundsTheBlock) {
  absl::StatusOr<PostingBlockHeader> header =
      DecodePostingBlockHeader(100, ThreePostings());
  ASSERT_THAT(header, IsOk());

  EXPECT_EQ(header->count, 3u);
  EXPECT_EQ(header->last_doc, 300u);
  EXPECT_EQ(header->max_tf, 3u);
  EXPECT_EQ(header->min_doc_length, 12u);
}

TEST(PostingBlockTest, TruncatedBlockIsDataLoss) {
  const std::string value = ThreePostings();
  for (size_t cut : {size_t{0}, size_t{3}, value.size() / 2}) {
    std::string truncated = value.substr(0, cut);
    absl::StatusOr<PostingBlock> block = PostingBlock::Decode(100, truncated);
    if (block.ok()) {
      // Only the positions section was cut: asking for them must fail.
      EXPECT_THAT(block->Positions(2), StatusIs(absl::StatusCode::kDataLoss))
          << cut;
    } else {
      EXPECT_THAT(block, StatusIs(absl::StatusCode::kDataLoss)) << cut;
    }
  }
}

}  // namespace
}  // namespace paperdb::index
