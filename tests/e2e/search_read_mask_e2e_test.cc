// read_mask (AIP-157) on SearchPapers, over real gRPC on loopback against
// the bundled ICLR 2024 lists. The server reads only the parts of each
// stored record a mask names, and builds highlights, snippets,
// match sources and explanations only when named: every masked page must
// equal the whole page trimmed by FieldMaskUtil, field for field.

#include <string>
#include <vector>

#include "google/protobuf/util/field_mask_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

using ::google::protobuf::util::FieldMaskUtil;
using ::google::protobuf::util::MessageDifferencer;

class SearchReadMaskE2eTest : public ServiceFixture {
 protected:
  v1::SearchPapersResponse Page(const std::string& query, bool explain,
                                const std::vector<std::string>& paths) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::SearchPapersRequest request;
    request.set_query(query);
    request.set_explain(explain);
    request.set_page_size(10);
    for (const std::string& path : paths) {
      request.mutable_read_mask()->add_paths(path);
    }
    v1::SearchPapersResponse response;
    const grpc::Status status =
        query_->SearchPapers(&context, request, &response);
    EXPECT_TRUE(status.ok()) << query << ": " << status.error_message();
    return response;
  }
};

TEST_F(SearchReadMaskE2eTest, EveryMaskEqualsTheWholePageTrimmed) {
  std::vector<std::vector<std::string>> masks = {
      {"paper.name", "paper.venue", "paper.year", "score", "snippet"},
      {"paper"},
      {"paper.methods", "highlights"},
      {"snippet.text", "paper.ingest_time.seconds"},
      {"explanation"},
  };
  const google::protobuf::Descriptor* result = v1::SearchResult::descriptor();
  for (int f = 0; f < result->field_count(); ++f) {
    masks.push_back({result->field(f)->name()});
  }
  const google::protobuf::Descriptor* paper = v1::Paper::descriptor();
  for (int f = 0; f < paper->field_count(); ++f) {
    masks.push_back({"paper." + paper->field(f)->name()});
  }
  // Words and concepts (match_source), a method: filter (its mentions are
  // highlighted), a phrase, and partial matches after full ones.
  for (const std::string query :
       {"brain scans", "method:LIFT", "\"leading indicators\"",
        "hypergraph transformer pruning"}) {
    for (const bool explain : {false, true}) {
      const v1::SearchPapersResponse whole = Page(query, explain, {});
      ASSERT_GT(whole.results_size(), 0) << query;
      for (const std::vector<std::string>& paths : masks) {
        const v1::SearchPapersResponse masked = Page(query, explain, paths);
        google::protobuf::FieldMask mask;
        for (const std::string& path : paths) mask.add_paths(path);
        const std::string label = query + " / " + FieldMaskUtil::ToString(mask);
        ASSERT_EQ(masked.results_size(), whole.results_size()) << label;
        for (int i = 0; i < whole.results_size(); ++i) {
          v1::SearchResult expected = whole.results(i);
          FieldMaskUtil::TrimMessage(mask, &expected);
          EXPECT_TRUE(MessageDifferencer::Equals(masked.results(i), expected))
              << label << ", result " << i << ":\n"
              << masked.results(i).DebugString() << "expected:\n"
              << expected.DebugString();
        }
        EXPECT_EQ(masked.total_size(), whole.total_size()) << label;
        EXPECT_EQ(masked.match_mode(), whole.match_mode()) << label;
      }
    }
  }
}

TEST_F(SearchReadMaskE2eTest, AConceptMatchKeepsItsSourceUnderAMask) {
  // "brain scans" finds the CLIP-MUSED paper through the thesaurus's
  // brain_decoding concept: a mask naming match_source alone computes it.
  const v1::SearchPapersResponse whole = Page("brain scans", false, {});
  ASSERT_GT(whole.results_size(), 0);
  EXPECT_EQ(whole.results(0).match_source(), v1::MATCH_SOURCE_CONCEPTS);
  const v1::SearchPapersResponse masked =
      Page("brain scans", false, {"match_source"});
  ASSERT_EQ(masked.results_size(), whole.results_size());
  for (int i = 0; i < whole.results_size(); ++i) {
    EXPECT_EQ(masked.results(i).match_source(),
              whole.results(i).match_source());
    EXPECT_FALSE(masked.results(i).has_paper());
  }
}

}  // namespace
}  // namespace paperdb::testing
