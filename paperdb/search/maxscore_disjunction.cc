#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "paperdb/index/posting_cache.h"
#include "paperdb/search/doc_bitmap.h"
#include "paperdb/search/evaluation.h"
#include "paperdb/search/paired_docs.h"
#include "paperdb/search/top_k.h"

// Evaluation::Disjunction(): a sum of clauses by MaxScore over block-max
// windows, and the exact counts of unions (CountUnion, CountTermUnion).
namespace paperdb::search::internal {

absl::StatusOr<SearchHits> Evaluation::Disjunction(
    const std::vector<const QueryNode*>& clauses,
    const SearchOptions& options) {
  const size_t top_k = options.top_k;
  SearchHits hits;
  std::vector<std::unique_ptr<DocIterator>> its;
  for (const QueryNode* clause : clauses) {
    PAPERDB_ASSIGN_OR_RETURN(std::unique_ptr<DocIterator> it, Build(*clause));
    // A phrase finds its first match when built, and may be cancelled.
    PAPERDB_RETURN_IF_ERROR(it->status());
    its.push_back(std::move(it));
  }
  uint64_t largest = 0;  // The largest exact count of a clause.
  double none = 1.0;     // Probability that a paper matches no clause.
  const double n_docs = static_cast<double>(scorer_.doc_count());
  for (const auto& it : its) {
    const int64_t exact = it->ExactCount();
    if (exact > 0) largest = std::max(largest, static_cast<uint64_t>(exact));
    const double n = exact >= 0 ? static_cast<double>(exact)
                                : static_cast<double>(it->Cost());
    none *= n_docs > 0 ? std::max(0.0, 1.0 - n / n_docs) : 0.0;
  }
  // Only words: the counts of phrases (bounded by their rarest word) and
  // of filters (often disjoint, as two venues) would mislead the formula.
  const bool all_words =
      std::all_of(its.begin(), its.end(),
                  [](const auto& it) { return it->ExactCount() >= 0; });
  if (options.prune && all_words && largest >= options.exact_total_up_to) {
    hits.total =
        std::max(largest, static_cast<uint64_t>(n_docs * (1.0 - none) + 0.5));
    hits.total_estimated = true;
  } else {
    PAPERDB_ASSIGN_OR_RETURN(hits.total, CountUnion(clauses));
  }
  if (hits.total == 0 || top_k == 0) return hits;
  const size_t n = its.size();
  TopK top(top_k, BetterScore, AfterIn(options, 0));
  double threshold = -1.0;      // The k-th score; scores are never negative.
  std::vector<double> part(n);  // Each clause's score of the candidate.
  std::vector<double> window_max(n);
  std::vector<size_t> order(n);  // Clauses by window maximum.
  // A window's clauses: `walk` ones have their postings walked; `lazy`
  // ones (by window maximum, ascending) are only looked up for the
  // candidates; reach[k + 1] sums the window maxima of those of
  // lazy[0..k] that may match the candidate.
  std::vector<size_t> walk;
  std::vector<size_t> lazy;
  std::vector<double> reach(n + 1);
  std::vector<absl::Span<const uint64_t>> lazy_bits;  // DocBits(), by lazy.
  PairedDocs paired;
  while (true) {
    PAPERDB_RETURN_IF_ERROR(CheckCancelled());
    uint32_t start = kNoMoreDocs;
    for (const auto& it : its) start = std::min(start, it->doc());
    if (start == kNoMoreDocs) break;
    // The window: from `start` to the first end of a clause's block.
    uint32_t end = kNoMoreDocs;
    for (const auto& it : its) end = std::min(end, it->ShallowAdvance(start));
    for (size_t i = 0; i < n; ++i) {
      order[i] = i;
      window_max[i] = its[i]->doc() <= end ? its[i]->BlockMaxScore() : 0.0;
    }
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return window_max[a] < window_max[b];
    });
    // Clauses order[0..essential), whose maxima sum to no more than the
    // k-th score, cannot bring a paper into the top k on their own: lazy.
    size_t essential = 0;
    double sum = 0.0;
    while (essential < n && sum + window_max[order[essential]] <= threshold) {
      sum += window_max[order[essential++]];
    }
    lazy.assign(order.begin(), order.begin() + essential);
    // A dense clause whose maximum alone cannot reach the k-th score needs
    // a second clause on the same paper. If every lazy clause is dense
    // too, its candidates are the docs it shares with a lazy clause
    // (PairedDocs, from their bitsets) and those the walked clauses find:
    // it joins the lazy ones, and its other postings are never read.
    bool pairable = threshold >= 0.0;
    for (const size_t i : lazy) {
      pairable = pairable && !its[i]->DocBits().empty();
    }
    walk.clear();
    for (size_t k = essential; k < n; ++k) {
      const size_t i = order[k];
      const bool paired_only =
          pairable && window_max[i] <= threshold && !its[i]->DocBits().empty();
      (paired_only ? lazy : walk).push_back(i);
    }
    lazy_bits.clear();
    for (const size_t i : lazy) lazy_bits.push_back(its[i]->DocBits());
    paired.Clear();
    if (lazy.size() > essential) {
      for (size_t k = 0; k < lazy.size(); ++k) {
        paired.Add(lazy_bits[k], k >= essential);
      }
    }
    uint32_t next_paired =
        paired.empty() ? kNoMoreDocs : paired.Next(start, end);
    uint32_t doc = kNoMoreDocs;
    bool rose = false;  // The k-th score rose: partition again.
    while (true) {
      doc = next_paired;
      for (const size_t i : walk) doc = std::min(doc, its[i]->doc());
      if (doc > end || doc == kNoMoreDocs) break;
      // The candidate's best possible score, before scoring anything: the
      // window maxima of the walked clauses on it and of the lazy ones
      // that may match it.
      for (size_t k = 0; k < lazy.size(); ++k) {
        const absl::Span<const uint64_t> bits = lazy_bits[k];
        const bool may = bits.empty() ? its[lazy[k]]->MayMatch(doc)
                                      : (doc >> 6) < bits.size() &&
                                            (bits[doc >> 6] >> (doc & 63) & 1);
        reach[k + 1] = reach[k] + (may ? window_max[lazy[k]] : 0.0);
      }
      double upper = reach[lazy.size()];
      for (const size_t i : walk) {
        if (its[i]->doc() == doc) upper += window_max[i];
      }
      if (upper > threshold) {
        double score = 0.0;
        std::fill(part.begin(), part.end(), 0.0);
        for (const size_t i : walk) {
          DocIterator& it = *its[i];
          if (it.doc() == doc) score += part[i] = it.Score();
        }
        // Ties go to the lower doc id, which came first: a candidate that
        // can at best equal the k-th score is out.
        bool out = false;
        for (size_t k = lazy.size(); k-- > 0;) {
          if (score + reach[k + 1] <= threshold) {
            out = true;
            break;
          }
          if (reach[k + 1] == reach[k]) continue;  // Cannot add to it.
          DocIterator& it = *its[lazy[k]];
          it.Advance(doc);
          if (it.doc() == doc) score += part[lazy[k]] = it.Score();
        }
        if (!out) {
          // Summed in clause order, so equal scores tie exactly.
          score = 0.0;
          for (const double p : part) score += p;
          top.Push({doc, score});
          if (top.full() && top.threshold() > threshold) {
            threshold = top.threshold();
            rose = true;
          }
        }
      }
      for (const size_t i : walk) {
        DocIterator& it = *its[i];
        if (it.doc() == doc) it.Next();
      }
      if (rose) break;
      if (next_paired == doc) next_paired = paired.Next(doc + 1, end);
    }
    if (rose) {
      for (const auto& it : its) it->Advance(doc + 1);
      continue;
    }
    if (end == kNoMoreDocs) break;
    for (const auto& it : its) it->Advance(end + 1);
  }
  for (const auto& it : its) PAPERDB_RETURN_IF_ERROR(it->status());
  hits.top = top.Take();
  return hits;
}

