// The edges a gRPC client meets in daily use, over real gRPC on loopback
// against the bundled ICLR 2024 lists: snippets that never cut a match.

#include <cctype>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(c));
  return s;
}

class ProtocolEdgesE2eTest : public ServiceFixture {};

TEST_F(ProtocolEdgesE2eTest, ASnippetShorterThanThePhraseHoldsItWhole) {
  for (const int length : {1, 5, 12, 21}) {
    v1::SearchPapersRequest request;
    request.set_query("\"leading indicators\"");
    request.set_snippet_length(length);
    const v1::SearchPapersResponse response = SearchOk(request);
    ASSERT_GT(response.results_size(), 0);
    for (const v1::SearchResult& result : response.results()) {
      const v1::Snippet& snippet = result.snippet();
      ASSERT_GT(snippet.highlights_size(), 0) << result.paper().id();
      const v1::TextSpan& first = snippet.highlights(0);
      EXPECT_EQ(Lower(snippet.text().substr(
                    first.start_byte(), first.end_byte() - first.start_byte())),
                "leading indicators")
          << result.paper().id() << " at snippet_length " << length;
      // Between words at both ends.
      const std::string& abstract = result.paper().abstract();
      const uint32_t start = snippet.range().start_byte();
      const uint32_t end = snippet.range().end_byte();
      EXPECT_TRUE(start == 0 ||
                  std::isspace(static_cast<unsigned char>(abstract[start - 1])))
          << result.paper().id() << ": " << snippet.text();
      EXPECT_TRUE(end == abstract.size() ||
                  std::isspace(static_cast<unsigned char>(abstract[end])))
          << result.paper().id() << ": " << snippet.text();
    }
  }
}

}  // namespace
}  // namespace paperdb::testing
