#include "query_service/search_result_builder.h"

#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/field_mask_util.h"
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

// An empty or unknown path such as "." is invalid (it must not pass and
// drop the highlights and snippet), and the error names at most 100 bytes of
// it: a 4,000-byte path in the message would make the client see
// RESOURCE_EXHAUSTED (metadata too large) instead.
TEST(ResultMaskTest, EmptyOrUnknownPathsAreInvalidNamingAtMost100Bytes) {
  for (const std::string path :
       {"", ".", "paper..name", ".score", "score.", "paper.title", "*.x"}) {
    EXPECT_EQ(ParseResultMask(Mask({path})).status().code(),
              absl::StatusCode::kInvalidArgument)
        << path;
  }
  const absl::Status star = ParseResultMask(Mask({"score", "*"})).status();
  EXPECT_EQ(star.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(star.message()),
              ::testing::HasSubstr("\"*\" (every field) must be the mask's "
                                   "only path"));
  // A path on past a repeated field is refused, and the message says why.
  const absl::Status repeated =
      ParseResultMask(Mask({"paper.sources.file_name"})).status();
  EXPECT_EQ(repeated.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(repeated.message()),
              ::testing::HasSubstr("goes on past a repeated one"));
  EXPECT_THAT(ParseResultMask(Mask({"paper.sources"})), IsOk());
  // The message lists every field of SearchResult, the last ones too.
  EXPECT_THAT(std::string(repeated.message()),
              ::testing::HasSubstr("(fields: paper, score, highlights, "
                                   "snippet, explanation, partial_match, "
                                   "match_source;"));
  const absl::Status long_path =
      ParseResultMask(Mask({std::string(4000, 'x')})).status();
  EXPECT_EQ(long_path.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_LT(long_path.message().size(), 500u);  // Not 4,000.
  EXPECT_THAT(std::string(long_path.message()),
              ::testing::HasSubstr(std::string(100, 'x') + "...\""));
}

// A result with every field set, to trim.
v1::SearchResult FullResult() {
  v1::SearchResult result;
  v1::Paper* paper = result.mutable_paper();
  paper->set_name("papers/p");
  paper->set_id("p");
  paper->set_venue("ICLR");
  paper->set_year(2024);
  paper->set_abstract("We study graphs.");
  paper->add_urls("https://github.com/a/b");
  paper->set_word_count(3);
  v1::Source* source = paper->add_sources();
  source->set_file_name("a.txt");
  source->set_line_number(3);
  result.set_score(1.5);
  result.add_highlights()->set_end_byte(8);
  result.mutable_snippet()->set_text("We study");
  result.add_explanation()->set_term("graph");
  result.set_partial_match(true);
  return result;
}

TEST(ResultTrimmerTest, KeepsWhatFieldMaskUtilKeeps) {
  for (const std::vector<std::string>& paths :
       std::vector<std::vector<std::string>>{
           {"paper.name", "paper.venue", "paper.year", "score", "snippet"},
           {"score"},
           {"paper"},
           {"paper", "paper.name"},
           {"paper.abstract", "highlights"},
           {"snippet.range", "score"},
           {"snippet.text", "partial_match"},
           {"explanation", "paper.urls"},
           {"*"},
           {}}) {
    SCOPED_TRACE(absl::StrJoin(paths, ","));
    const google::protobuf::FieldMask mask = Mask(paths);
    ASSERT_THAT(ParseResultMask(mask), IsOk());
    v1::SearchResult expected = FullResult();
    if (!paths.empty() && paths[0] != "*") {
      google::protobuf::util::FieldMaskUtil::TrimMessage(mask, &expected);
    }
    v1::SearchResult trimmed = FullResult();
    ResultTrimmer(mask).Trim(&trimmed);
    EXPECT_EQ(trimmed.DebugString(), expected.DebugString());
  }
  // What a results page keeps, spelled out.
  v1::SearchResult page = FullResult();
  ResultTrimmer(Mask({"paper.name", "paper.venue", "score"})).Trim(&page);
  EXPECT_EQ(page.paper().name(), "papers/p");
  EXPECT_EQ(page.paper().venue(), "ICLR");
  EXPECT_TRUE(page.paper().abstract().empty());
  EXPECT_EQ(page.paper().sources_size(), 0);
  EXPECT_EQ(page.score(), 1.5);
  EXPECT_FALSE(page.has_snippet());
  EXPECT_EQ(page.highlights_size(), 0);
  EXPECT_FALSE(page.partial_match());
}

}  // namespace
}  // namespace paperdb::query
