// PhraseIterator: the papers holding a phrase (its words in order, or
// within a slop), found from the words' posting lists (candidates where
// all appear: phrase_iterator.cc), checked on their positions
// (phrase_positions.cc), and for an exact phrase ranked with block-max
// bounds that skip candidate ranges unchecked (phrase_ranges.cc). Internal
// to the search strategies; make one with NewPhraseIterator()
// (doc_iterator.h).

#ifndef PAPERDB_SEARCH_PHRASE_ITERATOR_H_
#define PAPERDB_SEARCH_PHRASE_ITERATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "paperdb/index/bm25.h"
#include "paperdb/search/cancel.h"
#include "paperdb/search/doc_iterator.h"
#include "paperdb/search/skip_estimator.h"
#include "paperdb/search/term_iterator.h"
#include "paperdb/storage/store.h"

namespace paperdb::search::internal {

class PhraseIterator final : public DocIterator {
 public:
  PhraseIterator(const storage::Store& store,
                 const std::vector<std::string>& words,
                 const std::vector<uint32_t>& dfs,
                 const std::vector<PhrasePart>& parts, uint32_t slop,
                 const index::Bm25Scorer& scorer, const CancelFn& cancelled);

  void Advance(uint32_t target) override;
  // BM25 of the phrase as one term, as Lucene's PhraseQuery scores it: tf
  // is the number of phrase occurrences, idf the sum of the terms' idfs.
  double Score() override;
  void Explain(std::vector<TermContribution>* out) override;
  uint64_t Cost() const override { return terms_[order_[0]]->Cost(); }
  double MaxScore() const override { return scorer_.MaxScore(idf_); }
  // A paper holds an exact phrase at most as often as each of its words,
  // so every word's block impacts, scored with the phrase's idf, bound the
  // phrase's score over that block (as Lucene bounds a phrase by its
  // words' impacts); the tightest bound holds up to the first block end. A
  // sloppy phrase counts every window, which can outnumber a word's
  // occurrences ("zeta zeta zeta omega" holds "zeta omega"~3 three times):
  // it has no block bound.
  uint32_t ShallowAdvance(uint32_t target) override;
  double BlockMaxScore() override { return block_max_; }
  // An exact phrase (slop 0) then skips, unchecked, candidates whose words'
  // term frequencies bound its score to `score` or less; a sloppy phrase has
  // no such bound and checks every candidate.
  bool SetMinCompetitiveScore(double score) override;
  // The skipped candidates' matches: the probes' (not returned, so not
  // counted by the caller), and the rest estimated from them.
  uint64_t SkippedMatches(bool* skipped_any) const override;
  absl::Status status() const override;

 private:
  // Moves to the first doc >= target holding every term where the positions
  // match.
  void Find(uint32_t target);

  // Whether every term's list keeps a bitset of its docs: candidates in a
  // doc range are then counted without walking them (NextRange()).
  bool AllDense();

  // The first doc >= target in every term's list, or kNoMoreDocs, when not
  // all have bitsets: Leapfrog() from the rarest, where a term with a
  // bitset is asked whether it holds the lead's doc (a bit) before any
  // sparse term seeks, instead of being advanced to its own next doc.
  uint32_t LeapfrogBits(uint32_t target);

  // The first doc >= target in every term's list, or kNoMoreDocs: a
  // word-wise AND of their bitsets. REQUIRES: AllDense().
  uint32_t NextCandidate(uint32_t target) const;

  // The doc range from `target` to the end of the first of the terms'
  // blocks there, and its bound: the smallest of those blocks' bounds with
  // the phrase's idf. A range that cannot beat min_competitive_ is skipped
  // (block-max pruning over the candidates, Ding & Suel 2011) but for
  // probes: its candidates, counted exactly in the terms' bitsets, are
  // range_skips_'s units, and about one in 16 of them is checked. False if
  // a term has no docs from `target` on, or on an error (status()).
  // REQUIRES: slop_ == 0, AllDense().
  bool NextRange(uint32_t target);

  // A competitive range's candidates, listed into filtered_ with
  // ScoreBound()'s bound: the phrase's score at the least count of its
  // words in the paper (each less its repeats_) and the paper's length.
  // Each word's bitset and term frequencies (and the rarest word's
  // lengths) are walked together, a block decoded at once, so that
  // NextFiltered() skips the candidates that cannot compete (past the first
  // matches, most: a paper holding a word once, or a long one) without
  // locating any posting, where Find() would locate each. False on an
  // error (status()).
  bool FilterRange(uint32_t target);

  // FilterRange()'s error for terms_[i]: more docs in its bitset than in
  // its block. Returns false.
  bool BitsetPastBlock(size_t i);

  // The next match at or after `target` among filtered_'s candidates, into
  // *match; false when there is none (or on an error, status()). A
  // candidate whose bound cannot compete is skipped unlocated, unless
  // skips_ probes it; the others have their positions checked.
  bool NextFiltered(uint32_t target, uint32_t* match);

  // The bound of terms_[i]'s `block` on the phrase's score: its best
  // impact (Block::MaxScore()) with the phrase's idf, each impact's tf less
  // the word's repeats_; -1 if no posting of the block occurs often enough
  // to fill the word's places in the phrase (then none of its docs holds
  // the phrase).
  double BlockBound(const index::PostingList::Block& block, size_t i) const;