absl::StatusOr<uint64_t> Evaluation::CountTermUnion(
    const std::vector<std::string>& terms) {
  std::vector<std::shared_ptr<const index::PostingList>> lists;
  size_t widest = 0;
  uint32_t widest_df = 0;
  for (const std::string& term : terms) {
    PAPERDB_ASSIGN_OR_RETURN(const uint32_t df, Df(term));
    if (df == 0) continue;
    PAPERDB_RETURN_IF_ERROR(CheckCancelledNow());
    PAPERDB_ASSIGN_OR_RETURN(std::shared_ptr<const index::PostingList> list,
                             index::PostingCache::Default().Get(store_, term));
    if (df > widest_df) {
      widest_df = df;
      widest = lists.size();
    }
    lists.push_back(std::move(list));
  }
  if (lists.empty()) return 0;
  DocBitmap rest;
  bool any_rest = false;
  index::PostingBlock block;
  for (size_t l = 0; l < lists.size(); ++l) {
    if (l == widest) continue;
    const index::PostingList& list = *lists[l];
    for (size_t b = 0; b < list.blocks.size(); ++b) {
      PAPERDB_RETURN_IF_ERROR(CheckCancelled());
      PAPERDB_RETURN_IF_ERROR(
          block.DecodeInPlace(list.blocks[b].first_doc, list.value(b)));
      for (size_t i = 0; i < block.size(); ++i) rest.Set(block.doc(i));
      any_rest = true;
    }
  }
  if (!any_rest) return widest_df;
  uint64_t overlap = 0;
  const index::PostingList& list = *lists[widest];
  for (size_t b = 0; b < list.blocks.size(); ++b) {
    const index::PostingList::Block& ref = list.blocks[b];
    if (!rest.AnyInRange(ref.first_doc, ref.header.last_doc)) continue;
    PAPERDB_RETURN_IF_ERROR(CheckCancelled());
    PAPERDB_RETURN_IF_ERROR(block.DecodeInPlace(ref.first_doc, list.value(b)));
    for (size_t i = 0; i < block.size(); ++i) {
      overlap += rest.Contains(block.doc(i));
    }
  }
  return widest_df + rest.Count() - overlap;
}

