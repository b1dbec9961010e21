#include "paperdb/search/searcher.h"

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
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::search {
namespace {

using ::paperdb::testing::IsOk;

class SearcherTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::vector<v1::Paper> papers;
    const char* abstracts[] = {
        "Spiking neural networks learn synaptic delays.",       // 0
        "Neural networks for graphs; spiking is not covered.",  // 1
        "Leading indicators of time series, and indicators leading "
        "nowhere.",                                               // 2
        "Graph neural networks with leading indicators.",         // 3
        "Delays in delays and more delays for spiking neurons.",  // 4
    };
    for (int i = 0; i < 5; ++i) {
      v1::Paper& p = papers.emplace_back();
      p.set_id("p" + std::to_string(i));
      p.set_abstract(abstracts[i]);
      p.add_sources()->set_file_name("t.txt");
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }

  SearchHits Run(absl::string_view text, size_t k = 10) {
    absl::StatusOr<Query> query = ParseQuery(text);
    EXPECT_THAT(query, IsOk());
    absl::StatusOr<ExpandedQuery> expanded =
        ExpandQuery(*store_, *std::move(query));
    EXPECT_THAT(expanded, IsOk());
    absl::StatusOr<SearchHits> hits =
        Searcher(store_.get()).Search(expanded->query, k);
    EXPECT_THAT(hits, IsOk());
    return hits.ok() ? *hits : SearchHits{};
  }

  static std::vector<uint32_t> Docs(const SearchHits& hits) {
    std::vector<uint32_t> docs;
    for (const ScoredDoc& d : hits.top) docs.push_back(d.doc);
    return docs;
  }
};

TEST_F(SearcherTest, AllTermsMustMatch) {
  const SearchHits hits = Run("spiking neural delays");

  // One full match; fewer than kFillBelow, so the papers with some of the
  // words follow it, best first, and count in the total.
  EXPECT_EQ(hits.full_matches, 1u);
  EXPECT_THAT(Docs(hits), ::testing::ElementsAre(0u, 4u, 1u, 3u));
  EXPECT_EQ(hits.total, 4u);
  EXPECT_FALSE(hits.any_terms);
}

TEST_F(SearcherTest, FullMatchesOnlyWhenPartialMatchesAreOff) {
  absl::StatusOr<ExpandedQuery> expanded =
      ExpandQuery(*store_, *ParseQuery("spiking neural delays"));
  ASSERT_THAT(expanded, IsOk());
  SearchOptions options;
  options.partial_matches = false;
  absl::StatusOr<SearchHits> hits =
      Searcher(store_.get()).Search(expanded->query, options);
  ASSERT_THAT(hits, IsOk());

  // Only doc 0 holds all three words; the default adds 4, 1 and 3.
  EXPECT_THAT(Docs(*hits), ::testing::ElementsAre(0u));
  EXPECT_EQ(hits->total, 1u);
  EXPECT_EQ(hits->full_matches, 1u);
  EXPECT_EQ(hits->full_total, 1u);

  // No paper holds both: nothing, where the default falls back to papers
  // holding either.
  expanded = ExpandQuery(*store_, *ParseQuery("synaptic graph"));
  ASSERT_THAT(expanded, IsOk());
  hits = Searcher(store_.get()).Search(expanded->query, options);
  ASSERT_THAT(hits, IsOk());
  EXPECT_EQ(hits->total, 0u);
  EXPECT_TRUE(hits->top.empty());
  EXPECT_FALSE(hits->any_terms);
  EXPECT_THAT(Docs(Run("synaptic graph")), ::testing::ElementsAre(0u, 1u, 3u));
}

TEST_F(SearcherTest, HigherTermFrequencyRanksFirst) {
  const SearchHits hits = Run("delays spiking");

  EXPECT_EQ(hits.full_matches, 2u);
  EXPECT_THAT(Docs(hits), ::testing::ElementsAre(4u, 0u, 1u));
  EXPECT_GT(hits.top[0].score, hits.top[1].score);
}

TEST_F(SearcherTest, PhraseRequiresAdjacency) {
  // Both hold the phrase once (doc 2 also has the words reversed, which
  // does not count): the shorter doc 3 ranks first.
  EXPECT_THAT(Docs(Run("\"leading indicators\"")),
              ::testing::ElementsAre(3u, 2u));
  EXPECT_THAT(Docs(Run("\"indicators leading\"")), ::testing::ElementsAre(2u));
  // No paper has the words in this order, and the fallback keeps a phrase
  // whole, so nothing matches.
  EXPECT_EQ(Run("\"networks neural\"").total, 0u);
}

TEST_F(SearcherTest, FallbackKeepsPhrasesWhole) {
  const SearchHits hits = Run("\"networks neural\" synaptic");

  EXPECT_TRUE(hits.any_terms);
  EXPECT_THAT(Docs(hits), ::testing::ElementsAre(0u));  // Only via "synaptic".
}

TEST_F(SearcherTest, FallbackStillHonoursExclusions) {
  // "spiking zebra" matches no paper in full; the fallback must not bring
  // back papers containing the excluded "delays" (0 and 4).
  const SearchHits hits = Run("spiking zebra -delays");

  EXPECT_TRUE(hits.any_terms);
  EXPECT_THAT(Docs(hits), ::testing::ElementsAre(1u));
}

TEST_F(SearcherTest, FallbackReusesNoExclusionCursorsOfTheFirstPass) {
  // The all-terms pass finds docs 0 and 1 and excludes both, moving the
  // exclusion cursors past them; the fallback must still exclude doc 0
  // (delays), 1 and 3 (graph) and 4 (delays).
  EXPECT_EQ(Run("spiking neural -delays -graph").total, 0u);
}

TEST_F(SearcherTest, LongPhrasesOfManyDistinctWordsMatch) {
  // Five distinct terms, two repeated: every term's positions are needed.
  EXPECT_THAT(
      Docs(
          Run("\"Leading indicators of time series, and indicators leading\"")),
      ::testing::ElementsAre(2u));
  EXPECT_EQ(Run("\"Leading indicators of time series, and leading\"").total,
            0u);
}

TEST_F(SearcherTest, PhrasesOfThreeWordsCheckTheirRarestPairFirst) {
  // A phrase of three words or more first looks for the two words that
  // occur least in the candidate at their distance in the phrase. In 5
  // those are "charlie" and then "bravo", before it in the phrase; in 8
  // "bravo charlie" stands after a first "charlie delta"; 7 holds "bravo
  // charlie" but not the whole phrase, 6 every word in the wrong order.
  std::vector<v1::Paper> papers;
  const char* abstracts[] = {
      "bravo bravo charlie delta delta",         // 5
      "delta charlie bravo bravo delta",         // 6
      "bravo charlie echo delta charlie delta",  // 7
      "charlie delta bravo charlie delta",       // 8
  };
  for (int i = 0; i < 4; ++i) {
    papers.push_back(
        ::paperdb::testing::MakePaper("q" + std::to_string(i), abstracts[i]));
  }
  ASSERT_THAT(writer_->Commit(papers), IsOk());
  const SearchHits hits = Run("\"bravo charlie delta\"");
  EXPECT_EQ(hits.total, 2u);
  EXPECT_THAT(Docs(hits), ::testing::ElementsAre(5u, 8u));
  EXPECT_THAT(Docs(Run("\"charlie delta bravo\"")), ::testing::ElementsAre(8u));
  EXPECT_EQ(Run("\"delta charlie bravo bravo delta\"").total, 1u);
}

TEST_F(SearcherTest, SloppyPhrasesNeedEveryPlaceOfARepeatedWord) {
  // A sloppy phrase of a repeated word needs the word in each of its
  // places, not once. "delays" stands twice within 3 positions only in
  // doc 4; doc 0 holds it once. No paper holds "spiking" twice.
  const SearchHits hits = Run("\"delays delays\"~2");
  EXPECT_EQ(hits.total, 1u);
  EXPECT_THAT(Docs(hits), ::testing::ElementsAre(4u));
  EXPECT_EQ(Run("\"spiking spiking\"~3").total, 0u);
  // Three places: positions 0, 2 and 5 of doc 4 span 5, within 2 + 3.
  EXPECT_THAT(Docs(Run("\"delays delays delays\"~3")),
              ::testing::ElementsAre(4u));
  EXPECT_EQ(Run("\"delays delays delays\"~2").total, 0u);
  // Explained as written, with its slop.
  absl::StatusOr<ExpandedQuery> expanded =
      ExpandQuery(*store_, *ParseQuery("\"delays delays\"~2"));
  ASSERT_THAT(expanded, IsOk());
  absl::StatusOr<std::vector<TermContribution>> terms =
      Searcher(store_.get())
          .Explain(expanded->query, Searcher::MatchedAs::kAllTerms, 4);
  ASSERT_THAT(terms, IsOk());
  ASSERT_EQ(terms->size(), 1u);
  EXPECT_EQ((*terms)[0].term, "\"delay delay\"~2");
  EXPECT_EQ((*terms)[0].tf, 2u);  // Windows (0, 2) and (2, 5).
}

TEST_F(SearcherTest, ExclusionRemovesMatches) {
  EXPECT_THAT(Docs(Run("neural -graph")), ::testing::ElementsAre(0u));
  // Doc 1 has fewer content words (its stopwords do not count), so it
  // ranks first.
  EXPECT_THAT(Docs(Run("neural -\"graph neural\"")),
              ::testing::ElementsAre(1u, 0u));
}

TEST_F(SearcherTest, FallsBackToAnyTermWhenNothingMatchesAll) {
  const SearchHits hits = Run("synaptic zebra");

  EXPECT_TRUE(hits.any_terms);
  EXPECT_THAT(Docs(hits), ::testing::ElementsAre(0u));
}

TEST_F(SearcherTest, TotalCountsBeyondTopK) {
  const SearchHits hits = Run("neural", 1);

  EXPECT_EQ(hits.top.size(), 1u);
  EXPECT_EQ(hits.total, 3u);
}

TEST_F(SearcherTest, CancelledSearchStopsWithCancelled) {
  absl::StatusOr<Query> query = ParseQuery("neural");
  ASSERT_THAT(query, IsOk());

  absl::StatusOr<SearchHits> hits =
      Searcher(store_.get()).Search(*query, 10, [] { return true; });

  EXPECT_THAT(hits, ::paperdb::testing::StatusIs(absl::StatusCode::kCancelled));
}

TEST_F(SearcherTest, UnknownTermsAndStopwordsMatchNothing) {
  EXPECT_EQ(Run("zebra").total, 0u);
  EXPECT_EQ(Run("the of").total, 0u);
}

TEST_F(SearcherTest, WordLongerThanAnyTermIsNotIgnored) {
  // Never indexed (analyzer.h's kMaxTermBytes), so no paper holds it: the
  // conjunction falls back to the other word instead of dropping it.
  const std::string blob(300, 'x');
  EXPECT_EQ(Run(blob).total, 0u);
  const SearchHits hits = Run("synaptic " + blob);
  EXPECT_TRUE(hits.any_terms);
  EXPECT_THAT(Docs(hits), ::testing::ElementsAre(0u));
  // A long run of punctuation (a rule in a pasted text) is no word at all.
  const SearchHits ruled = Run("synaptic " + std::string(300, '='));
  EXPECT_FALSE(ruled.any_terms);
  EXPECT_THAT(Docs(ruled), ::testing::ElementsAre(0u));
}

// 2,000 papers, so "alpha" spans many posting blocks with varied tf and
// lengths: block-max pruning must return exactly the exhaustive top 10.
class BlockMaxTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::vector<v1::Paper> papers;
    uint32_t seed = 7;
    for (int i = 0; i < 2000; ++i) {
      seed = seed * 1103515245u + 12345u;
      std::string text;
      for (uint32_t k = 0; k < (seed >> 8) % 4; ++k) text += "alpha ";
      for (uint32_t k = 0; k < 5 + (seed >> 12) % 40; ++k) text += "filler ";
      v1::Paper& p = papers.emplace_back();
      p.set_id("p" + std::to_string(i));
      p.set_abstract(text + "end");
      p.add_sources()->set_file_name("t.txt");
    }
    ASSERT_THAT(writer_->Commit(papers), ::paperdb::testing::IsOk());
  }
};

