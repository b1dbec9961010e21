// Dynamic pruning (MaxScore for disjunctions, block skipping) must return
// exactly what exhaustive evaluation returns: the same top k, the same
// scores, and the same count while it is exact; past the exact-count
// threshold, a total marked estimated and close to the true one. The
// corpus is generated so that posting lists span many blocks and scores
// often tie.

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/index/index_writer.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/search/searcher.h"
#include "paperdb/search/skip_estimator.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::search {
namespace {

using ::paperdb::testing::IsOk;

// Words chosen so that the stemmer leaves them alone; the i-th is drawn
// with weight 1 / (i + 1) (Zipf).
const char* const kWords[] = {
    "alpha",  "bravo", "delta",  "echo",    "golf", "hotel",  "india",
    "kilo",   "lima",  "mike",   "oscar",   "papa", "quebec", "romeo",
    "sierra", "tango", "victor", "whiskey", "xray", "yankee", "zulu"};
constexpr int kNumWords = sizeof(kWords) / sizeof(kWords[0]);
constexpr int kPapers = 3000;

class PruningTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    double total = 0;
    for (int i = 0; i < kNumWords; ++i) total += 1.0 / (i + 1);
    uint64_t state = 12345;
    auto next = [&] {  // A fixed LCG: the same corpus on every platform.
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return static_cast<double>(state >> 11) / static_cast<double>(1ULL << 53);
    };
    std::vector<v1::Paper> papers;
    for (int d = 0; d < kPapers; ++d) {
      const int length = 3 + static_cast<int>(next() * 12);
      std::string text;
      std::set<std::string> words;
      for (int w = 0; w < length; ++w) {
        double x = next() * total;
        int i = 0;
        while (i < kNumWords - 1 && (x -= 1.0 / (i + 1)) > 0) ++i;
        text += std::string(kWords[i]) + " ";
        words.insert(kWords[i]);
      }
      texts_.push_back(words);
      v1::Paper& p = papers.emplace_back();
      p.set_id("p" + std::to_string(d));
      p.set_abstract(text);
      p.add_sources()->set_file_name("t.txt");
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }

  enum Mode {
    kPruned,       // The default options: totals past 1,000 estimated.
    kPrunedExact,  // Pruned, every match counted.
    kPrunedEarly,  // Pruned, totals past 100 estimated.
    kExhaustive,   // The reference: every match scored and counted.
  };

  SearchHits Search(absl::string_view text, Mode mode) {
    absl::StatusOr<Query> query = ParseQuery(text);
    EXPECT_THAT(query, IsOk());
    absl::StatusOr<ExpandedQuery> expanded =
        ExpandQuery(*store_, *std::move(query));
    EXPECT_THAT(expanded, IsOk());
    SearchOptions options;
    // The reference scores every match: no pruning, and no MaxScore (which
    // collecting the matches turns off).
    options.collect_matches = mode == kExhaustive;
    options.prune = mode != kExhaustive;
    if (mode == kPrunedExact) options.exact_total_up_to = UINT64_MAX;
    if (mode == kPrunedEarly) options.exact_total_up_to = 100;
    absl::StatusOr<SearchHits> hits =
        Searcher(store_.get()).Search(expanded->query, options);
    EXPECT_THAT(hits, IsOk());
    return hits.ok() ? *hits : SearchHits{};
  }

  // Papers holding any of `words`, counted from the generated texts.
  uint64_t CountAny(const std::vector<std::string>& words) const {
    uint64_t n = 0;
    for (const auto& t : texts_) {
      bool any = false;
      for (const auto& w : words) any |= t.contains(w);
      n += any;
    }
    return n;
  }

