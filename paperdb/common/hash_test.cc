#include "paperdb/common/hash.h"

#include "gtest/gtest.h"

namespace paperdb {
namespace {

// Reference values from xxHash's own test vectors (XXH3 of the empty input),
// so a change of algorithm or seed, which would change every stored id, fails.
TEST(HashTest, EmptyInputMatchesXxh3ReferenceValue) {
  EXPECT_EQ(Hash64(""), 0x2D06800538D394C2ULL);
  EXPECT_EQ(Hash64Hex(""), "2d06800538d394c2");
}

TEST(HashTest, HexFormsHaveFixedWidth) {
  EXPECT_EQ(Hash64Hex("ICLR").size(), 16u);
  EXPECT_EQ(Hash128Hex("ICLR").size(), 32u);
  EXPECT_NE(Hash64Hex("ICLR"), Hash64Hex("ICLR "));
}

}  // namespace
}  // namespace paperdb
