// Dynamic pruning (MaxScore for disjunctions, block skipping) must return
// exactly what exhaustive evaluation returns: the same top k, the same
// scores, and the same count while it is exact; past the exact-count
// threshold, a total marked estimated and close to the true one. The
// corpus is generated so that posting lists span many blocks and scores
// often tie.

#include "paperdb/search/pruning_test_fixture.h"

namespace paperdb::search {
namespace {

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

// 1,152 short papers holding "alpha bravo", 320 long ones, 30,000 with
// neither word, then 1,000 long ones. A window of "alpha (bravo OR delta)"
// spans the 30,000 doc ids without a match; skipped and estimated at the
// rate of windows full of matches, it would count 32,472 for 2,472, more
// than the papers stored. Capped by the root's bound on its
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

}  // namespace
}  // namespace paperdb::search
