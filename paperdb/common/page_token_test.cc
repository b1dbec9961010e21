#include "paperdb/common/page_token.h"

#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace paperdb {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;

TEST(PageTokenTest, RoundTripsPosition) {
  const std::string token = EncodePageToken("search", 42, 130);

  absl::StatusOr<uint64_t> position = DecodePageToken(token, "search", 42);

  ASSERT_THAT(position, IsOk());
  EXPECT_EQ(*position, 130u);
}

TEST(PageTokenTest, RejectsGarbageAndTamperedTokens) {
  std::string token = EncodePageToken("search", 42, 130);
  token[3] = token[3] == 'A' ? 'B' : 'A';

  for (const std::string& bad :
       {std::string("garbage!"), std::string("Zm9v"), token}) {
    EXPECT_THAT(DecodePageToken(bad, "search", 42),
                StatusIs(absl::StatusCode::kInvalidArgument))
        << bad;
  }
}

// Found by a hostile tester: a forged token (the checksum is not a secret)
// at position 2^64 - 1 gave a next page token at position 99, so a client
// following tokens looped.
TEST(PageTokenTest, RejectsPositionsNoListingReaches) {
  EXPECT_THAT(
      DecodePageToken(EncodePageToken("search", 7, kMaxPageTokenPosition),
                      "search", 7),
      IsOk());
  EXPECT_THAT(
      DecodePageToken(EncodePageToken("search", 7, kMaxPageTokenPosition + 1),
                      "search", 7),
      StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(
      DecodePageToken(EncodePageToken("search", 7, UINT64_MAX), "search", 7),
      StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(PageTokenTest, RejectsTokenOfAnotherRequest) {
  const std::string token = EncodePageToken("search", 42, 130);

  EXPECT_THAT(DecodePageToken(token, "search", 43),
              StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(DecodePageToken(token, "list", 42),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

}  // namespace
}  // namespace paperdb
