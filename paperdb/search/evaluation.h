// Evaluation: one search's evaluation of an expanded query against the
// inverted index, with the strategies the searcher (searcher.h) picks from:
// a single term, a conjunction of terms, a MaxScore disjunction, and
// document-at-a-time collection of any iterator tree, each with block-max
// pruning. It reads and caches document frequencies (pinned ones first,
// ScoringPin). Internal to the searcher: one object per Search() call, not
// thread-safe.

#ifndef PAPERDB_SEARCH_EVALUATION_H_
#define PAPERDB_SEARCH_EVALUATION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/bm25.h"
#include "paperdb/search/cancel.h"
#include "paperdb/search/doc_iterator.h"
#include "paperdb/search/query.h"
#include "paperdb/search/searcher.h"
#include "paperdb/search/skip_estimator.h"
#include "paperdb/storage/store.h"

namespace paperdb::search::internal {

using Kind = QueryNode::Kind;

// A term read as its posting list alone: not one whose stem other words
// share (word_form_iterator.h).
inline bool IsPlainTerm(const QueryNode& node) {
  return node.kind == Kind::kTerm && !node.split_forms && node.boost == 1.0;
}

class Evaluation {
 public:
  // With `pin` (may be null; not owned), its document frequencies.
  Evaluation(const storage::Store& store, const index::Bm25Scorer& scorer,
             const CancelFn& cancelled, const ScoringPin* pin = nullptr)
      : store_(store), scorer_(scorer), cancelled_(cancelled), pin_(pin) {}

  // The document frequencies read so far, by PinnedTermHash().
  absl::flat_hash_map<uint32_t, uint32_t> DocumentFrequencies() const {
    absl::flat_hash_map<uint32_t, uint32_t> out;
    for (const auto& [term, df] : scoring_dfs_) out[PinnedTermHash(term)] = df;
    return out;
  }

  // The iterator of `node`, scaled by its boost.
  absl::StatusOr<std::unique_ptr<DocIterator>> Build(const QueryNode& node) {
    PAPERDB_ASSIGN_OR_RETURN(std::unique_ptr<DocIterator> it, BuildNode(node));
    if (node.boost != 1.0) it = NewScaledIterator(std::move(it), node.boost);
    return it;
  }

  absl::StatusOr<std::unique_ptr<DocIterator>> BuildNode(const QueryNode& node);

  // An acronym's expansion names one concept: scored as its words (a
  // phrase, or words in a conjunction), it would weigh the sum of their
  // idfs, and a paper naming the concept twice in words outrank one naming
  // it eight times by its acronym ("LLMs"). Its score is scaled so that its
  // idf is the concept's: that of the acronym or of the rarest expansion
  // word, whichever is more common (the phrase is in at most that many
  // papers). 1 if the words weigh no more, or are not plain terms.
  absl::StatusOr<double> ConceptFactor(const QueryNode& expansion);

  // CANCELLED once `cancelled_` says so; asks it on the first call and then
  // every 1024 calls only.
  absl::Status CheckCancelled() {
    if (!cancelled_ || (steps_++ & 1023) != 0 || !cancelled_()) {
      return absl::OkStatus();
    }
    return SearchCancelledError();
  }

  // CANCELLED if `cancelled_` says so now: before reading a posting list,
  // which may take a RocksDB read (a search's clock keeps running there).
  absl::Status CheckCancelledNow() {
    if (cancelled_ && cancelled_()) return SearchCancelledError();
    return absl::OkStatus();
  }

  // The papers holding `term` now: for counts and costs.
  absl::StatusOr<uint32_t> Df(const std::string& term);

  // The df `term`'s idf is of: the pin's if it has one, else Df().
  absl::StatusOr<uint32_t> ScoringDf(const std::string& term);

  // One term, nothing else, relevance order: the count is its document
  // frequency, and the top k need only the blocks whose best possible score
  // (from the block's impacts, posting_list.h) beats the k-th best so far:
  // block-max pruning (Ding & Suel, SIGIR 2011). Skipped blocks are never
  // decoded.
  absl::StatusOr<SearchHits> SingleTerm(const std::string& term,
                                        const SearchOptions& options);

  // The clauses of `node` if it is a plain sum of clauses (a non-dismax OR,
  // alone or as the only child of an AND), else empty.
  static std::vector<const QueryNode*> Disjuncts(const QueryNode& node);

  // Every match of `node`, counted and ranked: by Disjunction() when it is
  // a sum of clauses ranked by relevance, else by Collect().
  absl::StatusOr<SearchHits> Run(const QueryNode& node,
                                 const SearchOptions& options);

