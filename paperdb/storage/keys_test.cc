#include "paperdb/storage/keys.h"

#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace paperdb::storage {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;

TEST(PaperKeyTest, RoundTripsBoundaryIds) {
  for (const uint32_t doc_id : {0u, 1u, 255u, 256u, UINT32_MAX}) {
    absl::StatusOr<uint32_t> decoded = DocIdFromPaperKey(PaperKey(doc_id));
    ASSERT_THAT(decoded, IsOk()) << doc_id;
    EXPECT_EQ(*decoded, doc_id);
  }
}

TEST(PaperKeyTest, BytewiseOrderIsNumericOrder) {
  EXPECT_LT(PaperKey(255), PaperKey(256));
  EXPECT_LT(PaperKey(65535), PaperKey(65536));
}

TEST(PaperKeyTest, RejectsKeysOfWrongLength) {
  EXPECT_THAT(DocIdFromPaperKey("abc"),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(PostingKeyTest, StartsWithPrefixAndRoundTripsFirstDoc) {
  const std::string key = PostingKey("delay", 70000);

  EXPECT_EQ(key.substr(0, 6), PostingPrefix("delay"));
  EXPECT_EQ(key.size(), 10u);
  ASSERT_THAT(FirstDocFromPostingKey(key), IsOk());
  EXPECT_EQ(*FirstDocFromPostingKey(key), 70000u);
}

TEST(PostingKeyTest, PrefixOfOneTermIsNotPrefixOfALongerTerm) {
  EXPECT_NE(PostingKey("delays", 0).substr(0, 6), PostingPrefix("delay"));
}

TEST(PostingKeyTest, RejectsMalformedKey) {
  EXPECT_THAT(FirstDocFromPostingKey("abcdef"),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

}  // namespace
}  // namespace paperdb::storage
