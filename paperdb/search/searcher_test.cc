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
  // Found by a hostile test: a sloppy phrase matched any paper holding its
  // repeated word once. "delays" stands twice within 3 positions only in
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

// The analyzer's spellings (paperdb/text/analyzer.h), end to end through
// the index: each query must find exactly the listed papers.
class AnalyzerMatchingTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::vector<v1::Paper> papers;
    const char* abstracts[] = {
        "SKILL-MIX evaluates compositional skills of state-of-the-art "
        "models.",  // 0
        "ResNet-18 and GPT-4 trained on Proof-Pile-2 and MIMIC-IV with k=5 "
        "neighbours.",                                               // 1
        "Accuracy improves by 5.4% and 10\\% of labels are noisy.",  // 2
        "Schr\xC3\xB6"
        "dinger bridges for na\xC3\xAFve top-k\xCC\x82 sampling with "
        "**STanHop-Net**, $\\eta(x)$ and the author\xE2\x80\x99s "
        "\\textbf{core}.",                                // 3
        "A network of 54 layers trades skill for luck.",  // 4
    };
    for (int i = 0; i < 5; ++i) {
      v1::Paper& p = papers.emplace_back();
      p.set_id("p" + std::to_string(i));
      p.set_abstract(abstracts[i]);
      p.add_sources()->set_file_name("t.txt");
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }

  std::vector<uint32_t> Find(absl::string_view text) {
    absl::StatusOr<Query> query = ParseQuery(text);
    EXPECT_THAT(query, IsOk()) << text;
    if (!query.ok()) return {};
    absl::StatusOr<SearchHits> hits = Searcher(store_.get()).Search(*query, 10);
    EXPECT_THAT(hits, IsOk()) << text;
    if (!hits.ok() || hits->any_terms) return {};  // Only full matches.
    std::vector<uint32_t> docs;
    for (size_t i = 0; i < hits->full_matches; ++i) {
      docs.push_back(hits->top[i].doc);
    }
    std::sort(docs.begin(), docs.end());
    return docs;
  }
};

TEST_F(AnalyzerMatchingTest, HyphenatedGluedAndSpacedSpellingsFindACompound) {
  for (const char* query :
       {"SKILL-MIX", "skill-mix", "skill mix", "SKILLMIX", "\"skill mix\""}) {
    EXPECT_THAT(Find(query), ::testing::ElementsAre(0u)) << query;
  }
  // Paper 4 has both words, but not as a compound or a phrase.
  EXPECT_THAT(Find("skill luck"), ::testing::ElementsAre(4u));
  EXPECT_THAT(Find("state-of-the-art"), ::testing::ElementsAre(0u));
  EXPECT_THAT(Find("stateoftheart"), ::testing::ElementsAre(0u));
}

TEST_F(AnalyzerMatchingTest, PhrasesAfterACompoundStillMatch) {
  EXPECT_THAT(Find("\"SKILL-MIX evaluates compositional skills\""),
              ::testing::ElementsAre(0u));
  EXPECT_THAT(Find("\"evaluates compositional\""), ::testing::ElementsAre(0u));
  EXPECT_THAT(Find("\"GPT-4 trained on Proof-Pile-2 and\""),
              ::testing::ElementsAre(1u));
  EXPECT_THAT(Find("\"art models\""), ::testing::ElementsAre(0u));
  // The joined term holds its first part's position (analyzer.h, step 7).
  EXPECT_THAT(Find("\"skills of stateoftheart\""), ::testing::ElementsAre(0u));
}

TEST_F(AnalyzerMatchingTest, ModelAndDatasetNamesAreFindableAsWritten) {
  for (const char* query :
       {"ResNet-18", "resnet18", "GPT-4", "gpt4", "Proof-Pile-2", "proofpile2",
        "MIMIC-IV", "mimiciv", "k=5", "\"k=5 neighbours\""}) {
    EXPECT_THAT(Find(query), ::testing::ElementsAre(1u)) << query;
  }
}

TEST_F(AnalyzerMatchingTest, PercentagesMatchTheirNumberOnly) {
  EXPECT_THAT(Find("5.4%"), ::testing::ElementsAre(2u));
  EXPECT_THAT(Find("5.4"), ::testing::ElementsAre(2u));
  EXPECT_THAT(Find("54"), ::testing::ElementsAre(4u));
  EXPECT_THAT(Find("10%"), ::testing::ElementsAre(2u));
  EXPECT_THAT(Find("10\\%"), ::testing::ElementsAre(2u));
}

