// Phrases taken from the abstracts themselves: every run of two and three
// adjacent words of every bundled abstract, and runs of 40 (more than a
// pasted query's kPastedWords, so a quoted sentence stays one phrase),
// quoted, must find that abstract, also where a run starts or ends inside a
// hyphen chain or a word of letters and digits ("32B surpasses" of
// "FLAN-MoE-32B, surpasses"). The phrase check skips candidates by their
// next-word masks (paperdb/index/next_words.h) before decoding positions; a
// mask missing a word that does follow (a stopword pair's common gram, a
// surface form, a Han character, a word after a joined compound) would lose
// the paper.

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "paperdb/text/analyzer.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

class PhraseOracleE2eTest : public ServiceFixture {};

// Words in a long quoted run.
constexpr size_t kLong = 40;

TEST_F(PhraseOracleE2eTest, EveryAdjacentRunOfWordsFindsItsAbstract) {
  v1::ListPapersRequest list;
  list.set_page_size(1000);
  v1::ListPapersResponse papers;
  ASSERT_TRUE(engine_->ListPapers(list, &papers).ok());
  ASSERT_EQ(papers.papers_size(), 76);
  size_t phrases = 0, long_phrases = 0;
  for (const v1::Paper& paper : papers.papers()) {
    const std::string& text = paper.abstract();
    // The words' byte ranges, by position; joined compounds left out
    // (their parts stand at the same positions).
    struct Span {
      uint32_t start = 0, end = 0;
    };
    std::vector<Span> at;
    for (const text::AnalyzedToken& token :
         text::ThreadLocalAnalyzer().Analyze(text)) {
      if (token.compound) continue;
      if (at.size() <= token.position) at.resize(token.position + 1);
      at[token.position] = {token.start_byte, token.end_byte};
    }
    for (size_t p = 0; p + 1 < at.size(); ++p) {
      for (const size_t n : {size_t{2}, size_t{3}, kLong}) {
        if (p + n > at.size() || (n == kLong && p % kLong != 0)) continue;
        bool whole = true;
        for (size_t k = p; k < p + n; ++k) {
          whole &= at[k].end > 0;  // A word too long to index leaves a gap.
        }
        if (!whole) continue;
        // As written when only spaces, hyphens and the like part the words
        // (a phrase copied from the abstract), else the words with spaces.
        std::string phrase =
            text.substr(at[p].start, at[p + n - 1].end - at[p].start);
        if (phrase.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                     "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789 -./") != std::string::npos) {
          phrase.clear();
          for (size_t k = p; k < p + n; ++k) {
            if (k > p) phrase += ' ';
            phrase += text.substr(at[k].start, at[k].end - at[k].start);
          }
        }
        v1::SearchPapersRequest request;
        request.set_query("\"" + phrase + "\"");
        request.set_page_size(100);
        request.set_matching_strategy(v1::MATCHING_STRATEGY_ALL);
        request.set_semantic(v1::SEMANTIC_MODE_OFF);
        v1::SearchPapersResponse response;
        ASSERT_TRUE(engine_->SearchPapers(request, &response).ok()) << phrase;
        bool found = false;
        for (const v1::SearchResult& result : response.results()) {
          found |= result.paper().name() == paper.name();
        }
        EXPECT_TRUE(found || response.results_size() == 100)
            << "\"" << phrase << "\" does not find " << paper.name();
        EXPECT_TRUE(response.rewrites().empty() || n < kLong)
            << "\"" << phrase << "\" is rewritten";
        ++phrases;
        long_phrases += n == kLong;
      }
    }
  }
  // About 2 x 76 x 180 phrases: the walk above reached the abstracts.
  EXPECT_GT(phrases, 20000u);
  EXPECT_GT(long_phrases, 100u);
}

}  // namespace
}  // namespace paperdb::testing
