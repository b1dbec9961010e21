// Phrases of stopwords read through common grams: the same matches and
// scores as reading their positions.

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/index/common_grams.h"
#include "paperdb/index/index_writer.h"
#include "paperdb/index/posting_iterator.h"
#include "paperdb/search/doc_iterator.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/search/searcher.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::search {
namespace {

using ::paperdb::testing::IsOk;

// Random texts over stopwords, a few content words and hyphenated words
// whose joined form is a stopword ("no-t" is "not", at the position of "no"):
// every 2- and 3-word phrase over the words, searched (common grams for
// adjacent stopwords), gives the matches and scores of a phrase iterator
// that checks every word's positions.
class CommonGramsDifferentialTest : public ::paperdb::testing::StoreFixture {
 protected:
  // The phrases' words: stopwords first.
  static constexpr const char* kWords[] = {"of",    "the",   "and",  "in",
                                           "a",     "not",   "into", "art",
                                           "state", "model", "data"};
  static constexpr size_t kStopwords = 7;
  // Besides the words, in the texts.
  static constexpr const char* kHyphenated[] = {"no-t", "in-to", "a-n"};
  void SetUp() override {
    StoreFixture::SetUp();
    uint64_t state = 42;
    auto next = [&](uint64_t n) {  // A fixed LCG: the same corpus anywhere.
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return (state >> 33) % n;
    };
    std::vector<v1::Paper> papers;
    for (int d = 0; d < 400; ++d) {
      std::string text;
      const uint64_t length = 3 + next(25);
      for (uint64_t w = 0; w < length; ++w) {
        // Each stopword three times as often as another word.
        const uint64_t pick = next(3 * kStopwords + 4 + 3);
        text += pick < 3 * kStopwords ? kWords[pick / 3]
                : pick < 3 * kStopwords + 4
                    ? kWords[kStopwords + pick - 3 * kStopwords]
                    : kHyphenated[pick - 3 * kStopwords - 4];
        text += ' ';
      }
      papers.push_back(
          ::paperdb::testing::MakePaper("r" + std::to_string(d), text));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }

  uint32_t Df(const std::string& term) {
    uint32_t n = 0;
    for (index::PostingIterator it(*store_, term); it.doc() != kNoMoreDocs;
         it.Next()) {
      ++n;
    }
    return n;
  }
};

TEST_F(CommonGramsDifferentialTest, SameMatchesAndScoresAsPositions) {
  const storage::v1::CorpusStats stats = writer_->stats();
  index::CollectionStats collection;
  collection.doc_count = stats.doc_count();
  collection.avg_doc_length =
      static_cast<double>(stats.total_doc_length_terms()) /
      static_cast<double>(stats.doc_count());
  const index::Bm25Scorer scorer(collection);
  std::vector<std::vector<std::string>> phrases;
  for (const char* a : kWords) {
    for (const char* b : kWords) {
      phrases.push_back({a, b});
      for (const char* c : kWords) phrases.push_back({a, b, c});
    }
  }
  size_t with_grams = 0, matched = 0;
  for (const std::vector<std::string>& words : phrases) {
    const std::string text = "\"" + absl::StrJoin(words, " ") + "\"";
    SCOPED_TRACE(text);
    std::vector<uint32_t> dfs;
    std::vector<PhrasePart> parts;
    for (size_t i = 0; i < words.size(); ++i) {
      dfs.push_back(Df(words[i]));
      parts.push_back({words[i], dfs.back(), static_cast<uint32_t>(i)});
    }
    with_grams +=
        index::IsCommonGramWord(words[0]) && index::IsCommonGramWord(words[1]);
    // The reference: every word's positions, in doc order.
    std::vector<ScoredDoc> expected;
    const std::unique_ptr<DocIterator> it =
        NewPhraseIterator(*store_, words, dfs, parts, 0, scorer, nullptr);
    for (; it->doc() != kNoMoreDocs; it->Next()) {
      expected.push_back({it->doc(), RoundedScore(it->Score())});
    }
    ASSERT_THAT(it->status(), IsOk());
    std::sort(expected.begin(), expected.end(),
              [](const ScoredDoc& x, const ScoredDoc& y) {
                return x.score != y.score ? x.score > y.score : x.doc < y.doc;
              });
    absl::StatusOr<ExpandedQuery> expanded =
        ExpandQuery(*store_, *ParseQuery(text));
    ASSERT_THAT(expanded, IsOk());
    SearchOptions options;
    options.partial_matches = false;
    options.top_k = 1000;
    absl::StatusOr<SearchHits> hits =
        Searcher(store_.get()).Search(expanded->query, options);
    ASSERT_THAT(hits, IsOk());
    EXPECT_EQ(hits->total, expected.size());
    ASSERT_EQ(hits->top.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(hits->top[i].doc, expected[i].doc) << "rank " << i;
      EXPECT_EQ(hits->top[i].score, expected[i].score);
    }
    matched += !expected.empty();
  }
  // Most phrases match something; 7 x 7 x 12 start with a gram.
  EXPECT_GT(matched, phrases.size() / 2);
  EXPECT_EQ(with_grams, 7u * 7u * 12u);
}

// Phrases whose adjacent stopwords are read as common grams
// (paperdb/index/common_grams.h) match and score as if every word's
// positions were checked.
class CommonGramsSearchTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    const char* abstracts[] = {
        "The state of the art in the wild.",              // 0
        "Of the people, by the people.",                  // 1
        "The of, reversed.",                              // 2
        "State of art, the.",                             // 3
        "Of the art of the matter of the fact of them.",  // 4
    };
    std::vector<v1::Paper> papers;
    for (int i = 0; i < 5; ++i) {
      papers.push_back(
          ::paperdb::testing::MakePaper("g" + std::to_string(i), abstracts[i]));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }

