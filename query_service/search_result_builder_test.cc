#include "query_service/search_result_builder.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/storage/paper_table.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::query {
namespace {

using ::paperdb::testing::IsOk;
using ::testing::ElementsAre;

class HighlightsOfTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    v1::Paper paper;
    paper.set_id("p");
    //                   0         1         2         3         4
    //                   01234567890123456789012345678901234567890123
    paper.set_abstract("We study graph-52985 structures and graph methods.");
    paper.add_sources()->set_file_name("a.txt");
    ASSERT_THAT(writer_->Commit({paper}), IsOk());
    absl::StatusOr<storage::v1::PaperRecord> record =
        storage::PaperTable(store_.get()).Get(0);
    ASSERT_THAT(record, IsOk());
    record_ = *record;
    ASSERT_FALSE(record_.token_spans().empty());
  }

  std::vector<std::pair<uint32_t, uint32_t>> Highlights(
      const storage::v1::PaperRecord& record, const std::string& query) {
    const std::vector<search::MatchUnit> units =
        search::CollectMatchUnits(search::ParseQuery(query)->root);
    absl::StatusOr<std::vector<search::ByteSpan>> spans =
        HighlightsOf(*store_, 0, record, units);
    EXPECT_THAT(spans, IsOk());
    std::vector<std::pair<uint32_t, uint32_t>> out;
    if (spans.ok()) {
      for (const search::ByteSpan& s : *spans) out.emplace_back(s.start, s.end);
    }
    return out;
  }

  storage::v1::PaperRecord record_;
};

using Range = std::pair<uint32_t, uint32_t>;

TEST_F(HighlightsOfTest, FromStoredSpansAPlainWordIsNotItsCompound) {
  EXPECT_THAT(Highlights(record_, "graph"),
              ElementsAre(Range(9, 14), Range(36, 41)));
  EXPECT_THAT(Highlights(record_, "graph52985"), ElementsAre(Range(9, 20)));
}

TEST_F(HighlightsOfTest, RecordsWithoutOrWithBadSpansAreAnalyzedAgain) {
  storage::v1::PaperRecord none = record_;
  none.clear_token_spans();
  EXPECT_THAT(Highlights(none, "graph"),
              ElementsAre(Range(9, 14), Range(36, 41)));
  storage::v1::PaperRecord bad = record_;
  bad.set_token_spans("\x7f");  // Another encoding, or corrupt.
  EXPECT_THAT(Highlights(bad, "graph"),
              ElementsAre(Range(9, 14), Range(36, 41)));
}

}  // namespace
}  // namespace paperdb::query

namespace paperdb::query {
namespace {

google::protobuf::FieldMask Mask(std::vector<std::string> paths) {
  google::protobuf::FieldMask mask;
  for (std::string& path : paths) mask.add_paths(std::move(path));
  return mask;
}

TEST(ResultMaskTest, NamedFieldsOnlyAndStarOrNothingForAll) {
  absl::StatusOr<ResultMask> page = ParseResultMask(
      Mask({"paper.name", "paper.venue", "score", "snippet.text"}));
  ASSERT_THAT(page, IsOk());
  EXPECT_FALSE(page->all);
  EXPECT_FALSE(page->highlights);
  EXPECT_TRUE(page->snippet);
  for (const auto& full : {Mask({}), Mask({"*"})}) {
    absl::StatusOr<ResultMask> all = ParseResultMask(full);
    ASSERT_THAT(all, IsOk());
    EXPECT_TRUE(all->all && all->highlights && all->snippet);
  }
}

// Found by a hostile test: "." passed as a valid path and dropped the
// highlights and snippet, and a 4,000-byte path in the error message made
// the client see RESOURCE_EXHAUSTED (metadata too large) instead.
TEST(ResultMaskTest, EmptyOrUnknownPathsAreInvalidNamingAtMost100Bytes) {
  for (const std::string path :
       {"", ".", "paper..name", ".score", "score.", "paper.title", "*.x"}) {
    EXPECT_EQ(ParseResultMask(Mask({path})).status().code(),
              absl::StatusCode::kInvalidArgument)
        << path;
  }
  EXPECT_EQ(ParseResultMask(Mask({"score", "*"})).status().code(),
            absl::StatusCode::kInvalidArgument);
  const absl::Status long_path =
      ParseResultMask(Mask({std::string(4000, 'x')})).status();
  EXPECT_EQ(long_path.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_LT(long_path.message().size(), 400u);  // Not 4,000.
  EXPECT_THAT(std::string(long_path.message()),
              ::testing::HasSubstr(std::string(100, 'x') + "...\""));
}

}  // namespace
}  // namespace paperdb::query