  // Commits `first` papers of `first_text`, then `then` of `then_text`.
  void CommitTwoKinds(int first, const std::string& first_text, int then,
                      const std::string& then_text) {
    std::vector<v1::Paper> papers;
    for (int d = 0; d < first + then; ++d) {
      papers.push_back(::paperdb::testing::MakePaper(
          "k" + std::to_string(d), d < first ? first_text : then_text));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }

  // Commits papers 0 to count - 1 with the texts `text_of` gives them.
  void CommitTexts(int count, const std::function<std::string(int)>& text_of) {
    std::vector<v1::Paper> papers;
    for (int d = 0; d < count; ++d) {
      papers.push_back(
          ::paperdb::testing::MakePaper("t" + std::to_string(d), text_of(d)));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }

  // Pruned (counting exactly or not), `query`'s top 10 are papers first,
  // first + step, ..., with the scores of exhaustive evaluation.
  void ExpectTopTenEvery(const char* query, uint32_t first, uint32_t step) {
    const SearchHits reference = Search(query, kExhaustive);
    ASSERT_EQ(reference.top.size(), 10u);
    for (const Mode mode : {kPrunedExact, kPruned}) {
      SCOPED_TRACE(mode);
      const SearchHits pruned = Search(query, mode);
      ASSERT_EQ(pruned.top.size(), 10u);
      for (size_t i = 0; i < 10; ++i) {
        EXPECT_EQ(pruned.top[i].doc, first + step * i) << "rank " << i;
        EXPECT_EQ(pruned.top[i].doc, reference.top[i].doc) << "rank " << i;
        EXPECT_NEAR(pruned.top[i].score, reference.top[i].score, 1e-9);
      }
    }
  }

  // Papers holding all of `words`, counted from the generated texts.
  uint64_t CountAll(const std::vector<std::string>& words) const {
    uint64_t n = 0;
    for (const auto& t : texts_) {
      bool all = true;
      for (const auto& w : words) all &= t.contains(w);
      n += all;
    }
    return n;
  }

  std::vector<std::set<std::string>> texts_;
};

// Dense lists (alpha, bravo: a bitset each, posting_list.h) and sparse ones
// (yankee, zulu) in conjunctions: the count is the texts' count.
TEST_F(PruningTest, ConjunctionCountIsExact) {
  EXPECT_EQ(Search("alpha bravo", kPrunedExact).total,
            CountAll({"alpha", "bravo"}));
  EXPECT_EQ(Search("alpha zulu", kPrunedExact).total,
            CountAll({"alpha", "zulu"}));
  EXPECT_EQ(Search("yankee zulu", kPrunedExact).total,
            CountAll({"yankee", "zulu"}));
  EXPECT_EQ(Search("alpha bravo delta echo", kPrunedExact).total,
            CountAll({"alpha", "bravo", "delta", "echo"}));
  EXPECT_EQ(Search("alpha (bravo OR zulu)", kPrunedExact).total,
            CountAll({"alpha", "bravo"}) + CountAll({"alpha", "zulu"}) -
                CountAll({"alpha", "bravo", "zulu"}));
}

// TermConjunction reads a dense list's postings by their rank in its bitset;
// Explain() reads them through the iterator tree: the same scores.
TEST_F(PruningTest, ConjunctionScoresAreTheExplainedScores) {
  for (const char* q : {"alpha bravo", "alpha bravo delta", "bravo zulu"}) {
    SCOPED_TRACE(q);
    absl::StatusOr<Query> query = ParseQuery(q);
    ASSERT_THAT(query, IsOk());
    absl::StatusOr<ExpandedQuery> expanded =
        ExpandQuery(*store_, *std::move(query));
    ASSERT_THAT(expanded, IsOk());
    const Searcher searcher(store_.get());
    const SearchHits hits = Search(q, kPruned);
    ASSERT_EQ(hits.top.size(), 10u);
    for (const ScoredDoc& hit : hits.top) {
      absl::StatusOr<std::vector<TermContribution>> terms = searcher.Explain(
          expanded->query, Searcher::MatchedAs::kAllTerms, hit.doc);
      ASSERT_THAT(terms, IsOk());
      double sum = 0.0;
      for (const TermContribution& t : *terms) sum += t.score;
      EXPECT_NEAR(hit.score, sum, kScoreUnit) << hit.doc;
      EXPECT_GT(sum, 0.0);
    }
  }
}

TEST_F(PruningTest, DisjunctionCountIsExact) {
  EXPECT_EQ(Search("xray OR zulu", kPrunedExact).total,
            CountAny({"xray", "zulu"}));
  EXPECT_EQ(Search("alpha OR yankee OR zulu", kPrunedExact).total,
            CountAny({"alpha", "yankee", "zulu"}));
}

TEST_F(PruningTest, TotalsPastTheThresholdAreMarkedEstimates) {
  // Every match counted: the reference.
  const SearchHits exact = Search("alpha OR bravo", kExhaustive);
  ASSERT_GT(exact.total, kExactTotalUpTo);
  EXPECT_FALSE(exact.total_estimated);
  const SearchHits estimated = Search("alpha OR bravo", kPruned);
  EXPECT_TRUE(estimated.total_estimated);
  EXPECT_NEAR(static_cast<double>(estimated.total),
              static_cast<double>(exact.total), 0.1 * exact.total);
  // A single term's count is its document frequency: always exact.
  const SearchHits term = Search("alpha", kPruned);
  EXPECT_FALSE(term.total_estimated);
  EXPECT_EQ(term.total, CountAny({"alpha"}));
}

TEST_F(PruningTest, PrunedTopKEqualsExhaustive) {
  const char* queries[] = {
      "alpha OR zulu",
      "alpha OR bravo OR xray",
      "bravo OR delta OR echo OR yankee",
      "zulu OR yankee",
      "alpha OR (bravo zulu)",
      "(alpha bravo) OR zulu",
      "alpha OR \"bravo delta\"",
      "\"yankee zulu\" OR delta",
      "\"xray zulu\" OR yankee OR alpha",
      "alpha zulu",
      "alpha bravo",
      "alpha bravo delta",
      "alpha -bravo",
      "alpha (bravo OR zulu)",
      "\"alpha bravo\"",
      "\"bravo alpha\"",  // Dense words: candidates from their bitsets.
      "\"delta echo alpha\"",
      "alpha \"bravo delta\"",
      "alpha yankee xray zulu whiskey",  // Few full matches: a fill.
  };
  std::set<std::string> estimated;  // Queries estimated by kPrunedEarly.
  for (const char* q : queries) {
    SCOPED_TRACE(q);
    const SearchHits reference = Search(q, kExhaustive);
    for (const Mode mode : {kPrunedExact, kPruned, kPrunedEarly}) {
      SCOPED_TRACE(mode);
      const SearchHits pruned = Search(q, mode);
      if (pruned.total_estimated) {
        const uint64_t threshold = mode == kPruned ? kExactTotalUpTo : 100;
        EXPECT_NE(mode, kPrunedExact);
        EXPECT_GE(reference.total, threshold);
        EXPECT_GE(pruned.total, threshold);
        EXPECT_NEAR(static_cast<double>(pruned.total),
                    static_cast<double>(reference.total),
                    0.15 * reference.total);
        if (mode == kPrunedEarly) estimated.insert(q);
      } else {
        EXPECT_EQ(pruned.total, reference.total);
        EXPECT_EQ(pruned.full_matches, reference.full_matches);
      }
      ASSERT_EQ(pruned.top.size(), reference.top.size());
      ASSERT_EQ(pruned.top.size(), 10u);
      for (size_t i = 0; i < pruned.top.size(); ++i) {
        EXPECT_EQ(pruned.top[i].doc, reference.top[i].doc) << "rank " << i;
        EXPECT_NEAR(pruned.top[i].score, reference.top[i].score, 1e-9);
      }
    }
  }
  // MaxScore disjunctions and the iterator tree both estimate.
  EXPECT_TRUE(estimated.contains("alpha OR zulu"));
  EXPECT_TRUE(estimated.contains("alpha -bravo"));
  EXPECT_TRUE(estimated.contains("\"bravo alpha\""));  // Ranges skipped.
}

// Twenty short papers where both words repeat, then 2,000 long ones holding
// each once: after the first blocks, no block of the conjunction can reach
// the top 10, so they are skipped and the total is estimated.
class SkewedPruningTest : public PruningTest {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    CommitTwoKinds(20, "alpha alpha alpha bravo bravo bravo delta", 2000,
                   "alpha bravo golf hotel india kilo lima mike oscar papa "
                   "quebec romeo sierra tango victor whiskey xray yankee "
                   "zulu echo");
  }
};

// Found by a hostile test: a sloppy phrase counts every window, so a paper
// can hold it more often than it holds one of its words, and a bound taken
// from that word's blocks dropped the best papers. Five papers of repeated
// "zeta" hold "zeta omega"~3 four times; 300 before them, once.
class SloppyPhrasePruningTest : public PruningTest {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    CommitTwoKinds(300, "zeta omega golf hotel india kilo", 5,
                   "zeta zeta zeta zeta omega golf");
  }
};

