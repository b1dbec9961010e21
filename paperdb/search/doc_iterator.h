// Document-at-a-time iterators over the inverted index: one per query node
// (term, phrase, conjunction, disjunction), composed into a tree that walks
// the matching papers in increasing doc id order and scores each with BM25.
// The design follows Lucene's DocIdSetIterator/Scorer: Advance() leapfrogs
// the rarest iterator of a conjunction, phrases are verified with positions
// only on papers holding all their terms.
//
// Not thread-safe: build one tree per search. Term iterators hold their
// posting lists (posting_list.h); the Bm25Scorer passed to a factory is held
// by reference and must outlive the tree.

#ifndef PAPERDB_SEARCH_DOC_ITERATOR_H_
#define PAPERDB_SEARCH_DOC_ITERATOR_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "paperdb/index/bm25.h"
#include "paperdb/index/posting_iterator.h"
#include "paperdb/search/cancel.h"
#include "paperdb/search/doc_bitmap.h"

namespace paperdb::search {

using index::kNoMoreDocs;

// One query term's part of a paper's score (the `explain` option).
struct TermContribution {
  std::string term;
  uint32_t tf = 0;  // Occurrences in the paper.
  uint32_t df = 0;  // Papers holding the term.
  double idf = 0.0;
  uint32_t doc_length = 0;  // Of the paper, in terms.
  double score = 0.0;       // BM25 of this term for the paper.
  // The paper holds only other words of the term's stem than the one typed
  // (word_form_iterator.h): `score` is weighted down.
  bool stem_only = false;
  // An alternative of a word (disjunction max: the word's own terms beside
  // its concept or acronym) that the paper holds but that scored lower than
  // the best one: listed with `score` 0, as it adds nothing.
  bool outscored = false;
};

class DocIterator {
 public:
  virtual ~DocIterator() = default;

  // The current doc id, kNoMoreDocs once exhausted. A new iterator is on
  // its first match already.
  uint32_t doc() const { return doc_; }

  // Moves to the first match with doc id >= `target`; a no-op if doc() is
  // already there.
  virtual void Advance(uint32_t target) = 0;
  void Next() { Advance(doc_ + 1); }

  // BM25 of the current doc. REQUIRES: doc() != kNoMoreDocs.
  virtual double Score() = 0;

  // Appends the scored terms of the current doc to `out`.
  virtual void Explain(std::vector<TermContribution>* out) = 0;

  // Upper bound on the number of matches (for ordering conjunctions).
  virtual uint64_t Cost() const = 0;

  // The exact number of matches if known without iterating (a term's
  // document frequency), else -1.
  virtual int64_t ExactCount() const { return -1; }

  // Upper bound on Score() at any doc: a clause's "max score" in MaxScore
  // pruning. For a term, BM25's limit as tf grows, idf * (k1 + 1).
  virtual double MaxScore() const = 0;

  // False only if the iterator cannot match `doc` at any position, known
  // without moving or decoding anything (a dense term's bitset,
  // PostingList::doc_bits); true otherwise. For MaxScore, whose candidate's
  // bound then leaves out the clauses that cannot match it.
  virtual bool MayMatch(uint32_t doc) const {
    (void)doc;
    return true;
  }
  // The docs the iterator matches as a bitset (bit d % 64 of word d / 64),
  // if it keeps one (a dense term: PostingList::doc_bits); else empty.
  virtual absl::Span<const uint64_t> DocBits() const { return {}; }

  // Block-max pruning (Ding & Suel, SIGIR 2011; Lucene's advanceShallow
  // and getMaxScore): prepares BlockMaxScore() for docs from `target` on,
  // without moving doc(), and returns the last doc id it holds for. The
  // default has no blocks: MaxScore(), up to kNoMoreDocs.
  virtual uint32_t ShallowAdvance(uint32_t target) {
    (void)target;
    return kNoMoreDocs;
  }
  // Upper bound on Score() for docs in [target, end] of the last
  // ShallowAdvance(target) that returned `end`.
  virtual double BlockMaxScore() { return MaxScore(); }

