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

TEST(PageTokenTest, RejectsTokenOfAnotherRequest) {
  const std::string token = EncodePageToken("search", 42, 130);

  EXPECT_THAT(DecodePageToken(token, "search", 43),
              StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(DecodePageToken(token, "list", 42),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

}  // namespace
}  // namespace paperdb