TEST_F(SloppyPhrasePruningTest, RepeatedWordsRankFirst) {
  for (const char* q : {"\"zeta omega\"~3", "\"zeta omega\"~3 golf"}) {
    SCOPED_TRACE(q);
    const SearchHits reference = Search(q, kExhaustive);
    ASSERT_EQ(reference.total, 305u);
    for (const Mode mode : {kPruned, kPrunedEarly}) {
      const SearchHits pruned = Search(q, mode);
      EXPECT_EQ(pruned.total, 305u);
      ASSERT_EQ(pruned.top.size(), 10u);
      for (size_t i = 0; i < 10; ++i) {
        EXPECT_EQ(pruned.top[i].doc, reference.top[i].doc) << "rank " << i;
        EXPECT_NEAR(pruned.top[i].score, reference.top[i].score, 1e-9);
      }
      // The five papers with four windows come first.
      for (size_t i = 0; i < 5; ++i) {
        EXPECT_GT(pruned.top[i].score, pruned.top[5].score) << "rank " << i;
      }
    }
  }
}

TEST_F(SkewedPruningTest, ConjunctionSkipsBlocksAndEstimates) {
  for (const char* q : {"alpha bravo", "alpha bravo -delta golf"}) {
    SCOPED_TRACE(q);
    const SearchHits reference = Search(q, kExhaustive);
    const SearchHits exact = Search(q, kPrunedExact);
    EXPECT_FALSE(exact.total_estimated);
    EXPECT_EQ(exact.total, reference.total);
    const SearchHits pruned = Search(q, kPruned);
    EXPECT_TRUE(pruned.total_estimated);
    EXPECT_NEAR(static_cast<double>(pruned.total),
                static_cast<double>(reference.total), 0.15 * reference.total);
    ASSERT_EQ(pruned.top.size(), 10u);
    ASSERT_EQ(reference.top.size(), 10u);
    for (size_t i = 0; i < 10; ++i) {
      EXPECT_EQ(pruned.top[i].doc, reference.top[i].doc) << "rank " << i;
    }
  }
  EXPECT_EQ(Search("alpha bravo", kExhaustive).total, 2020u);
  EXPECT_EQ(Search("alpha bravo -delta golf", kExhaustive).total, 2000u);
}

