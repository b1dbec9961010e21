#include <vector>

#include "paperdb/search/evaluation.h"
#include "paperdb/search/top_k.h"

// Evaluation::Collect(): every match of an iterator tree, document at a
// time, counted and ranked, with block-max pruning and estimated totals.
namespace paperdb::search::internal {

absl::StatusOr<SearchHits> Evaluation::Collect(DocIterator& root,
                                               const SearchOptions& options) {
  SearchHits hits;
  const bool by_score = options.order == SortOrder::kRelevance;
  const bool keep_all = options.collect_matches || !by_score;
  std::vector<ScoredDoc> all;
  TopK top(by_score ? options.top_k : 0, BetterScore, AfterIn(options, 0));
  // Block-max pruning: once the heap is full, a match whose blocks cannot
  // beat its worst score is counted without being scored, and once
  // options.exact_total_up_to matches are counted (and no match is kept),
  // the rest of its window is skipped uncounted, but for a few probes
  // (SkipEstimator), whose matches are counted: the skipped windows'
  // matches are estimated at the probed windows' rate per doc id (not that
  // of all windows walked, which the competitive ones, often denser, would
  // skew), and never above the root's Cost(). The bound holds up to
  // `window_end`.
  // A root that skips non-competitive matches itself (a phrase, told the
  // k-th score) estimates them itself, and its windows are walked.
  const bool prune = by_score && options.prune;
  // Filters alone score 0 everywhere: nothing to rank, so nothing is
  // skipped and the count stays exact.
  const bool may_skip = prune && !keep_all && root.MaxScore() > 0.0;
  bool root_skips = false;  // The root skips non-competitive matches.
  uint32_t window_end = 0;
  double window_bound = 0.0;
  bool have_window = false;
  bool probing = false;  // The current window is a probe.
  // Windows skipped uncounted, and the probes: one in 8, since windows
  // vary in size more than blocks (a window ends at the first block end
  // of any clause).
  SkipEstimator skips(8);
  // A window starts at a match, which is certain; the estimate's unit is
  // the doc ids after it (counting the first made a short window look
  // dense: one doc, one match). The gap before a window is not counted: it
  // may be a run of deleted or unrelated papers.
  uint32_t window_start = 0;

  while (root.doc() != kNoMoreDocs) {
    PAPERDB_RETURN_IF_ERROR(CheckCancelled());
    const uint32_t doc = root.doc();
    if (prune && top.full()) {
      const bool may_estimate =
          may_skip && hits.total >= options.exact_total_up_to;
      if (may_estimate) {
        root_skips = root.SetMinCompetitiveScore(top.threshold());
      }
      if (!have_window || doc > window_end) {
        window_start = doc;
        window_end = root.ShallowAdvance(doc);
        window_bound = root.BlockMaxScore();
        have_window = true;
        probing = false;
        // Ties go to the lower doc id, which came first.
        if (may_estimate && !root_skips && window_bound <= top.threshold() &&
            window_end < kNoMoreDocs - 1) {
          if (!skips.ShouldProbe(window_bound, top.threshold(),
                                 window_end - doc, /*known=*/1)) {
            root.Advance(window_end + 1);
            continue;
          }
          probing = true;
        }
      }
      if (window_bound <= top.threshold()) {
        ++hits.total;
        if (probing && doc != window_start) skips.AddProbeMatches(1);
        if (keep_all) all.push_back({doc, 0.0});
        root.Next();
        continue;
      }
    }
    ++hits.total;
    const ScoredDoc scored{doc, root.Score()};
    if (by_score) top.Push(scored);
    if (keep_all) all.push_back(scored);
    root.Next();
  }
  PAPERDB_RETURN_IF_ERROR(root.status());
  // Matches the root skipped by itself.
  bool root_skipped = false;
  hits.total += root.SkippedMatches(&root_skipped);
  hits.total_estimated |= root_skipped;
  hits = WithSkipped(std::move(hits), skips);
  // An estimate never exceeds the root's bound on its matches (holes of
  // deleted papers in the doc ids counted as skipped doc ids).
  if (hits.total_estimated) {
    hits.total = std::min<uint64_t>(hits.total, root.Cost());
  }
  if (options.collect_matches) {
    hits.matches.reserve(all.size());
    for (const ScoredDoc& d : all) hits.matches.push_back(d.doc);
  }
  if (by_score) {
    hits.top = top.Take();
    return hits;
  }
  PAPERDB_RETURN_IF_ERROR(SortBy(options.order, &all));
  if (const ScoredDoc* after = AfterIn(options, 0)) {
    std::erase_if(all, [&](const ScoredDoc& d) {
      return !Precedes(options.order, *after, d);
    });
  }
  if (all.size() > options.top_k) all.resize(options.top_k);
  hits.top = std::move(all);
  return hits;
}

}  // namespace paperdb::search::internal