TEST_F(BlockMaxTest, PrunedTopTenEqualsExhaustiveRanking) {
  const storage::v1::CorpusStats stats = writer_->stats();
  const index::Bm25Scorer scorer(
      {.doc_count = stats.doc_count(),
       .avg_doc_length = static_cast<double>(stats.total_doc_length_terms()) /
                         stats.doc_count()});
  std::vector<ScoredDoc> all;
  index::PostingIterator it(*store_, "alpha");
  for (; it.doc() != index::kNoMoreDocs; it.Next())
    all.push_back({it.doc(), 0});
  const double idf = scorer.Idf(all.size());
  index::PostingIterator again(*store_, "alpha");
  for (ScoredDoc& d : all) {
    d.score = RoundedScore(scorer.Score(idf, again.tf(), again.doc_length()));
    again.Next();
  }
  std::sort(all.begin(), all.end(), [](const ScoredDoc& a, const ScoredDoc& b) {
    return a.score > b.score || (a.score == b.score && a.doc < b.doc);
  });
  ASSERT_GT(all.size(), 500u);

  absl::StatusOr<SearchHits> hits =
      Searcher(store_.get()).Search(*ParseQuery("alpha"), 10);

  ASSERT_THAT(hits, ::paperdb::testing::IsOk());
  EXPECT_EQ(hits->total, all.size());
  ASSERT_EQ(hits->top.size(), 10u);
  for (size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(hits->top[i].doc, all[i].doc) << i;
    EXPECT_EQ(hits->top[i].score, all[i].score) << i;
  }
}

}  // namespace
}  // namespace paperdb::search