// Three dense lists whose docs interleave: "alpha" in the even docs of the
// first 3,000, "bravo" in the odd ones, "echo" in all; only the last five
// papers hold all three. Every earlier lead block overlaps the others'
// blocks, yet no doc is in all three bitsets, so it is skipped undecoded;
// the count and the top k must still be exact.
class InterleavedDensePruningTest : public PruningTest {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::vector<v1::Paper> papers;
    for (int d = 0; d < 3005; ++d) {
      const char* text = d >= 3000    ? "alpha bravo echo golf"
                         : d % 2 == 0 ? "alpha echo golf"
                                      : "bravo echo golf";
      papers.push_back(
          ::paperdb::testing::MakePaper("i" + std::to_string(d), text));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }
};

TEST_F(InterleavedDensePruningTest, ConjunctionSkipsBlocksWithNoCommonDoc) {
  for (const Mode mode : {kPruned, kPrunedExact, kExhaustive}) {
    SCOPED_TRACE(mode);
    const SearchHits hits = Search("alpha bravo echo", mode);
    // Five full matches; papers with some of the words fill the page.
    EXPECT_EQ(hits.full_total, 5u);
    ASSERT_EQ(hits.full_matches, 5u);
    std::vector<uint32_t> docs;
    for (size_t i = 0; i < hits.full_matches; ++i) {
      docs.push_back(hits.top[i].doc);
    }
    EXPECT_THAT(docs,
                ::testing::ElementsAre(3000u, 3001u, 3002u, 3003u, 3004u));
  }
  EXPECT_EQ(Search("alpha echo golf", kPrunedExact).total, 1505u);
}

// Found by a hostile test: 1,500 short papers holding "zeta omega" first,
// then 3,000 longer ones holding both words apart. A match rate taken from
// the first candidates made the estimate many times the true count.
class PhraseSkewPruningTest : public PruningTest {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    CommitTwoKinds(1500, "zeta omega golf", 3000,
                   "zeta golf hotel india omega kilo lima");
  }
};

TEST_F(PhraseSkewPruningTest, EstimateFollowsTheSkippedCandidates) {
  const SearchHits reference = Search("\"zeta omega\"", kExhaustive);
  ASSERT_EQ(reference.total, 1500u);
  for (const Mode mode : {kPruned, kPrunedEarly}) {
    SCOPED_TRACE(mode);
    const SearchHits pruned = Search("\"zeta omega\"", mode);
    EXPECT_NEAR(static_cast<double>(pruned.total), 1500.0, 0.1 * 1500);
    ASSERT_EQ(pruned.top.size(), 10u);
    for (size_t i = 0; i < 10; ++i) {
      EXPECT_EQ(pruned.top[i].doc, reference.top[i].doc) << "rank " << i;
    }
  }
}

