#include "paperdb/search/paired_docs.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace paperdb::search {
namespace {

std::vector<uint64_t> BitsOf(const std::vector<uint32_t>& docs) {
  std::vector<uint64_t> bits;
  for (const uint32_t d : docs) {
    if (d / 64 >= bits.size()) bits.resize(d / 64 + 1);
    bits[d / 64] |= uint64_t{1} << (d % 64);
  }
  return bits;
}

// Every doc Next() finds, from 0 to `to`.
std::vector<uint32_t> All(PairedDocs& paired, uint32_t to) {
  std::vector<uint32_t> docs;
  for (uint32_t d = paired.Next(0, to); d != UINT32_MAX;
       d = paired.Next(d + 1, to)) {
    docs.push_back(d);
  }
  return docs;
}

TEST(PairedDocsTest, DocsInTwoBitsetsOneOfThemNeeded) {
  const std::vector<uint64_t> needed = BitsOf({3, 64, 70, 130, 200, 255});
  const std::vector<uint64_t> a = BitsOf({3, 5, 70, 131, 200});
  const std::vector<uint64_t> b = BitsOf({5, 64, 131, 200});  // Ends at 255.
  PairedDocs paired;
  paired.Add(needed, true);
  paired.Add(a, false);
  paired.Add(b, false);
  // 5 and 131 are in a and b only: not needed.
  EXPECT_EQ(All(paired, 300), (std::vector<uint32_t>{3, 64, 70, 200}));
  // The range's ends are kept to, inside a word and at its edges.
  EXPECT_EQ(paired.Next(4, 300), 64u);
  EXPECT_EQ(paired.Next(71, 199), UINT32_MAX);
  EXPECT_EQ(paired.Next(64, 64), 64u);
  EXPECT_EQ(paired.Next(0, 2), UINT32_MAX);
  EXPECT_EQ(paired.Next(10, 5), UINT32_MAX);
  EXPECT_EQ(paired.Next(201, UINT32_MAX), UINT32_MAX);  // Past every bitset.
  EXPECT_EQ(paired.Next(0, UINT32_MAX), 3u);
}

TEST(PairedDocsTest, TwoNeededBitsetsPairWithEachOther) {
  const std::vector<uint64_t> x = BitsOf({1, 63, 64, 127});
  const std::vector<uint64_t> y = BitsOf({63, 127, 128});
  PairedDocs paired;
  paired.Add(x, true);
  paired.Add(y, true);
  EXPECT_EQ(All(paired, 1000), (std::vector<uint32_t>{63, 127}));
  paired.Clear();
  EXPECT_TRUE(paired.empty());
  paired.Add(x, true);  // One bitset alone pairs with nothing.
  EXPECT_EQ(paired.Next(0, 1000), UINT32_MAX);
}

}  // namespace
}  // namespace paperdb::search