  // Full matches only, best first.
  SearchHits Run(absl::string_view text) {
    absl::StatusOr<ExpandedQuery> expanded =
        ExpandQuery(*store_, *ParseQuery(text));
    EXPECT_THAT(expanded, IsOk());
    SearchOptions options;
    options.partial_matches = false;
    absl::StatusOr<SearchHits> hits =
        Searcher(store_.get()).Search(expanded->query, options);
    EXPECT_THAT(hits, IsOk());
    return hits.ok() ? *hits : SearchHits{};
  }
};

TEST_F(CommonGramsSearchTest, PhrasesOfStopwordsMatchTheirPositions) {
  const auto docs = [](const SearchHits& hits) {
    std::vector<uint32_t> out;
    for (const ScoredDoc& d : hits.top) out.push_back(d.doc);
    return out;
  };
  // Paper 4 holds "of the" three times, paper 0 once, paper 1 once in a
  // shorter text.
  EXPECT_THAT(docs(Run("\"of the\"")), ::testing::ElementsAre(4u, 1u, 0u));
  EXPECT_THAT(docs(Run("\"the of\"")), ::testing::ElementsAre(2u));
  EXPECT_THAT(docs(Run("\"state of the art\"")), ::testing::ElementsAre(0u));
  // Once each: the shorter paper first.
  EXPECT_THAT(docs(Run("\"of the art\"")), ::testing::ElementsAre(0u, 4u));
  EXPECT_THAT(docs(Run("\"by the people\"")), ::testing::ElementsAre(1u));
  EXPECT_THAT(docs(Run("\"the art of the\"")), ::testing::ElementsAre(4u));
  EXPECT_THAT(docs(Run("\"of the of\"")), ::testing::IsEmpty());
  EXPECT_THAT(docs(Run("\"in the of\"")), ::testing::IsEmpty());
  EXPECT_EQ(Run("\"of the\"").total, 3u);
}

TEST_F(CommonGramsSearchTest, ScoreIsThePhraseScoreOfItsWords) {
  absl::StatusOr<ExpandedQuery> expanded =
      ExpandQuery(*store_, *ParseQuery("\"of the\""));
  ASSERT_THAT(expanded, IsOk());
  const Searcher searcher(store_.get());
  const SearchHits hits = Run("\"of the\"");
  ASSERT_EQ(hits.top.size(), 3u);
  for (const ScoredDoc& hit : hits.top) {
    absl::StatusOr<std::vector<TermContribution>> terms = searcher.Explain(
        expanded->query, Searcher::MatchedAs::kAllTerms, hit.doc);
    ASSERT_THAT(terms, IsOk());
    ASSERT_EQ(terms->size(), 1u);
    EXPECT_EQ((*terms)[0].term, "\"of the\"");
    EXPECT_EQ(RoundedScore((*terms)[0].score), hit.score);
  }
  // tf 3 in paper 4: its explained tf is the phrase's.
  absl::StatusOr<std::vector<TermContribution>> top = searcher.Explain(
      expanded->query, Searcher::MatchedAs::kAllTerms, hits.top[0].doc);
  ASSERT_THAT(top, IsOk());
  EXPECT_EQ((*top)[0].tf, 3u);
}

}  // namespace
}  // namespace paperdb::search