// Found by a hostile test: papers that alternate between holding "alpha
// bravo" and "bravo alpha" (every paper holds both words, so both phrases
// have 8,192 matches and every paper is a candidate). Skipped candidate
// ranges were probed at their first candidate only, which with blocks of
// 128 postings always fell on the same parity: 38,872 and 1,001 for 20,000
// each. Probes picked by a hash of their count do not alias.
class PeriodicPhrasePruningTest : public PruningTest {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::vector<v1::Paper> papers;
    for (int d = 0; d < 16384; ++d) {
      const std::string words = d % 2 == 0 ? "alpha bravo" : "bravo alpha";
      papers.push_back(::paperdb::testing::MakePaper(
          "p" + std::to_string(d),
          "w" + std::to_string(d) + " " + words + " golf hotel india"));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }
};

TEST_F(PeriodicPhrasePruningTest, EstimatesDoNotAliasWithThePeriod) {
  for (const char* q : {"\"alpha bravo\"", "\"bravo alpha\""}) {
    SCOPED_TRACE(q);
    ASSERT_EQ(Search(q, kPrunedExact).total, 8192u);
    const SearchHits pruned = Search(q, kPruned);
    EXPECT_TRUE(pruned.total_estimated);
    EXPECT_NEAR(static_cast<double>(pruned.total), 8192.0, 0.15 * 8192);
  }
}

// The same test found a phrase of one word repeated ("echo echo")
// estimated 20-76% high on random corpora, its range probes and its
// single-candidate probes mixed in one estimator at different rates (this
// corpus does not reproduce that; it checks the estimate of such a phrase
// where most candidates are skipped). Short papers hold "echo echo", long
// ones "echo echo" or "echo" twice apart: the long ones cannot reach the
// top 10.
class RepeatedWordPhrasePruningTest : public PruningTest {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    const char* kTexts[] = {
        "echo echo wug",
        "wug echo dax echo blick fep toma kilo lima mike november oscar",
        "dax blick echo echo fep toma wug lima mike november oscar papa",
        "echo wug dax blick fep toma kilo lima mike november oscar echo"};
    std::vector<v1::Paper> papers;
    for (int d = 0; d < 16384; ++d) {
      papers.push_back(::paperdb::testing::MakePaper(
          "r" + std::to_string(d),
          absl::StrCat("w", d, " ", kTexts[(d * 7 + d / 5) % 4])));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }
};

TEST_F(RepeatedWordPhrasePruningTest, EstimateIsNotHigh) {
  uint64_t exact = 0;  // Texts 0 and 2 hold the phrase.
  for (int d = 0; d < 16384; ++d) exact += (d * 7 + d / 5) % 4 % 2 == 0;
  ASSERT_EQ(Search("\"echo echo\"", kPrunedExact).total, exact);
  for (const Mode mode : {kPruned, kPrunedEarly}) {
    SCOPED_TRACE(mode);
    const SearchHits pruned = Search("\"echo echo\"", mode);
    EXPECT_TRUE(pruned.total_estimated);
    EXPECT_NEAR(static_cast<double>(pruned.total), static_cast<double>(exact),
                0.15 * exact);
    const SearchHits reference = Search("\"echo echo\"", kExhaustive);
    ASSERT_EQ(pruned.top.size(), 10u);
    for (size_t i = 0; i < 10; ++i) {
      EXPECT_EQ(pruned.top[i].doc, reference.top[i].doc) << "rank " << i;
    }
  }
}

// A word twice in an exact phrase fills two places from each start, so a
// paper holding it once cannot hold the phrase: such candidates are no
// matches, certainly, not skipped ones to estimate. One paper in 33 holds
// "echo" (too few for a bitset): the first 101 of them "echo echo", the
// other 399 "echo" once. With totals past 100 estimated, pruning starts at
// the 101st match and every later candidate is ruled out: the total stays
// exact. Before, they were skipped (their bound below the 10th score), a
// few checked as probes, and the total marked estimated.
class RepeatedWordCandidatePruningTest : public PruningTest {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::vector<v1::Paper> papers;
    for (int d = 0; d < 16500; ++d) {
      const char* text = d % 33 != 0     ? "golf hotel india"
                         : d / 33 <= 100 ? "echo echo wug"
                                         : "echo wug dax blick fep toma kilo";
      papers.push_back(
          ::paperdb::testing::MakePaper("e" + std::to_string(d), text));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }
};

