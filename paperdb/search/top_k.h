// Top-k collection and the orders results rank in, for the searcher's
// strategies: the k best ScoredDocs under an order, kept strictly after a
// keyset cursor (SearchOptions::after), scores rounded (RoundedScore()).

#ifndef PAPERDB_SEARCH_TOP_K_H_
#define PAPERDB_SEARCH_TOP_K_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <queue>
#include <vector>

#include "paperdb/search/searcher.h"

namespace paperdb::search::internal {

// Keeps the k best docs seen under `Better`, scores rounded (RoundedScore()),
// of those strictly after `after` (if given: a keyset cursor) under it.
template <typename Better>
class TopK {
 public:
  TopK(size_t k, Better better, const ScoredDoc* after = nullptr)
      : k_(k), heap_(better), after_(after) {}
  void Push(ScoredDoc doc) {
    if (k_ == 0) return;
    // Below the k-th best, rounded or not: it cannot enter.
    if (heap_.size() == k_ && doc.score < heap_.top().score) return;
    doc.score = RoundedScore(doc.score);
    if (after_ != nullptr && !heap_.value_comp()(*after_, doc)) return;
    if (heap_.size() < k_) {
      heap_.push(doc);
    } else if (heap_.value_comp()(doc, heap_.top())) {
      heap_.pop();
      heap_.push(doc);
    } else {
      return;
    }
    if (heap_.size() == k_) {
      threshold_ = std::nextafter(heap_.top().score + kScoreUnit, 0.0);
    }
  }
  bool full() const { return k_ > 0 && heap_.size() == k_; }
  // REQUIRES: full(). The largest score that cannot enter: one whose
  // rounding (RoundedScore()) is at most the k-th best's, which it ties at
  // best, and ties go to the lower doc id, seen first. Bounds at most this
  // prune.
  double threshold() const { return threshold_; }
  std::vector<ScoredDoc> Take() {
    std::vector<ScoredDoc> out;
    while (!heap_.empty()) {
      out.push_back(heap_.top());
      heap_.pop();
    }
    std::reverse(out.begin(), out.end());
    return out;
  }

 private:
  // A max-heap under `Better` keeps the worst on top.
  struct Heap : std::priority_queue<ScoredDoc, std::vector<ScoredDoc>, Better> {
    explicit Heap(Better b)
        : std::priority_queue<ScoredDoc, std::vector<ScoredDoc>, Better>(b) {}
    Better value_comp() const { return this->comp; }
  };
  size_t k_;
  Heap heap_;
  const ScoredDoc* after_;  // Not owned; may be null.
  double threshold_ = 0.0;  // See threshold().
};

// A function object rather than a function, so that TopK's comparisons
// inline.
inline constexpr auto BetterScore = [](const ScoredDoc& a, const ScoredDoc& b) {
  return a.score > b.score || (a.score == b.score && a.doc < b.doc);
};

// The doc a tier's search continues after: `options.after`'s, when it is
// in `tier`.
inline const ScoredDoc* AfterIn(const SearchOptions& options, int tier) {
  return options.after && options.after->tier == tier ? &options.after->doc
                                                      : nullptr;
}

// Whether `a` sorts before `b` in year order (`descending` or not):
// papers without a year last, ties by doc id (SortBy()).
inline bool YearPrecedes(bool descending, const ScoredDoc& a,
                         const ScoredDoc& b) {
  if ((a.year == kNoYear) != (b.year == kNoYear)) return b.year == kNoYear;
  if (a.year != b.year) return descending ? a.year > b.year : a.year < b.year;
  return a.doc < b.doc;
}

// Whether `a` sorts before `b` in the non-relevance `order`.
inline bool Precedes(SortOrder order, const ScoredDoc& a, const ScoredDoc& b) {
  switch (order) {
    case SortOrder::kIngestDescending:
      return a.doc > b.doc;
    case SortOrder::kYearDescending:
    case SortOrder::kYearAscending:
      return YearPrecedes(order == SortOrder::kYearDescending, a, b);
    default:
      return a.doc < b.doc;
  }
}

}  // namespace paperdb::search::internal

#endif  // PAPERDB_SEARCH_TOP_K_H_
