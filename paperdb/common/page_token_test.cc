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

TEST(PageTokenTest, RoundTripsStateBytes) {
  const std::string state("\x08\x01:\0\xff state", 11);
  const std::string token = EncodePageToken("search", 42, PageCursor{7, state});

  absl::StatusOr<PageCursor> cursor = DecodePageCursor(token, "search", 42);

  ASSERT_THAT(cursor, IsOk());
  EXPECT_EQ(cursor->position, 7u);
  EXPECT_EQ(cursor->state, state);
  // A token without state decodes with empty state.
  EXPECT_EQ(DecodePageCursor(EncodePageToken("list", 0, 9), "list", 0)->state,
            "");
}

TEST(PageTokenTest, RejectsTamperedState) {
  std::string token = EncodePageToken("search", 42, PageCursor{7, "state"});
  token[token.size() - 10] = token[token.size() - 10] == 'A' ? 'B' : 'A';

  EXPECT_THAT(DecodePageCursor(token, "search", 42),
              StatusIs(absl::StatusCode::kInvalidArgument));
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

// A forged token (the checksum is not a secret) at a position no listing
// reaches, such as 2^64 - 1, is refused: its next page token would wrap to
// an early position, and a client following tokens would loop.
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
