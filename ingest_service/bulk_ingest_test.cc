#include "ingest_service/bulk_ingest.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::ingest {
namespace {

using ::paperdb::testing::IsOk;

class BulkIngestTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::filesystem::create_directories(dir_ / "in");
  }

  std::string Write(const std::string& name, const std::string& content) {
    const std::filesystem::path path = dir_ / "in" / name;
    std::ofstream(path, std::ios::binary) << content;
    return path.string();
  }
};

TEST_F(BulkIngestTest, ReportsEveryFileInInputOrderAcrossBatches) {
  Ingester ingester(writer_.get(), store_.get());
  const std::vector<std::string> paths = {
      Write("1.txt", "ICLR 2024 论文列表\n\nAlpha.\n\nBeta.\n"),
      Write("2.txt", "no header\n\nGamma.\n"),
      Write("3.txt", "ICLR 2024 论文列表\n\nAlpha.\n\nDelta.\n"),
      Write("a\nb.txt", "ICLR 2024 论文列表\n\nEpsilon.\n"),
  };
  std::ostringstream out;
  std::ostringstream progress;
  BulkIngestOptions options;
  options.batch_bytes = 1;  // A commit per file.
  options.lookahead = 2;
  options.progress = &progress;

  const BulkIngestReport report = BulkIngest(ingester, paths, options, out);

  EXPECT_EQ(
      out.str(),
      "1.txt: 2 added, 0 updated, 0 unchanged, 0 removed, 0 skipped, 0 "
      "rejected\n"
      "2.txt: rejected, nothing stored: 2.txt: line 1, byte 0: no header: "
      "the first line \"no header\"; expected '<venue> [<year>] 论文列表' or "
      "'<venue> [<year>] paper list', e.g. \"ICLR 2024 paper list\"\n"
      "3.txt: 1 added, 0 updated, 1 unchanged, 0 removed, 0 skipped, "
      "0 rejected\n"
      "a\\nb.txt: rejected, nothing stored: file name \"a\\nb.txt\": byte 1: "
      "U+000A is a control character, which could change how the name is "
      "shown\n");
  // The status line is drawn after each commit and erased at the end.
  EXPECT_THAT(progress.str(),
              ::testing::AllOf(
                  ::testing::HasSubstr("[1/4 files] 2 papers added, 0.0 MiB"),
                  ::testing::HasSubstr("[3/4 files] 3 papers added"),
                  ::testing::EndsWith("\r\033[K")));
  EXPECT_EQ(report.stored, 2);
  EXPECT_EQ(report.rejected, 2);
  EXPECT_EQ(report.total.added, 3);
  EXPECT_EQ(writer_->stats().doc_count(), 3u);
}

TEST_F(BulkIngestTest, ListsTenRejectedParagraphsAndCountsTheRest) {
  Ingester ingester(writer_.get(), store_.get(),
                    IngestOptions{.max_abstract_bytes = 8});
  std::string content = "ICLR 2024 paper list\n\nShort.\n";
  for (int i = 0; i < 12; ++i)
    content += "\nMuch too long " + std::to_string(i) + ".\n";
  std::ostringstream out;

  BulkIngest(ingester, {Write("r.txt", content)}, BulkIngestOptions(), out);

  EXPECT_THAT(
      out.str(),
      ::testing::AllOf(
          ::testing::StartsWith("r.txt: 1 added, 0 updated, 0 unchanged, "
                                "0 removed, 0 skipped, 12 rejected\n"
                                "  r.txt: line 5, byte 30: rejected: "
                                "abstract of 16 bytes is longer than "
                                "the limit of 8"),
          ::testing::EndsWith("  r.txt: and 2 more rejected paragraphs\n")));
}

TEST_F(BulkIngestTest, InterruptedRunCommitsNothingMore) {
  Ingester ingester(writer_.get(), store_.get());
  const std::vector<std::string> paths = {
      Write("1.txt", "ICLR 2024 论文列表\n\nAlpha.\n"),
      Write("2.txt", "ICLR 2024 论文列表\n\nBeta.\n"),
  };
  std::atomic<bool> interrupted{true};
  BulkIngestOptions options;
  options.interrupted = &interrupted;
  std::ostringstream out;

  const BulkIngestReport report = BulkIngest(ingester, paths, options, out);

  EXPECT_TRUE(report.interrupted);
  EXPECT_EQ(report.stored, 0);
  EXPECT_EQ(writer_->stats().doc_count(), 0u);
}

}  // namespace
}  // namespace paperdb::ingest