  // Dynamic pruning within one iterator (Lucene's
  // Scorer.setMinCompetitiveScore): from now on a match that cannot score
  // above `score` may be skipped, uncounted, when that saves work; calls
  // never lower the score. Only for the root of a search ranked by score,
  // once its count may be estimated. Returns true if the iterator skips
  // such matches (and estimates them, SkippedMatches()); the default skips
  // nothing and returns false.
  virtual bool SetMinCompetitiveScore(double score) {
    (void)score;
    return false;
  }
  // An estimate of the matches skipped so far by SetMinCompetitiveScore();
  // *skipped_any says whether any candidate was skipped at all.
  virtual uint64_t SkippedMatches(bool* skipped_any) const {
    *skipped_any = false;
    return 0;
  }

  // Adds every remaining match (from doc() on) to `matches` and exhausts the
  // iterator: counting without scoring. A term reads doc ids only. Asks
  // `cancelled` (if set) every few thousand matches; CANCELLED, with the
  // iterator exhausted and `matches` partial, once it says so.
  virtual absl::Status AddAll(DocBitmap* matches, const CancelFn& cancelled) {
    for (uint32_t n = 1; doc_ != kNoMoreDocs; Next(), ++n) {
      matches->Set(doc_);
      if ((n & 4095) == 0 && cancelled && cancelled()) {
        doc_ = kNoMoreDocs;
        return Cancelled();
      }
    }
    return absl::OkStatus();
  }

  // The status of a search stopped by its CancelFn.
  static absl::Status Cancelled() { return SearchCancelledError(); }

  // Non-OK once a store error or a malformed block stopped iteration (then
  // doc() == kNoMoreDocs).
  virtual absl::Status status() const = 0;

 protected:
  uint32_t doc_ = kNoMoreDocs;
};

// Matches nothing.
std::unique_ptr<DocIterator> NewEmptyIterator();

// One term's postings, of `df` papers (its cost and count). `scored` false
// (field terms): Score() is 0. Its idf is of `scoring_df` if not 0 (a df a
// first page pinned, searcher.h ScoringPin), else of `df`.
std::unique_ptr<DocIterator> NewTermIterator(const storage::Store& store,
                                             const std::string& term,
                                             uint32_t df,
                                             const index::Bm25Scorer& scorer,
                                             bool scored = true,
                                             uint32_t scoring_df = 0);

// One posting list a phrase reads: a word, or a common gram of two
// (paperdb/index/common_grams.h), standing `offset` words into the phrase.
struct PhrasePart {
  std::string term;
  uint32_t df = 0;      // Papers holding `term`: how rare it is.
  uint32_t offset = 0;  // Of its (first) word in the phrase.
};

// Papers holding the phrase `words` (dfs: each word's document frequency):
// every part of `parts` at its offset from a common start (slop 0), or,
// with slop > 0 (where `parts` must be the words, offsets 0, 1, ...), all
// words within a window of words.size() - 1 + slop positions in any order.
// Scored as one term, as Lucene scores phrases: BM25 with tf = occurrences
// of the phrase, idf = the sum of its words' idfs.
// A candidate (a paper with every part) can fail its positions check, so a
// single Next() may examine many; `cancelled` (if set) is asked every few
// thousand, and once it says so the iterator ends with status() CANCELLED.
std::unique_ptr<DocIterator> NewPhraseIterator(
    const storage::Store& store, const std::vector<std::string>& words,
    const std::vector<uint32_t>& dfs, const std::vector<PhrasePart>& parts,
    uint32_t slop, const index::Bm25Scorer& scorer, const CancelFn& cancelled);

// Papers matching every one of `required` (at least one) and none of
// `excluded`. Scores sum the required children's.
std::unique_ptr<DocIterator> NewAndIterator(
    std::vector<std::unique_ptr<DocIterator>> required,
    std::vector<std::unique_ptr<DocIterator>> excluded);

// Papers matching any of `children`. Scores sum the matching children's, or
// take the best one's with `dismax` (alternatives for one word).
std::unique_ptr<DocIterator> NewOrIterator(
    std::vector<std::unique_ptr<DocIterator>> children, bool dismax);

// `child`'s matches with every score (and bound, and explained term's
// score and idf) multiplied by `factor` (> 0).
std::unique_ptr<DocIterator> NewScaledIterator(
    std::unique_ptr<DocIterator> child, double factor);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_DOC_ITERATOR_H_