absl::StatusOr<uint64_t> Evaluation::CountUnion(
    const std::vector<const QueryNode*>& clauses) {
  std::vector<std::string> terms;
  for (const QueryNode* clause : clauses) {
    if (!IsPlainTerm(*clause) || clause->terms.size() != 1) break;
    terms.push_back(clause->terms[0]);
  }
  if (terms.size() == clauses.size()) return CountTermUnion(terms);
  std::vector<std::unique_ptr<DocIterator>> its;
  for (const QueryNode* clause : clauses) {
    PAPERDB_ASSIGN_OR_RETURN(std::unique_ptr<DocIterator> it, Build(*clause));
    its.push_back(std::move(it));
  }
  auto widest = std::max_element(
      its.begin(), its.end(),
      [](const auto& a, const auto& b) { return a->Cost() < b->Cost(); });
  uint64_t total = 0;
  if ((*widest)->ExactCount() >= 0) {
    std::unique_ptr<DocIterator> common = std::move(*widest);
    its.erase(widest);
    total = static_cast<uint64_t>(common->ExactCount());
    std::unique_ptr<DocIterator> rest = NewOrIterator(std::move(its), false);
    for (; rest->doc() != kNoMoreDocs; rest->Next()) {
      PAPERDB_RETURN_IF_ERROR(CheckCancelled());
      common->Advance(rest->doc());
      total += common->doc() != rest->doc();
    }
    PAPERDB_RETURN_IF_ERROR(rest->status());
    PAPERDB_RETURN_IF_ERROR(common->status());
    return total;
  }
  DocBitmap matches;
  for (auto& it : its) {
    PAPERDB_RETURN_IF_ERROR(CheckCancelled());
    PAPERDB_RETURN_IF_ERROR(it->AddAll(&matches, cancelled_));
    PAPERDB_RETURN_IF_ERROR(it->status());
  }
  return matches.Count();
}

}  // namespace paperdb::search::internal
