// Estimates how many matches the skipped parts of a search held. Dynamic
// pruning skips parts (posting blocks, doc-id windows, phrase candidates)
// whose score bound cannot reach the k-th score once the count may be
// estimated; a few of them are walked anyway as probes, and the skipped
// ones are estimated at their probes' rate of matches per unit of work.
//
// Probes are stratified by how close the part's bound came to the k-th
// score (eight strata): parts near it (short papers holding the words
// often) and far below it (long papers) hold matches at different rates,
// and the first skippable parts of a search are often of one kind. In each
// stratum the first part is probed, then about one in 16 (or as asked), picked
// by a fixed hash so that periodic corpora do not alias with it (stratified
// sampling; W. G. Cochran, "Sampling Techniques", 1977, ch. 5).
//
// Not thread-safe: one per search.

#ifndef PAPERDB_SEARCH_SKIP_ESTIMATOR_H_
#define PAPERDB_SEARCH_SKIP_ESTIMATOR_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "absl/base/macros.h"

namespace paperdb::search {

class SkipEstimator {
 public:
  // About one skippable part in `probe_every` (after each stratum's first)
  // is probed: more probes, a better estimate, less work skipped.
  // REQUIRES: probe_every is a power of two (the pick is then a mask, not
  // a division, on every skipped candidate of a phrase).
  explicit SkipEstimator(uint64_t probe_every = 16)
      : probe_mask_(probe_every - 1) {
    ABSL_ASSERT(probe_every > 0 && (probe_every & probe_mask_) == 0);
  }

  // A part of `units` units of work (doc ids, lead postings, candidates)
  // that may be skipped: its score bound is `bound`, at most `threshold`
  // (the k-th score). Returns true if it is to be walked as a probe, its
  // matches reported with AddProbeMatches(); false if it is skipped.
  // `known` matches of the part are certain (a window that starts at a
  // match): they are added as they are for a skipped part, and left out of
  // `units` and of the matches reported for a probe.
  bool ShouldProbe(double bound, double threshold, uint64_t units,
                   uint64_t known = 0) {
    const size_t s = StratumOf(bound, threshold);
    current_ = s;
    Stratum& stratum = strata_[s];
    // Pseudo-random (a fixed hash of the count), not every 16th: a corpus
    // with a period of 16 parts would otherwise be probed in phase.
    if (stratum.seen++ == 0 ||
        (Mix(stratum.seen * kStrata + s) & probe_mask_) == 0) {
      stratum.probe_units += units;
      return true;
    }
    stratum.skipped_units += units;
    known_skipped_matches_ += known;
    skipped_any_ = true;
    return false;
  }

  // A part of `units` units walked as a probe whatever the sampling (one
  // candidate of each skipped range, say); its matches are reported with
  // AddProbeMatches().
  void Probe(double bound, double threshold, uint64_t units) {
    current_ = StratumOf(bound, threshold);
    strata_[current_].probe_units += units;
  }

  // A part of `units` units skipped unwalked whatever the sampling; its
  // matches are estimated at its stratum's probes' rate.
  void Skip(double bound, double threshold, uint64_t units) {
    if (units == 0) return;
    strata_[StratumOf(bound, threshold)].skipped_units += units;
    skipped_any_ = true;
  }

  // For a part sampled unit by unit (the candidates of a skipped range):
  // true for about one unit in `probe_every`, picked by a fixed hash of a
  // running count, as ShouldProbe() picks parts. The part is then reported
  // with Probe() (the units picked), AddProbeMatches() and Skip() (the
  // rest).
  bool SampleUnit() { return (Mix(++units_seen_) & probe_mask_) == 0; }

  // Counts `n` matches in the part the last ShouldProbe() chose to probe
  // (or the last Probe()).
  void AddProbeMatches(uint64_t n) { strata_[current_].probe_matches += n; }

  // True once a part was skipped: the total is then an estimate.
  bool skipped_any() const { return skipped_any_; }

  // The estimated matches of the skipped parts (the probes' own matches
  // are not included: they were counted). A stratum with skipped units but
  // no probe (a few dozen units, none sampled) is estimated at the rate of
  // all probes, not taken as empty.
  uint64_t SkippedMatches() const {
    double estimate = static_cast<double>(known_skipped_matches_);
    uint64_t all_probe_units = 0, all_probe_matches = 0;
    for (const Stratum& s : strata_) {
      all_probe_units += s.probe_units;
      all_probe_matches += s.probe_matches;
    }
    for (const Stratum& s : strata_) {
      if (s.skipped_units == 0) continue;
      const uint64_t units =
          s.probe_units > 0 ? s.probe_units : all_probe_units;
      const uint64_t matches =
          s.probe_units > 0 ? s.probe_matches : all_probe_matches;
      if (units == 0) continue;
      estimate += static_cast<double>(matches) *
                  static_cast<double>(s.skipped_units) /
                  static_cast<double>(units);
    }
    return static_cast<uint64_t>(estimate + 0.5);
  }

 private:
  static constexpr size_t kStrata = 8;
  // Strata by bound / threshold, in eighths; the last holds 7/8 and up.
  // The threshold changes seldom and StratumOf() runs on every skipped
  // candidate of a phrase: the division is a multiplication by the last
  // threshold's inverse.
  size_t StratumOf(double bound, double threshold) {
    if (threshold != inverse_of_) {
      inverse_of_ = threshold;
      inverse_ = threshold > 0.0 ? 1.0 / threshold : 0.0;
    }
    const double ratio = threshold > 0.0 ? bound * inverse_ : 1.0;
    return std::min(kStrata - 1,
                    static_cast<size_t>(std::max(0.0, ratio) * kStrata));
  }
  // SplitMix64's finalizer (S. Vigna, "Further scramblings of Marsaglia's
  // xorshift generators", 2017): a well-mixed hash of a counter.
  static uint64_t Mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
  }
  struct Stratum {
    uint64_t seen = 0;  // Parts that could be skipped.
    uint64_t skipped_units = 0;
    uint64_t probe_units = 0;
    uint64_t probe_matches = 0;
  };
  Stratum strata_[kStrata];
  uint64_t probe_mask_;      // probe_every - 1.
  double inverse_of_ = 0.0;  // The threshold inverse_ inverts.
  double inverse_ = 0.0;
  uint64_t known_skipped_matches_ = 0;
  uint64_t units_seen_ = 0;  // SampleUnit()'s count.
  size_t current_ = 0;
  bool skipped_any_ = false;
};

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_SKIP_ESTIMATOR_H_