TEST_F(AnalyzerMatchingTest, AccentsApostrophesAndMarkupAreFolded) {
  for (const char* query : {"schrodinger",
                            "SCHR\xC3\x96"
                            "DINGER",
                            "Schr\xC3\xB6"
                            "dinger",
                            "naive", "na\xC3\xAFve", "top-k", "topk",
                            "top-k\xCC\x82", "STanHop-Net", "stanhopnet", "eta",
                            "author's", "author\xE2\x80\x99s", "core"}) {
    EXPECT_THAT(Find(query), ::testing::ElementsAre(3u)) << query;
  }
  EXPECT_THAT(Find("textbf"), ::testing::IsEmpty());
}

namespace paperdb::search {
namespace {

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

}  // namespace
}  // namespace paperdb::search

namespace paperdb::search {
namespace {

using ::paperdb::testing::IsOk;

// Found by a hostile test: a phrase whose candidates all fail their
// positions check, or a count of a disjunction of phrases, ran to the end
// whatever the deadline, because neither asked the CancelFn.
class CancellationTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::vector<v1::Paper> papers;
    for (int i = 0; i < 20000; ++i) {
      v1::Paper& p = papers.emplace_back();
      p.set_id("p" + std::to_string(i));
      p.set_abstract("alpha beta gamma " + std::to_string(i));
      p.add_sources()->set_file_name("t.txt");
    }
    ASSERT_THAT(writer_->Commit(papers), ::paperdb::testing::IsOk());
  }

  // Searches `text`, saying "cancelled" from the second question on;
  // returns the status and how many times the search asked.
  std::pair<absl::Status, int> SearchCancelledLater(const std::string& text) {
    absl::StatusOr<Query> query = ParseQuery(text);
    EXPECT_THAT(query, IsOk());
    int asked = 0;
    absl::StatusOr<SearchHits> hits =
        Searcher(store_.get()).Search(*query, 10, [&asked] {
          return ++asked > 1;
        });
    return {hits.status(), asked};
  }
};

TEST_F(CancellationTest, APhraseWithNoMatchesStopsWhenCancelled) {
  // Every paper is a candidate of "gamma alpha"; none has it.
  const auto [status, asked] = SearchCancelledLater("\"gamma alpha\"");
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(asked, 2);
}

TEST_F(CancellationTest, CountingADisjunctionOfPhrasesStopsWhenCancelled) {
  const auto [status, asked] = SearchCancelledLater(
      "\"alpha beta\" OR \"beta gamma\" OR \"gamma alpha\"");
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled);
  EXPECT_LE(asked, 3);  // Each level that checks stops at its next check.
}

// Found by a hostile test: building the clauses of a long disjunction
// (each one reads its posting list, a RocksDB read when the list is not
// cached) did not ask the CancelFn, so 200 OR'd phrases overran a 50 ms
// limit by 15 to 20 times.
TEST_F(CancellationTest, BuildingClausesStopsWhenCancelled) {
  std::string text = "1";
  for (int i = 2; i <= 40; ++i) absl::StrAppend(&text, " OR ", i * 7);
  const auto [status, asked] = SearchCancelledLater(text);
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(asked, 2);  // Asked before each clause; cancelled at the 2nd.
  const auto [and_status, and_asked] =
      SearchCancelledLater("alpha beta gamma 7");
  EXPECT_EQ(and_status.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(and_asked, 2);
}

// Found by a hostile test: expanding many prefixes (each to 64 terms, each
// shown as a word read from a stored abstract) ignored the deadline.
TEST_F(CancellationTest, ExpandingPrefixesStopsWhenCancelled) {
  absl::StatusOr<Query> query = ParseQuery("1* OR 2* OR 3*");
  ASSERT_THAT(query, IsOk());
  int asked = 0;
  absl::StatusOr<ExpandedQuery> expanded =
      ExpandQuery(*store_, *query, [&asked] { return ++asked > 1; });
  EXPECT_THAT(expanded.status(),
              ::paperdb::testing::StatusIs(absl::StatusCode::kCancelled));
  EXPECT_EQ(asked, 2);

  absl::StatusOr<ExpandedQuery> whole =
      ExpandQuery(*store_, *std::move(query), [] { return false; });
  ASSERT_THAT(whole, IsOk());
  ASSERT_EQ(whole->rewrites.size(), 3u);
  EXPECT_EQ(whole->rewrites[1].original, "2*");
  EXPECT_EQ(whole->rewrites[1].replacements.size(), kMaxPrefixTerms);
}

TEST_F(CancellationTest, NotCancelledTheSameSearchesFinish) {
  absl::StatusOr<Query> query =
      ParseQuery("\"alpha beta\" OR \"beta gamma\" OR \"gamma alpha\"");
  ASSERT_THAT(query, IsOk());
  absl::StatusOr<SearchHits> hits =
      Searcher(store_.get()).Search(*query, 10, [] { return false; });
  ASSERT_THAT(hits, IsOk());
  EXPECT_EQ(hits->total, 20000u);
}

}  // namespace
}  // namespace paperdb::search

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