TEST_F(RepeatedWordCandidatePruningTest, PapersWithTheWordOnceAreNoMatches) {
  const SearchHits reference = Search("\"echo echo\"", kExhaustive);
  ASSERT_EQ(reference.total, 101u);
  for (const Mode mode : {kPruned, kPrunedEarly}) {
    SCOPED_TRACE(mode);
    const SearchHits pruned = Search("\"echo echo\"", mode);
    EXPECT_FALSE(pruned.total_estimated);
    EXPECT_EQ(pruned.total, 101u);
    ASSERT_EQ(pruned.top.size(), 10u);
    for (size_t i = 0; i < 10; ++i) {
      EXPECT_EQ(pruned.top[i].doc, reference.top[i].doc) << "rank " << i;
      EXPECT_EQ(pruned.top[i].doc, 33 * i) << "rank " << i;
    }
  }
}

// One word twice ("alpha alpha") over a dense list, its competitive ranges'
// candidates listed with bounds from the word's count less its repeat
// (PhraseIterator's FilterRange()): every 400th paper holds the phrase
// twice and is short, every 10th (from the 5th) once in a longer paper;
// of the rest, a third hold "alpha" twice apart (checked, no match) and
// the others once (no match, certainly).
class RepeatedWordRangePruningTest : public PruningTest {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::vector<v1::Paper> papers;
    for (int d = 0; d < 4000; ++d) {
      const char* text = d % 400 == 0 ? "alpha alpha alpha bravo"
                         : d % 10 == 5
                             ? "alpha alpha golf hotel india kilo lima mike"
                         : d % 3 == 0 ? "alpha golf alpha hotel india kilo"
                                      : "alpha golf hotel india kilo lima";
      papers.push_back(
          ::paperdb::testing::MakePaper("r" + std::to_string(d), text));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }
};

TEST_F(RepeatedWordRangePruningTest, TopTenAndCountsMatchTheTexts) {
  const SearchHits reference = Search("\"alpha alpha\"", kExhaustive);
  ASSERT_EQ(reference.total, 410u);
  for (const Mode mode : {kPrunedExact, kPruned, kPrunedEarly}) {
    SCOPED_TRACE(mode);
    const SearchHits pruned = Search("\"alpha alpha\"", mode);
    if (mode == kPrunedEarly) {
      EXPECT_TRUE(pruned.total_estimated);
      EXPECT_NEAR(static_cast<double>(pruned.total), 410.0, 0.15 * 410);
    } else {
      EXPECT_FALSE(pruned.total_estimated);
      EXPECT_EQ(pruned.total, 410u);
    }
    ASSERT_EQ(pruned.top.size(), 10u);
    for (size_t i = 0; i < 10; ++i) {
      EXPECT_EQ(pruned.top[i].doc, reference.top[i].doc) << "rank " << i;
      EXPECT_EQ(pruned.top[i].doc, 400 * i) << "rank " << i;
      EXPECT_NEAR(pruned.top[i].score, reference.top[i].score, 1e-9);
    }
  }
}

// An OR of a rare word and three dense ones (bitsets, posting_list.h):
// "zulu" alone in papers 0-9 sets the 10th score above the dense words'
// maxima together, so only "zulu" is walked (MaxScore); the dense words are
// looked up for its papers that their bitsets say hold them: papers 150,
// 450, ... hold all four words and come first, with every part scored.
class DenseNonEssentialPruningTest : public PruningTest {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    CommitTexts(3200, [](int d) -> std::string {
      if (d < 10) return "zulu kilo lima";
      if (d % 300 == 150) return "zulu alpha bravo delta";
      std::string text;
      if (d % 2 == 0) text += "alpha ";
      if (d % 3 == 0) text += "bravo ";
      if (d % 5 == 0) text += "delta ";
      return text + "kilo lima";
    });
  }
};

TEST_F(DenseNonEssentialPruningTest, TopTenHoldEveryWordWithFullScores) {
  const char* const query = "zulu OR alpha OR bravo OR delta";
  ExpectTopTenEvery(query, 150, 300);
  EXPECT_EQ(Search(query, kExhaustive).total, 2348u);
  EXPECT_EQ(Search(query, kPrunedExact).total, 2348u);
  // Past 1,000 matches, the words are taken as independent.
  EXPECT_NEAR(static_cast<double>(Search(query, kPruned).total), 2348.0,
              0.01 * 2348);
}

// "zulu" alone in papers 0-399 sets the 10th score (2.36) above the
// bound of "bravo" (1.58) and of "alpha" (1.03), both dense, though not
// above the two together: "bravo" is essential, yet needs "alpha" on the
// same paper, so its candidates come from the two bitsets (PairedDocs)
// instead of its postings. Papers 150, 450, ... hold both twice (2.61)
// and come first; "zulu" finds none of them.
class PairedOnlyPruningTest : public PruningTest {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    CommitTexts(3200, [](int d) -> std::string {
      if (d % 300 == 150) return "alpha alpha bravo bravo";
      if (d < 400) return "zulu kilo lima mike";
      std::string text;
      if (d % 2 == 0) text += "alpha ";
      if (d % 3 == 0) text += "bravo ";
      return text + "kilo lima mike";
    });
  }
};

