#include "paperdb/index/bm25.h"

#include <cmath>

#include "gtest/gtest.h"

namespace paperdb::index {
namespace {

TEST(Bm25ScorerTest, IdfMatchesLuceneFormula) {
  const Bm25Scorer scorer({.doc_count = 76, .avg_doc_length = 200});

  EXPECT_NEAR(scorer.Idf(1), std::log(1 + 75.5 / 1.5), 1e-12);
  EXPECT_NEAR(scorer.Idf(76), std::log(1 + 0.5 / 76.5), 1e-12);
  EXPECT_GT(scorer.Idf(76), 0.0);  // Never negative, even for every-doc terms.
}

TEST(Bm25ScorerTest, ScoreMatchesHandComputedValue) {
  const Bm25Scorer scorer({.doc_count = 10, .avg_doc_length = 100});

  // tf 2, doc of average length: idf * 2 * 2.2 / (2 + 1.2) = idf * 1.375.
  EXPECT_NEAR(scorer.Score(1.0, 2, 100), 1.375, 1e-12);
}

TEST(Bm25ScorerTest, ShorterDocumentScoresHigher) {
  const Bm25Scorer scorer({.doc_count = 10, .avg_doc_length = 100});

  EXPECT_GT(scorer.Score(1.0, 1, 50), scorer.Score(1.0, 1, 200));
}

TEST(Bm25ScorerTest, EmptyCollectionScoresZero) {
  const Bm25Scorer scorer({});

  EXPECT_EQ(scorer.Idf(1), 0.0);
  EXPECT_EQ(scorer.Score(1.0, 3, 10), 0.0);
}

}  // namespace
}  // namespace paperdb::index
