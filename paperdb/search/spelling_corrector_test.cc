#include "paperdb/search/spelling_corrector.h"

#include "gtest/gtest.h"

namespace paperdb::search {
namespace {

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