TEST_F(PairedOnlyPruningTest, PapersOnlyTheBitsetsPairAreFound) {
  ExpectTopTenEvery("zulu OR alpha OR bravo", 150, 300);
}

// The same skew for an AND of words (TermConjunction): 1,500 short papers
// holding both words, then 6,000 longer ones holding "bravo", a quarter of
// them "alpha" too; "alpha" alone fills 9,000 more, so "bravo" leads. The
// long papers' blocks cannot reach the top 10 and are skipped; their
// matches are estimated from the probed ones among them, not at the rate
// of the blocks walked before (where every paper matched).
class ConjunctionSkewPruningTest : public PruningTest {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::vector<v1::Paper> papers;
    for (int d = 0; d < 16500; ++d) {
      const char* text = d < 1500 ? "alpha bravo golf"
                         : d < 7500
                             ? (d % 4 == 0 ? "alpha bravo hotel india kilo lima"
                                           : "bravo hotel india kilo lima mike")
                             : "alpha golf";
      papers.push_back(
          ::paperdb::testing::MakePaper("c" + std::to_string(d), text));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }
};

TEST_F(ConjunctionSkewPruningTest, EstimateFollowsTheSkippedBlocks) {
  const SearchHits reference = Search("alpha bravo", kExhaustive);
  ASSERT_EQ(reference.total, 3000u);  // 1,500 + 6,000 / 4.
  const SearchHits pruned = Search("alpha bravo", kPruned);
  EXPECT_TRUE(pruned.total_estimated);
  EXPECT_NEAR(static_cast<double>(pruned.total), 3000.0, 0.15 * 3000);
  ASSERT_EQ(pruned.top.size(), 10u);
  for (size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(pruned.top[i].doc, reference.top[i].doc) << "rank " << i;
  }
}

// Found by a hostile test: 1,152 short papers holding "alpha bravo", 320
// long ones, 30,000 with neither word, then 1,000 long ones. A window of
// "alpha (bravo OR delta)" spans the 30,000 doc ids without a match; skipped,
// it was estimated at the rate of windows full of matches: 32,472 for
// 2,472, more than the papers stored. Capped by the root's bound on its
// matches, the estimate stays at most the true count here. (It can still be
// low: a window is measured in doc ids, and a probed window holding the
// gap says its stratum is sparse.)
class GapPruningTest : public PruningTest {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::vector<v1::Paper> papers;
    for (int d = 0; d < 32472; ++d) {
      const char* text = d < 1152    ? "alpha bravo golf"
                         : d < 1472  ? "alpha bravo hotel india kilo lima"
                         : d < 31472 ? "golf hotel"
                                     : "alpha bravo hotel india kilo lima";
      papers.push_back(
          ::paperdb::testing::MakePaper("g" + std::to_string(d), text));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }
};

TEST_F(GapPruningTest, EstimateNeverExceedsTheMatchBound) {
  for (const char* q : {"alpha (bravo OR delta)", "alpha bravo -delta"}) {
    SCOPED_TRACE(q);
    const SearchHits reference = Search(q, kExhaustive);
    ASSERT_EQ(reference.total, 2472u);
    const SearchHits pruned = Search(q, kPruned);
    EXPECT_TRUE(pruned.total_estimated);
    EXPECT_LE(pruned.total, 2472u);
    EXPECT_GE(pruned.total, 2472u / 2);
  }
}

// Each 100th paper holds "alpha bravo" three times: the top 10. Every block
// of "alpha" and "bravo" (128 postings) also holds papers with each word
// four times and the phrase once (each 32nd), whose frequencies put the
// block's bound above the top 10, so no block is skipped. A third of the
// other papers hold "alpha bravo" once, the rest "bravo alpha". A candidate
// whose words occur once each cannot reach the top 10: the phrase skips it
// (checking one in 16, for the estimate) and estimates the count at the
// rate of the skipped candidates (a third), not at that of all candidates
// seen (more, with the repeated papers).
class PhraseCandidatePruningTest : public PruningTest {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::vector<v1::Paper> papers;
    for (int d = 0; d < 4000; ++d) {
      const char* text = d % 100 == 0 ? "alpha bravo alpha bravo alpha bravo"
                         : d % 32 == 7
                             ? "alpha alpha alpha alpha bravo bravo bravo bravo"
                         : d % 3 == 0 ? "alpha bravo golf hotel india kilo"
                                      : "bravo alpha golf hotel india kilo";
      matches_ += d % 100 == 0 || d % 32 == 7 || d % 3 == 0;
      papers.push_back(
          ::paperdb::testing::MakePaper("f" + std::to_string(d), text));
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }
  uint64_t matches_ = 0;
};

