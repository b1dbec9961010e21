#include "ingest_service/ingester.h"

#include <filesystem>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::ingest {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;
using ::testing::HasSubstr;

class IngesterTest : public ::paperdb::testing::StoreFixture {};

TEST_F(IngesterTest, CountsAddedUnchangedAndSkipped) {
  Ingester ingester(writer_.get());
  const std::string content =
      "ICLR 2024 论文列表\n\nAlpha beta.\n\nGamma.\n\nAlpha "
      "beta.\n\n----\n\n[2]\n";

  absl::StatusOr<FileSummary> first = ingester.IngestContent("a.txt", content);
  absl::StatusOr<FileSummary> second = ingester.IngestContent("a.txt", content);

  ASSERT_THAT(first, IsOk());
  EXPECT_EQ(first->added, 2);
  EXPECT_EQ(first->skipped, 3);  // The repeat, "----" and "[2]" (no word).
  ASSERT_THAT(second, IsOk());
  EXPECT_EQ(second->added, 0);
  EXPECT_EQ(second->unchanged, 2);
  EXPECT_EQ(writer_->stats().doc_count(), 2u);
}

TEST_F(IngesterTest, RejectsBadFileNames) {
  Ingester ingester(writer_.get());
  const std::string content = "ICLR 2024 论文列表\n\nText.\n";

  for (const std::string& name :
       {std::string(""), std::string("lat\xE9.txt"), std::string("a\nb.txt"),
        std::string(2000, 'n')}) {
    EXPECT_THAT(ingester.IngestContent(name, content),
                StatusIs(absl::StatusCode::kInvalidArgument))
        << name;
  }
  EXPECT_THAT(ingester.IngestContent("../../etc/passwd", content), IsOk());
  EXPECT_EQ(writer_->stats().doc_count(), 1u);
}

TEST_F(IngesterTest, AbstractOverTheLimitRejectsTheWholeFile) {
  Ingester ingester(writer_.get(), IngestOptions{.max_abstract_bytes = 20});
  const std::string content =
      "ICLR 2024 论文列表\n\nShort one.\n\nThis abstract is far too long.\n";

  absl::StatusOr<FileSummary> summary =
      ingester.IngestContent("big.txt", content);

  EXPECT_THAT(summary, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(
      summary.status().message(),
      HasSubstr("big.txt: line 5, byte 36: abstract of 30 bytes is longer "
                "than the limit of 20"));
  EXPECT_EQ(writer_->stats().doc_count(), 0u);
}

}  // namespace
}  // namespace paperdb::ingest
