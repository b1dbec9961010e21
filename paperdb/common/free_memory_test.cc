#include "paperdb/common/free_memory.h"

#include <memory>
#include <vector>

#include "gtest/gtest.h"

namespace paperdb {
namespace {

// This test binary links tcmalloc as the services do (not in sanitizer
// builds, which bring their own allocator).
TEST(FreeMemoryTest, FreedPagesGoBackToTheSystem) {
  constexpr size_t kChunk = 256 << 10;  // Large: served from the page heap.
  constexpr size_t kChunks = 256;       // 64 MiB.
  {
    std::vector<std::unique_ptr<char[]>> chunks;
    for (size_t i = 0; i < kChunks; ++i) {
      chunks.push_back(std::make_unique<char[]>(kChunk));
      chunks.back()[0] = 1;
    }
  }
  const size_t held = FreeMemoryHeldBytes();
  if (held == 0) GTEST_SKIP() << "not linked with tcmalloc";
  EXPECT_GE(held, kChunk * kChunks / 2);
  ReleaseFreeMemory();
  EXPECT_LT(FreeMemoryHeldBytes(), size_t{1} << 20);
}

}  // namespace
}  // namespace paperdb