TEST_F(PhraseCandidatePruningTest, SkipsCandidatesBoundedByTermFrequency) {
  const SearchHits reference = Search("\"alpha bravo\"", kExhaustive);
  ASSERT_EQ(reference.total, matches_);
  ASSERT_EQ(matches_, 1443u);
  const SearchHits exact = Search("\"alpha bravo\"", kPrunedExact);
  EXPECT_FALSE(exact.total_estimated);
  EXPECT_EQ(exact.total, matches_);
  for (const Mode mode : {kPruned, kPrunedEarly}) {
    SCOPED_TRACE(mode);
    const SearchHits pruned = Search("\"alpha bravo\"", mode);
    EXPECT_TRUE(pruned.total_estimated);
    EXPECT_NEAR(static_cast<double>(pruned.total), 1443.0, 0.1 * 1443);
    ASSERT_EQ(pruned.top.size(), 10u);
    for (size_t i = 0; i < 10; ++i) {
      EXPECT_EQ(pruned.top[i].doc, reference.top[i].doc) << "rank " << i;
      EXPECT_EQ(pruned.top[i].doc, 100 * i) << "rank " << i;
    }
  }
}

// Parts near the k-th score and far below it are estimated apart, each at
// its own probes' rate: the first part of each stratum, then about one in
// 16.
TEST(SkipEstimatorTest, EstimatesEachStratumAtItsProbesRate) {
  SkipEstimator skips;
  EXPECT_FALSE(skips.skipped_any());
  uint64_t near_probes = 0, far_probes = 0;
  for (int i = 0; i < 320; ++i) {  // Near: every unit a match.
    if (skips.ShouldProbe(0.95, 1.0, 10)) {
      ++near_probes;
      skips.AddProbeMatches(10);
    }
  }
  for (int i = 0; i < 640; ++i) {  // Far: one unit in ten.
    if (skips.ShouldProbe(0.1, 1.0, 10)) {
      ++far_probes;
      skips.AddProbeMatches(1);
    }
  }
  // The first of each, and about 1 in 16 of the rest.
  EXPECT_GE(near_probes, 1 + 320 / 32);
  EXPECT_LE(near_probes, 1 + 320 / 8);
  EXPECT_GE(far_probes, 1 + 640 / 32);
  EXPECT_LE(far_probes, 1 + 640 / 8);
  EXPECT_TRUE(skips.skipped_any());
  // The skipped near parts at 1 a unit, the far ones at 0.1.
  EXPECT_EQ(skips.SkippedMatches(),
            (320 - near_probes) * 10 + (640 - far_probes) * 10 / 10);
}

// Probe() and Skip() take parts whatever the sampling: a phrase's skipped
// candidate range has its first candidate probed and the rest skipped.
TEST(SkipEstimatorTest, ForcedProbesAndSkipsShareTheirStratum) {
  SkipEstimator skips;
  skips.Skip(0.5, 1.0, 0);  // Empty: nothing skipped.
  EXPECT_FALSE(skips.skipped_any());
  for (int range = 0; range < 12; ++range) {
    skips.Probe(0.99, 1.0, 1);
    skips.AddProbeMatches(1);  // Every candidate of these ranges matches.
    skips.Skip(0.99, 1.0, 124);
  }
  skips.Probe(0.3, 1.0, 1);  // A far stratum whose probe found nothing.
  skips.Skip(0.3, 1.0, 500);
  EXPECT_TRUE(skips.skipped_any());
  EXPECT_EQ(skips.SkippedMatches(), 12u * 124u);
}

// Found by a hostile test's reading: a stratum whose few skipped units got
// no probe counted as empty. It is estimated at the rate of all probes.
TEST(SkipEstimatorTest, AStratumWithoutProbesTakesTheOverallRate) {
  SkipEstimator skips;
  skips.Probe(0.99, 1.0, 10);
  skips.AddProbeMatches(5);  // Half the units match.
  skips.Skip(0.99, 1.0, 100);
  skips.Skip(0.3, 1.0, 40);  // No probe in this stratum.
  EXPECT_EQ(skips.SkippedMatches(), 50u + 20u);
}

}  // namespace
}  // namespace paperdb::search
