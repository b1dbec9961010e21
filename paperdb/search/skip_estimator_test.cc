// SkipEstimator: totals of skipped windows estimated from their probes.

#include "paperdb/search/skip_estimator.h"

#include "gtest/gtest.h"

namespace paperdb::search {
namespace {

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

// A stratum whose few skipped units got no probe is not counted as empty:
// it is estimated at the rate of all probes.
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