  // A bound on the exact phrase's score in the candidate. The phrase
  // occurs there at most as often as each of its words, less the word's
  // repeats_ (its other places in the phrase), and BM25 grows with tf, so
  // the phrase cannot score more than with the least of those counts. The
  // words are asked in bound_order_, and the first bound at or below
  // min_competitive_ is returned at once: the other words' postings are
  // then not located. -1 if a count is 0 (a repeated word too few times in
  // the paper): the candidate cannot match. REQUIRES: slop_ == 0.
  double ScoreBound();

  // After the word at bound_order_[k] (k > 0) decided a bound: every 64
  // such decisions by a later word, the word that decided most of them
  // since is asked first.
  void Reorder(size_t k);

  // Decodes terms_[i]'s positions in the candidate into positions_[i];
  // false, with status_ set, if they are malformed.
  bool DecodePositions(size_t i);

  // Whether the decoded positions of distinct terms a and b hold a pair at
  // the distance of their first places in the exact phrase: a merge.
  bool PairAligned(size_t a, size_t b) const;

  bool PositionsMatch();

  uint32_t slop_;
  const index::Bm25Scorer& scorer_;
  const CancelFn& cancelled_;
  uint64_t candidates_ = 0;  // Examined, for the cancellation checks.
  // SetMinCompetitiveScore()'s score, -1 until it is called.
  double min_competitive_ = -1.0;
  // Candidates skipped one by one as not competitive, and the probes among
  // them; and those skipped with their range (NextRange()), apart: the two
  // are probed at different rates and bounds, and one estimator mixing
  // them overestimates repeated-word phrases by 20-76%.
  SkipEstimator skips_;
  SkipEstimator range_skips_;
  uint64_t ranges_ = 0;  // Skippable ranges, for the cancellation checks.
  // The doc range NextRange() last decided on.
  struct Range {
    bool valid = false;
    uint32_t last = 0;      // Its last doc id.
    bool skipped = false;   // Not competitive: skipped but for probes.
    bool filtered = false;  // Competitive: its candidates are filtered_.
  };
  Range range_;
  // A competitive range's candidates (FilterRange()): doc id, and the
  // bound on the phrase's score there.
  struct Filtered {
    uint32_t doc;
    double bound;
  };
  // FilterRange()'s walk of each term's postings in the range: the term
  // frequencies from its first doc there on, its bits in the current word
  // of doc ids, and the number of its docs before that word.
  struct Walk {
    absl::Span<const uint32_t> tfs;
    absl::Span<const uint8_t> next_words;  // Masks of the same postings.
    uint32_t first = 0;
    uint64_t mine = 0;
    size_t rank = 0;
  };
  std::vector<Walk> walks_;
  absl::Span<const uint32_t> lengths_;  // The rarest term's, in the walk.
  std::vector<Filtered> filtered_;
  size_t next_filtered_ = 0;
  int all_dense_ = -1;  // AllDense(), once known.
  // Per term in order_, its list if it has a bitset, else null.
  std::vector<const index::PostingList*> bits_of_;
  // Each term's doc_bits, and the fewest words of them, when AllDense().
  std::vector<const uint64_t*> dense_;
  size_t dense_words_ = 0;

  uint64_t probe_matches_ = 0;         // Probes that hold the phrase.
  double idf_ = 0.0;                   // Sum over the phrase's words.
  uint32_t min_word_df_ = UINT32_MAX;  // The rarest word's, for Explain().
  uint32_t frequency_ = 0;             // Occurrences in the current doc.
  double block_max_ = 0.0;             // For the last ShallowAdvance().
  std::vector<std::unique_ptr<TermIterator>> terms_;  // Distinct terms.
  std::vector<std::string> words_;  // The phrase's words, for Explain().
  std::vector<size_t> slots_;       // Phrase part -> index in terms_.
  std::vector<uint32_t> offsets_;   // Phrase part -> its word's offset.
  std::vector<size_t> order_;       // terms_ by ascending df.
  // An exact phrase's adjacent parts: a candidate whose posting of
  // terms_[slot] has no `bit` in its next-word mask (index/next_words.h)
  // does not hold the phrase, and its positions are not decoded.
  struct NextWordCheck {
    size_t slot;
    uint8_t bit;
  };
  std::vector<NextWordCheck> next_word_checks_;
  // Per distinct term, its places in the phrase; of an exact phrase, those
  // less one (0 for a sloppy one, which has no frequency bound).
  std::vector<uint32_t> places_;
  std::vector<uint32_t> repeats_;
  bool has_repeats_ = false;  // Some word stands twice in an exact phrase.
  // The order ScoreBound() asks terms_ in, and Reorder()'s counts.
  std::vector<size_t> bound_order_;
  std::vector<uint64_t> decided_by_;
  uint64_t late_decisions_ = 0;
  // Positions of each distinct term in the current candidate, reused.
  std::vector<std::vector<uint32_t>> positions_;
  // Per distinct term, a bitset of its positions in the current candidate.
  std::vector<uint64_t> position_bits_;
  absl::Status status_;
};

}  // namespace paperdb::search::internal

#endif  // PAPERDB_SEARCH_PHRASE_ITERATOR_H_