  // True for an AND of two or more plain terms, nothing excluded: the most
  // common query, which TermConjunction() answers.
  static bool IsTermConjunction(const QueryNode& node);

  // Collect() of an AND of plain terms, specialised: the same matches,
  // count, scores (summed in the same order) and top k, without a tree of
  // iterators. The rarest term's blocks are walked doc by doc; each other
  // term's list is searched in memory, its blocks decoded only when their
  // doc range holds a candidate; frequencies are decoded only for matches
  // that get scored, and a match is only counted when the block-max bound
  // of the blocks holding it cannot reach the top k (Ding & Suel 2011).
  // A lead block that no block of another term overlaps is skipped. Once
  // options.exact_total_up_to matches are counted, so is a lead block
  // whose bound, with the best bound of the other terms' blocks over its
  // doc range, cannot reach the top k, but for one such block in 16, walked
  // as a probe: the skipped blocks' matches are estimated from the probes'
  // rate of matches per lead posting.
  absl::StatusOr<SearchHits> TermConjunction(const QueryNode& node,
                                             const SearchOptions& options);

  template <typename Heap>
  static SearchHits Finish(SearchHits hits, Heap& top) {
    hits.top = top.Take();
    return hits;
  }

  // Adds the estimated matches of the parts `skips` skipped, and marks the
  // total estimated if it skipped any.
  static SearchHits WithSkipped(SearchHits hits, const SkipEstimator& skips) {
    if (!skips.skipped_any()) return hits;
    hits.total_estimated = true;
    hits.total += skips.SkippedMatches();
    return hits;
  }

  // Top k of the sum of `clauses` by MaxScore (H. Turtle and J. Flood,
  // "Query evaluation: strategies and optimizations", IP&M 31(6), 1995; as
  // in Lucene's MaxScoreBulkScorer), in windows of doc ids over which each
  // clause's score is bounded by its blocks' impacts (block-max, Ding &
  // Suel 2011): in a window, clauses sorted by their bounds whose bounds sum
  // to no more than the k-th best score so far cannot put a paper into the
  // top k on their own, so only the other ("essential") clauses' postings
  // are walked; the rest are advanced to those candidates only, and not at
  // all once the candidate cannot reach the k-th score or their bitsets
  // say they do not hold it (DocIterator::MayMatch). An essential clause
  // with a bitset whose bound alone cannot reach the k-th score is not
  // walked either when the non-essential ones all have bitsets: its
  // candidates are the papers it shares with one of them (PairedDocs).
  // The partition is made again whenever the k-th score rises. A window
  // where no clause is essential is skipped whole. The count comes from
  // CountUnion(), with no scoring, or is estimated: when every clause is a
  // word and one alone matches options.exact_total_up_to papers or more,
  // the words are taken as independent, N (1 - prod(1 - n_i / N)) for
  // clauses matching n_i of N papers (an exact count, or the cost bound
  // of a clause that has none), and at least the largest exact n_i.
  absl::StatusOr<SearchHits> Disjunction(
      const std::vector<const QueryNode*>& clauses,
      const SearchOptions& options);

  // The exact number of papers holding any of `terms`, read straight from
  // their posting lists: the doc ids of all but the widest list are marked
  // in a bitmap, and the widest list (counted by its document frequency)
  // is decoded only in blocks whose doc range holds a marked doc, to remove
  // the overlap.
  absl::StatusOr<uint64_t> CountTermUnion(
      const std::vector<std::string>& terms);

  // The exact number of papers matching any of `clauses`, without scoring.
  // If the most common clause's count is known (a term's document
  // frequency), it is that count plus the papers of the other clauses that
  // it does not hold, found by probing it with Advance() from their merged
  // doc ids: the common clause is mostly skipped, not decoded. Else every
  // clause's doc ids are marked in a bitmap.
  absl::StatusOr<uint64_t> CountUnion(
      const std::vector<const QueryNode*>& clauses);

  // Every match of `root`, counted and ranked.
  absl::StatusOr<SearchHits> Collect(DocIterator& root,
                                     const SearchOptions& options);

 private:
  // Sorts `docs` (in doc order) by year or ingest order, ties by doc id.
  absl::Status SortBy(SortOrder order, std::vector<ScoredDoc>* docs);

  const storage::Store& store_;
  const index::Bm25Scorer& scorer_;
  const CancelFn& cancelled_;
  const ScoringPin* pin_;
  absl::flat_hash_map<std::string, uint32_t> dfs_;          // Df().
  absl::flat_hash_map<std::string, uint32_t> scoring_dfs_;  // ScoringDf().
  uint64_t steps_ = 0;
};

}  // namespace paperdb::search::internal

#endif  // PAPERDB_SEARCH_EVALUATION_H_
