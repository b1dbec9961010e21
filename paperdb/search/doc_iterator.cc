#include "paperdb/search/doc_iterator.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "paperdb/search/skip_estimator.h"

namespace paperdb::search {
namespace {

using index::PostingIterator;

class EmptyIterator final : public DocIterator {
 public:
  void Advance(uint32_t) override {}
  double Score() override { return 0.0; }
  void Explain(std::vector<TermContribution>*) override {}
  uint64_t Cost() const override { return 0; }
  int64_t ExactCount() const override { return 0; }
  double MaxScore() const override { return 0.0; }
  absl::Status AddAll(DocBitmap*, const CancelFn&) override {
    return absl::OkStatus();
  }
  absl::Status status() const override { return absl::OkStatus(); }
};

// The first doc >= `target` on which all `n` iterators stand, `at(i)`
// giving the i-th (rarest first), or kNoMoreDocs: the leapfrog of Lucene's
// ConjunctionDISI. Each iterator is advanced at most to that doc.
template <typename At>
uint32_t Leapfrog(size_t n, const At& at, uint32_t target) {
  while (true) {
    DocIterator& lead = at(0);
    lead.Advance(target);
    target = lead.doc();
    bool aligned = true;
    for (size_t i = 1; i < n && target != kNoMoreDocs; ++i) {
      DocIterator& other = at(i);
      other.Advance(target);
      if (other.doc() != target) {
        target = other.doc();
        aligned = false;
        break;
      }
    }
    if (aligned || target == kNoMoreDocs) return target;
  }
}

class TermIterator final : public DocIterator {
 public:
  TermIterator(const storage::Store& store, const std::string& term,
               uint32_t df, const index::Bm25Scorer& scorer, bool scored,
               uint32_t scoring_df)
      : postings_(store, term),
        scorer_(scorer),
        df_(df),
        idf_(scorer.Idf(scoring_df)),
        scored_(scored) {
    doc_ = postings_.doc();
    const index::PostingList* list = postings_.list();
    if (list != nullptr && !list->doc_bits.empty()) bits_ = list;
  }

  void Advance(uint32_t target) override {
    if (doc_ >= target) return;
    postings_.Advance(target);
    doc_ = postings_.doc();
  }
  double Score() override {
    if (!scored_) return 0.0;
    return scorer_.Score(idf_, postings_.tf(), postings_.doc_length());
  }
  void Explain(std::vector<TermContribution>* out) override {
    if (!scored_) return;
    out->push_back({postings_.term(), postings_.tf(), df_, idf_,
                    postings_.doc_length(), Score()});
  }
  uint64_t Cost() const override { return df_; }
  int64_t ExactCount() const override { return df_; }
  double MaxScore() const override {
    return scored_ ? scorer_.MaxScore(idf_) : 0.0;
  }
  bool MayMatch(uint32_t doc) const override {
    return bits_ == nullptr || bits_->Contains(doc);
  }
  absl::Span<const uint64_t> DocBits() const override {
    if (bits_ == nullptr) return {};
    return bits_->doc_bits;
  }
  uint32_t ShallowAdvance(uint32_t target) override {
    const index::PostingList::Block* block = postings_.ShallowAdvance(target);
    if (block == nullptr) {
      block_max_ = 0.0;
      return kNoMoreDocs;
    }
    block_max_ = scored_ ? block->MaxScore(scorer_, idf_) : 0.0;
    return block->header.last_doc;
  }
  double BlockMaxScore() override { return block_max_; }
  absl::Status AddAll(DocBitmap* matches, const CancelFn& cancelled) override {
    for (uint32_t n = 1; postings_.doc() != kNoMoreDocs;
         postings_.Next(), ++n) {
      matches->Set(postings_.doc());
      if ((n & 65535) == 0 && cancelled && cancelled()) {
        doc_ = kNoMoreDocs;
        return Cancelled();
      }
    }
    doc_ = kNoMoreDocs;
    return absl::OkStatus();
  }
  absl::Status status() const override { return postings_.status(); }

  PostingIterator& postings() { return postings_; }

 private:
  PostingIterator postings_;
  const index::Bm25Scorer& scorer_;
  uint32_t df_;
  double idf_;
  bool scored_;
  double block_max_ = 0.0;  // For the last ShallowAdvance().
  // The list, if it is dense (doc_bits), for MayMatch(); postings_ holds it.
  const index::PostingList* bits_ = nullptr;
};

class PhraseIterator final : public DocIterator {
 public:
  PhraseIterator(const storage::Store& store,
                 const std::vector<std::string>& words,
                 const std::vector<uint32_t>& dfs,
                 const std::vector<PhrasePart>& parts, uint32_t slop,
                 const index::Bm25Scorer& scorer, const CancelFn& cancelled)
      : slop_(slop), scorer_(scorer), cancelled_(cancelled), words_(words) {
    absl::flat_hash_map<std::string, size_t> slot_of;
    for (const PhrasePart& part : parts) {
      auto [it, inserted] = slot_of.emplace(part.term, terms_.size());
      if (inserted) {
        terms_.push_back(std::make_unique<TermIterator>(
            store, part.term, part.df, scorer, true, part.df));
      }
      slots_.push_back(it->second);
      offsets_.push_back(part.offset);
    }
    // A word standing m times in an exact phrase fills m of its places from
    // each start, so m - 1 of its occurrences in a paper start none.
    places_.assign(terms_.size(), 0);
    for (const size_t slot : slots_) ++places_[slot];
    repeats_.assign(terms_.size(), 0);
    if (slop_ == 0) {
      std::vector<bool> seen(terms_.size(), false);
      for (const size_t slot : slots_) {
        if (seen[slot]) {
          ++repeats_[slot];
          has_repeats_ = true;
        }
        seen[slot] = true;
      }
    }
    bound_order_.resize(terms_.size());
    for (size_t i = 0; i < bound_order_.size(); ++i) bound_order_[i] = i;
    order_.resize(terms_.size());
    for (size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    std::sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
      return terms_[a]->Cost() < terms_[b]->Cost();
    });
    for (const uint32_t df : dfs) {
      idf_ += scorer.Idf(df);
      min_word_df_ = std::min(min_word_df_, df);
    }
    doc_ = 0;
    Find(0);
  }

  void Advance(uint32_t target) override {
    if (doc_ >= target) return;
    Find(target);
  }
  // BM25 of the phrase as one term, as Lucene's PhraseQuery scores it: tf
  // is the number of phrase occurrences, idf the sum of the terms' idfs.
  double Score() override {
    return scorer_.Score(idf_, frequency_, terms_[0]->postings().doc_length());
  }
  void Explain(std::vector<TermContribution>* out) override {
    // StrCat, not operator+ on std::string: GCC 12 at -O3 (a Release
    // build) reports a false -Wrestrict on `"~" + std::to_string(...)`.
    std::string phrase = absl::StrCat("\"", absl::StrJoin(words_, " "), "\"");
    if (slop_ > 0) absl::StrAppend(&phrase, "~", slop_);
    out->push_back({phrase, frequency_, min_word_df_, idf_,
                    terms_[0]->postings().doc_length(), Score()});
  }
  uint64_t Cost() const override { return terms_[order_[0]]->Cost(); }
  double MaxScore() const override { return scorer_.MaxScore(idf_); }
  // A paper holds an exact phrase at most as often as each of its words,
  // so every word's block impacts, scored with the phrase's idf, bound the
  // phrase's score over that block (as Lucene bounds a phrase by its
  // words' impacts); the tightest bound holds up to the first block end. A
  // sloppy phrase counts every window, which can outnumber a word's
  // occurrences ("zeta zeta zeta omega" holds "zeta omega"~3 three times):
  // it has no block bound.
  uint32_t ShallowAdvance(uint32_t target) override {
    block_max_ = scorer_.MaxScore(idf_);
    if (slop_ > 0) return kNoMoreDocs;
    uint32_t end = kNoMoreDocs;
    size_t term_index = 0;
    for (const auto& term : terms_) {
      const index::PostingList::Block* block =
          term->postings().ShallowAdvance(target);
      if (block == nullptr) {
        block_max_ = 0.0;  // No more matches.
        return kNoMoreDocs;
      }
      end = std::min(end, block->header.last_doc);
      block_max_ = std::min(block_max_, BlockBound(*block, term_index));
      ++term_index;
    }
    block_max_ = std::max(block_max_, 0.0);
    return end;
  }
  double BlockMaxScore() override { return block_max_; }
  // An exact phrase (slop 0) then skips, unchecked, candidates whose words'
  // term frequencies bound its score to `score` or less; a sloppy phrase has
  // no such bound and checks every candidate.
  bool SetMinCompetitiveScore(double score) override {
    if (slop_ > 0) return false;
    min_competitive_ = score;
    return true;
  }
  // The skipped candidates' matches: the probes' (not returned, so not
  // counted by the caller), and the rest estimated from them.
  uint64_t SkippedMatches(bool* skipped_any) const override {
    *skipped_any = skips_.skipped_any() || range_skips_.skipped_any();
    return probe_matches_ + skips_.SkippedMatches() +
           range_skips_.SkippedMatches();
  }
  absl::Status status() const override {
    for (const auto& term : terms_) {
      if (!term->status().ok()) return term->status();
    }
    return status_;
  }

 private:
  // Moves to the first doc >= target holding every term where the positions
  // match.
  void Find(uint32_t target) {
    while (true) {
      if (min_competitive_ >= 0.0 && slop_ == 0 && AllDense() &&
          (!range_.valid || target > range_.last)) {
        if (!NextRange(target)) {
          doc_ = kNoMoreDocs;
          return;
        }
        if (range_.skipped) {
          target = range_.last + 1;
          range_.valid = false;
          if (target == 0) {  // Past the last doc id.
            doc_ = kNoMoreDocs;
            return;
          }
          continue;
        }
      }
      if (range_.valid && range_.filtered) {
        uint32_t match = 0;
        if (NextFiltered(target, &match)) {
          doc_ = match;
          return;
        }
        if (!status().ok()) {
          doc_ = kNoMoreDocs;
          return;
        }
        target = range_.last + 1;
        range_.valid = false;
        if (target == 0) {  // Past the last doc id.
          doc_ = kNoMoreDocs;
          return;
        }
        continue;
      }
      if (AllDense()) {
        // The next doc set in every term's bitset, 64 doc ids a step.
        target = NextCandidate(target);
        if (target != kNoMoreDocs) {
          for (const auto& term : terms_) term->Advance(target);
        }
      } else {
        target = LeapfrogBits(target);
      }
      if (target == kNoMoreDocs || !status().ok()) {
        doc_ = kNoMoreDocs;
        return;
      }
      // Past the range: its successor decides first.
      if (range_.valid && target > range_.last) continue;
      if ((++candidates_ & 4095) == 0 && cancelled_ && cancelled_()) {
        status_ = Cancelled();
        doc_ = kNoMoreDocs;
        return;
      }
      if (slop_ > 0) {
        if (PositionsMatch()) {
          doc_ = target;
          return;
        }
      } else if (min_competitive_ < 0.0) {
        if ((!has_repeats_ || ScoreBound() >= 0.0) && PositionsMatch()) {
          doc_ = target;
          return;
        }
      } else if (const double bound = ScoreBound(); bound < 0.0) {
        // A repeated word too few times in the paper: no match, certainly.
      } else if (bound > min_competitive_) {
        if (PositionsMatch()) {
          doc_ = target;
          return;
        }
      } else if (skips_.ShouldProbe(bound, min_competitive_, 1) &&
                 PositionsMatch()) {
        // Not competitive: skipped, but for a few probes (SkipEstimator)
        // checked for the estimate of their matches.
        skips_.AddProbeMatches(1);
        ++probe_matches_;
      }
      ++target;
    }
  }

  // Whether every term's list keeps a bitset of its docs: candidates in a
  // doc range are then counted without walking them (NextRange()).
  bool AllDense() {
    if (all_dense_ < 0) {
      all_dense_ = 1;
      dense_words_ = SIZE_MAX;
      for (const auto& term : terms_) {
        const index::PostingList* list = term->postings().list();
        if (list == nullptr || list->doc_bits.empty()) {
          all_dense_ = 0;
          break;
        }
        dense_.push_back(list->doc_bits.data());
        dense_words_ = std::min(dense_words_, list->doc_bits.size());
      }
    }
    return all_dense_ == 1;
  }

  // The first doc >= target in every term's list, or kNoMoreDocs, when not
  // all have bitsets: Leapfrog() from the rarest, where a term with a
  // bitset is asked whether it holds the lead's doc (a bit) before any
  // sparse term seeks, instead of being advanced to its own next doc.
  uint32_t LeapfrogBits(uint32_t target) {
    if (bits_of_.empty()) {
      for (const size_t i : order_) {
        const index::PostingList* list = terms_[i]->postings().list();
        bits_of_.push_back(
            list != nullptr && !list->doc_bits.empty() ? list : nullptr);
      }
    }
    DocIterator& lead = *terms_[order_[0]];
    while (true) {
      lead.Advance(target);
      target = lead.doc();
      if (target == kNoMoreDocs) return target;
      bool aligned = true;
      for (size_t k = 1; k < order_.size() && aligned; ++k) {
        if (bits_of_[k] != nullptr) aligned = bits_of_[k]->Contains(target);
      }
      if (!aligned) {
        ++target;
        continue;
      }
      for (size_t k = 1; k < order_.size(); ++k) {
        DocIterator& other = *terms_[order_[k]];
        other.Advance(target);
        if (other.doc() != target) {
          target = other.doc();
          aligned = false;
          break;
        }
      }
      if (aligned || target == kNoMoreDocs) return target;
    }
  }

  // The first doc >= target in every term's list, or kNoMoreDocs: a
  // word-wise AND of their bitsets. REQUIRES: AllDense().
  uint32_t NextCandidate(uint32_t target) const {
    size_t w = target >> 6;
    uint64_t mask = ~uint64_t{0} << (target & 63);
    for (; w < dense_words_; ++w, mask = ~uint64_t{0}) {
      uint64_t bits = mask;
      for (const uint64_t* d : dense_) bits &= d[w];
      if (bits != 0) {
        return static_cast<uint32_t>(w << 6) +
               static_cast<uint32_t>(__builtin_ctzll(bits));
      }
    }
    return kNoMoreDocs;
  }

  // The doc range from `target` to the end of the first of the terms'
  // blocks there, and its bound: the smallest of those blocks' bounds with
  // the phrase's idf. A range that cannot beat min_competitive_ is skipped
  // (block-max pruning over the candidates, Ding & Suel 2011) but for
  // probes: its candidates, counted exactly in the terms' bitsets, are
  // range_skips_'s units, and about one in 16 of them is checked. False if
  // a term has no docs from `target` on, or on an error (status()).
  // REQUIRES: slop_ == 0, AllDense().
  bool NextRange(uint32_t target) {
    range_ = Range{};
    double bound = scorer_.MaxScore(idf_);
    uint32_t last = kNoMoreDocs;
    for (size_t i = 0; i < terms_.size(); ++i) {
      const index::PostingList::Block* block =
          terms_[i]->postings().ShallowAdvance(target);
      if (block == nullptr) return false;
      last = std::min(last, block->header.last_doc);
      bound = std::min(bound, BlockBound(*block, i));
    }
    range_.valid = true;
    range_.last = last;
    if (bound > min_competitive_) return FilterRange(target);
    if (bound < 0.0) {  // No candidate in the range can match.
      range_.skipped = true;
      return true;
    }
    // Its candidates, docs set in every term's bitset, found 64 at a time;
    // about one in 16 of them, picked by a hash of their count (as
    // ShouldProbe() picks parts, so that no period of the corpus aliases
    // with the picks), checked as probes.
    if ((++ranges_ & 63) == 0 && cancelled_ && cancelled_()) {
      status_ = Cancelled();
      return false;
    }
    uint64_t candidates = 0, probes = 0, matches = 0;
    const size_t first_word = target >> 6;
    const size_t last_word = last >> 6;
    for (size_t w = first_word; w <= last_word; ++w) {
      uint64_t bits = ~uint64_t{0};
      if (w == first_word) bits &= ~uint64_t{0} << (target & 63);
      if (w == last_word && (last & 63) != 63) {
        bits &= (uint64_t{1} << ((last & 63) + 1)) - 1;
      }
      for (const uint64_t* d : dense_) {
        bits &= w < dense_words_ ? d[w] : 0;
        if (bits == 0) break;
      }
      for (; bits != 0; bits &= bits - 1) {
        ++candidates;
        if (!range_skips_.SampleUnit()) continue;
        const uint32_t doc = static_cast<uint32_t>(w << 6) +
                             static_cast<uint32_t>(__builtin_ctzll(bits));
        for (const auto& term : terms_) term->Advance(doc);
        ++probes;
        if (PositionsMatch()) ++matches;
        if (!status().ok()) return false;
      }
    }
    range_skips_.Probe(bound, min_competitive_, probes);
    range_skips_.AddProbeMatches(matches);
    range_skips_.Skip(bound, min_competitive_, candidates - probes);
    probe_matches_ += matches;
    range_.skipped = true;
    return true;
  }

  // A competitive range's candidates, listed into filtered_ with
  // ScoreBound()'s bound: the phrase's score at the least count of its
  // words in the paper (each less its repeats_) and the paper's length.
  // Each word's bitset and term frequencies (and the rarest word's
  // lengths) are walked together, a block decoded at once, so that
  // NextFiltered() skips the candidates that cannot compete (past the first
  // matches, most: a paper holding a word once, or a long one) without
  // locating any posting, where Find() would locate each. False on an
  // error (status()).
  bool FilterRange(uint32_t target) {
    range_.filtered = true;
    filtered_.clear();
    next_filtered_ = 0;
    const size_t n = terms_.size();
    walks_.resize(n);
    for (size_t i = 0; i < n; ++i) {
      index::PostingIterator& postings = terms_[i]->postings();
      postings.Advance(target);
      if (postings.doc() > range_.last) return postings.status().ok();
      Walk& walk = walks_[i];
      absl::Span<const uint32_t> lengths;
      if (i == order_[0]) {
        if (!postings.BlockFrequencies(&walk.tfs, &lengths)) return false;
        lengths_ = lengths;
      } else {
        walk.tfs = postings.BlockTfs();
        if (walk.tfs.empty()) return false;
      }
      walk.first = postings.doc();
      walk.rank = 0;
    }
    // Candidates are the docs set in every word's bitset; word i's k-th doc
    // from walks_[i].first on has walks_[i].tfs[k] (and lengths_[k]).
    const size_t first_word = target >> 6;
    const size_t last_word = range_.last >> 6;
    for (size_t w = first_word; w <= last_word && w < dense_words_; ++w) {
      uint64_t all = ~uint64_t{0};
      if (w == last_word && (range_.last & 63) != 63) {
        all &= (uint64_t{1} << ((range_.last & 63) + 1)) - 1;
      }
      for (size_t i = 0; i < n; ++i) {
        Walk& walk = walks_[i];
        walk.mine = dense_[i][w];
        if (w <= (walk.first >> 6)) {
          walk.mine &=
              w == (walk.first >> 6) ? ~uint64_t{0} << (walk.first & 63) : 0;
        }
        all &= walk.mine;
      }
      for (; all != 0; all &= all - 1) {
        const int bit = __builtin_ctzll(all);
        const uint64_t below = (uint64_t{1} << bit) - 1;
        uint32_t least = UINT32_MAX;
        uint32_t length = 0;
        for (size_t i = 0; i < n; ++i) {
          const Walk& walk = walks_[i];
          const size_t at =
              walk.rank + index::PostingList::PopCount(walk.mine & below);
          if (at >= walk.tfs.size()) return BitsetPastBlock(i);
          const uint32_t tf = walk.tfs[at];
          least = std::min(least, tf > repeats_[i] ? tf - repeats_[i] : 0);
          if (i == order_[0]) length = lengths_[at];
        }
        // A repeated word too few times in the paper: no match, certainly.
        if (least == 0) continue;
        filtered_.push_back(
            {static_cast<uint32_t>(w << 6) + static_cast<uint32_t>(bit),
             scorer_.Score(idf_, least, length)});
      }
      for (Walk& walk : walks_) {
        walk.rank += index::PostingList::PopCount(walk.mine);
      }
    }
    return true;
  }

  // FilterRange()'s error for terms_[i]: more docs in its bitset than in
  // its block. Returns false.
  bool BitsetPastBlock(size_t i) {
    status_ = absl::DataLossError(
        absl::StrCat("posting list of \"", terms_[i]->postings().term(),
                     "\": its bitset holds more docs than its block"));
    return false;
  }

  // The next match at or after `target` among filtered_'s candidates, into
  // *match; false when there is none (or on an error, status()). A
  // candidate whose bound cannot compete is skipped unlocated, unless
  // skips_ probes it; the others have their positions checked.
  bool NextFiltered(uint32_t target, uint32_t* match) {
    while (next_filtered_ < filtered_.size()) {
      const Filtered candidate = filtered_[next_filtered_++];
      if (candidate.doc < target) continue;
      if ((++candidates_ & 4095) == 0 && cancelled_ && cancelled_()) {
        status_ = Cancelled();
        return false;
      }
      if (candidate.bound <= min_competitive_) {
        if (!skips_.ShouldProbe(candidate.bound, min_competitive_, 1)) {
          continue;
        }
        for (const auto& term : terms_) term->Advance(candidate.doc);
        if (PositionsMatch()) {
          skips_.AddProbeMatches(1);
          ++probe_matches_;
        }
        if (!status().ok()) return false;
        continue;
      }
      for (const auto& term : terms_) term->Advance(candidate.doc);
      if (PositionsMatch()) {
        *match = candidate.doc;
        return true;
      }
      if (!status().ok()) return false;
    }
    return false;
  }

  // The bound of terms_[i]'s `block` on the phrase's score: its best
  // impact (Block::MaxScore()) with the phrase's idf, each impact's tf less
  // the word's repeats_; -1 if no posting of the block occurs often enough
  // to fill the word's places in the phrase (then none of its docs holds
  // the phrase).
  double BlockBound(const index::PostingList::Block& block, size_t i) const {
    if (repeats_[i] == 0) return block.MaxScore(scorer_, idf_);
    double best = -1.0;
    for (uint32_t k = 0; k < block.impact_count; ++k) {
      const index::PostingList::Impact& impact = block.impacts[k];
      if (impact.tf <= repeats_[i]) continue;
      best = std::max(best, scorer_.Score(idf_, impact.tf - repeats_[i],
                                          impact.doc_length));
    }
    return best;
  }

  // A bound on the exact phrase's score in the candidate. The phrase
  // occurs there at most as often as each of its words, less the word's
  // repeats_ (its other places in the phrase), and BM25 grows with tf, so
  // the phrase cannot score more than with the least of those counts. The
  // words are asked in bound_order_, and the first bound at or below
  // min_competitive_ is returned at once: the other words' postings are
  // then not located. -1 if a count is 0 (a repeated word too few times in
  // the paper): the candidate cannot match. REQUIRES: slop_ == 0.
  double ScoreBound() {
    const uint32_t length = terms_[bound_order_[0]]->postings().doc_length();
    uint32_t least = UINT32_MAX;
    double bound = 0.0;
    for (size_t k = 0; k < bound_order_.size(); ++k) {
      const size_t i = bound_order_[k];
      const uint32_t tf = terms_[i]->postings().tf();
      const uint32_t count = tf > repeats_[i] ? tf - repeats_[i] : 0;
      if (count >= least) continue;
      if (count == 0) return -1.0;
      least = count;
      bound = scorer_.Score(idf_, count, length);
      if (bound <= min_competitive_) {
        if (k > 0) Reorder(k);
        return bound;
      }
    }
    return bound;
  }

  // After the word at bound_order_[k] (k > 0) decided a bound: every 64
  // such decisions by a later word, the word that decided most of them
  // since is asked first.
  void Reorder(size_t k) {
    if (decided_by_.empty()) decided_by_.assign(terms_.size(), 0);
    ++decided_by_[bound_order_[k]];
    if ((++late_decisions_ & 63) != 0) return;
    const auto best = std::max_element(decided_by_.begin(), decided_by_.end()) -
                      decided_by_.begin();
    std::iter_swap(bound_order_.begin(),
                   std::find(bound_order_.begin(), bound_order_.end(),
                             static_cast<size_t>(best)));
    std::fill(decided_by_.begin(), decided_by_.end(), 0);
  }

  // Decodes terms_[i]'s positions in the candidate into positions_[i];
  // false, with status_ set, if they are malformed.
  bool DecodePositions(size_t i) {
    absl::Status status = terms_[i]->postings().Positions(&positions_[i]);
    if (status.ok()) return true;
    status_ = std::move(status);
    return false;
  }

  // Whether the decoded positions of distinct terms a and b hold a pair at
  // the distance of their first places in the exact phrase: a merge.
  bool PairAligned(size_t a, size_t b) const {
    uint32_t offset_a = 0, offset_b = 0;
    bool seen_a = false, seen_b = false;
    for (size_t k = 0; k < slots_.size(); ++k) {
      if (slots_[k] == a && !seen_a) {
        offset_a = offsets_[k];
        seen_a = true;
      } else if (slots_[k] == b && !seen_b) {
        offset_b = offsets_[k];
        seen_b = true;
      }
    }
    if (offset_a > offset_b) {
      std::swap(a, b);
      std::swap(offset_a, offset_b);
    }
    const std::vector<uint32_t>& before = positions_[a];
    const std::vector<uint32_t>& after = positions_[b];
    const uint32_t gap = offset_b - offset_a;
    size_t j = 0;
    for (const uint32_t at : before) {
      const uint64_t want = uint64_t{at} + gap;
      while (j < after.size() && after[j] < want) ++j;
      if (j == after.size()) return false;
      if (after[j] == want) return true;
    }
    return false;
  }

  bool PositionsMatch() {
    if (slop_ == 0 && slots_.size() == 1) {
      // One part (a common gram alone): each of its positions is a match.
      frequency_ = terms_[0]->postings().tf();
      return frequency_ > 0;
    }
    std::vector<std::vector<uint32_t>>& decoded = positions_;
    decoded.resize(terms_.size());
    frequency_ = 0;
    size_t first = SIZE_MAX, second = SIZE_MAX;  // Decoded before the rest.
    if (slop_ == 0 && terms_.size() >= 3) {
      // Three words or more: the two that occur least in the paper must
      // stand at their distance in the phrase somewhere before any other
      // word's positions are decoded (in most candidates they do not).
      for (size_t i = 0; i < terms_.size(); ++i) {
        const uint32_t tf = terms_[i]->postings().tf();
        if (first == SIZE_MAX || tf < terms_[first]->postings().tf()) {
          second = first;
          first = i;
        } else if (second == SIZE_MAX || tf < terms_[second]->postings().tf()) {
          second = i;
        }
      }
      if (!DecodePositions(first) || !DecodePositions(second)) return false;
      if (!PairAligned(first, second)) return false;
    }
    for (size_t i = 0; i < terms_.size(); ++i) {
      if (i != first && i != second && !DecodePositions(i)) return false;
    }
    if (slop_ == 0 && slots_.size() == 2 && terms_.size() == 2 &&
        offsets_[1] >= offsets_[0] && decoded[0].size() <= 4 &&
        decoded[1].size() <= 4) {
      // Two words, each a few times in the paper (most candidates): a
      // merge of their positions is cheaper than setting up bitsets.
      const std::vector<uint32_t>& a = decoded[slots_[0]];
      const std::vector<uint32_t>& b = decoded[slots_[1]];
      const uint32_t gap = offsets_[1] - offsets_[0];
      size_t j = 0;
      for (const uint32_t at : a) {
        const uint64_t want = uint64_t{at} + gap;
        while (j < b.size() && b[j] < want) ++j;
        if (j == b.size()) break;
        frequency_ += b[j] == want;
      }
      return frequency_ > 0;
    }
    if (slop_ == 0) {
      // Walk the positions of the word that occurs least in this paper
      // (the anchor); every other word must stand at its offset from it,
      // looked up in a bitset of each word's positions in the paper: no
      // data-dependent branches, where a merge of the sorted positions
      // mispredicted at most of its steps.
      const size_t n = slots_.size();
      size_t anchor = 0;
      for (size_t k = 1; k < n; ++k) {
        if (decoded[slots_[k]].size() < decoded[slots_[anchor]].size()) {
          anchor = k;
        }
      }
      uint32_t last = 0;
      for (const std::vector<uint32_t>& p : decoded) {
        if (!p.empty()) last = std::max(last, p.back());
      }
      const size_t words = last / 64 + 1;
      // All zero between calls: each call clears the bits it set, so no
      // candidate pays for clearing the whole buffer.
      if (position_bits_.size() < decoded.size() * words) {
        position_bits_.resize(decoded.size() * words, 0);
      }
      for (size_t i = 0; i < decoded.size(); ++i) {
        uint64_t* const bits = &position_bits_[i * words];
        for (const uint32_t at : decoded[i]) {
          bits[at >> 6] |= uint64_t{1} << (at & 63);
        }
      }
      const uint64_t limit = uint64_t{words} * 64;
      for (const uint32_t at : decoded[slots_[anchor]]) {
        if (at < offsets_[anchor]) continue;
        const uint64_t start = at - offsets_[anchor];
        uint64_t all = 1;
        for (size_t k = 0; k < n; ++k) {
          const uint64_t want = start + offsets_[k];
          if (want >= limit) {
            all = 0;
            break;
          }
          all &= position_bits_[slots_[k] * words + (want >> 6)] >> (want & 63);
        }
        frequency_ += static_cast<uint32_t>(all & 1);
      }
      for (size_t i = 0; i < decoded.size(); ++i) {
        uint64_t* const bits = &position_bits_[i * words];
        for (const uint32_t at : decoded[i]) bits[at >> 6] = 0;
      }
      return frequency_ > 0;
    }
    // Sloppy: windows holding as many positions of each distinct term as
    // it has places in the phrase (consecutive ones, the tightest), found
    // by a k-way merge, that span at most n - 1 + slop positions; each
    // counts once. A word twice in the phrase needs two of its positions:
    // "echo echo"~2 does not match a paper holding "echo" once.
    const uint32_t limit = static_cast<uint32_t>(slots_.size()) - 1 + slop_;
    std::vector<size_t> at(decoded.size(), 0);
    while (true) {
      uint32_t lo = UINT32_MAX, hi = 0;
      size_t lo_list = 0;
      for (size_t i = 0; i < decoded.size(); ++i) {
        const size_t last = at[i] + places_[i] - 1;
        if (last >= decoded[i].size()) return frequency_ > 0;
        const uint32_t p = decoded[i][at[i]];
        if (p < lo) {
          lo = p;
          lo_list = i;
        }
        hi = std::max(hi, decoded[i][last]);
      }
      frequency_ += hi - lo <= limit;
      ++at[lo_list];
    }
  }

  uint32_t slop_;
  const index::Bm25Scorer& scorer_;
  const CancelFn& cancelled_;
  uint64_t candidates_ = 0;  // Examined, for the cancellation checks.
  // SetMinCompetitiveScore()'s score, -1 until it is called.
  double min_competitive_ = -1.0;
  // Candidates skipped one by one as not competitive, and the probes among
  // them; and those skipped with their range (NextRange()), apart: the two
  // are probed at different rates and bounds, and one estimator mixing
  // them overestimated repeated-word phrases by 20-76% (a hostile test).
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

class AndIterator final : public DocIterator {
 public:
  AndIterator(std::vector<std::unique_ptr<DocIterator>> required,
              std::vector<std::unique_ptr<DocIterator>> excluded)
      : required_(std::move(required)), excluded_(std::move(excluded)) {
    std::sort(
        required_.begin(), required_.end(),
        [](const auto& a, const auto& b) { return a->Cost() < b->Cost(); });
    doc_ = 0;
    Find(0);
  }

  void Advance(uint32_t target) override {
    if (doc_ >= target) return;
    Find(target);
  }
  double Score() override {
    double score = 0.0;
    for (auto& child : required_) score += child->Score();
    return score;
  }
  void Explain(std::vector<TermContribution>* out) override {
    for (auto& child : required_) child->Explain(out);
  }
  uint64_t Cost() const override { return required_[0]->Cost(); }
  double MaxScore() const override {
    double bound = 0.0;
    for (const auto& child : required_) bound += child->MaxScore();
    return bound;
  }
  uint32_t ShallowAdvance(uint32_t target) override {
    uint32_t end = kNoMoreDocs;
    block_max_ = 0.0;
    for (auto& child : required_) {
      end = std::min(end, child->ShallowAdvance(target));
      block_max_ += child->BlockMaxScore();
    }
    return end;
  }
  double BlockMaxScore() override { return block_max_; }
  absl::Status status() const override {
    for (const auto& child : required_) {
      if (!child->status().ok()) return child->status();
    }
    for (const auto& child : excluded_) {
      if (!child->status().ok()) return child->status();
    }
    return absl::OkStatus();
  }

 private:
  // Moves to the first doc >= target that every required child and no
  // excluded one matches.
  void Find(uint32_t target) {
    auto at = [this](size_t i) -> DocIterator& { return *required_[i]; };
    while (true) {
      target = Leapfrog(required_.size(), at, target);
      if (target == kNoMoreDocs) {
        doc_ = kNoMoreDocs;
        return;
      }
      bool excluded = false;
      for (auto& ex : excluded_) {
        ex->Advance(target);
        excluded |= ex->doc() == target;
      }
      if (!excluded) {
        doc_ = target;
        return;
      }
      ++target;
    }
  }

  std::vector<std::unique_ptr<DocIterator>> required_;  // By ascending cost.
  std::vector<std::unique_ptr<DocIterator>> excluded_;
  double block_max_ = 0.0;  // For the last ShallowAdvance().
};

class OrIterator final : public DocIterator {
 public:
  OrIterator(std::vector<std::unique_ptr<DocIterator>> children, bool dismax)
      : children_(std::move(children)), dismax_(dismax) {
    Update();
  }

  void Advance(uint32_t target) override {
    if (doc_ >= target) return;
    for (auto& child : children_) child->Advance(target);
    Update();
  }
  double Score() override {
    double score = 0.0;
    for (auto& child : children_) {
      if (child->doc() != doc_) continue;
      const double s = child->Score();
      score = dismax_ ? std::max(score, s) : score + s;
    }
    return score;
  }
  void Explain(std::vector<TermContribution>* out) override {
    if (!dismax_) {
      for (auto& child : children_) {
        if (child->doc() == doc_) child->Explain(out);
      }
      return;
    }
    DocIterator* best = nullptr;
    double best_score = -1.0;
    for (auto& child : children_) {
      if (child->doc() != doc_) continue;
      const double s = child->Score();
      if (s > best_score) {
        best_score = s;
        best = child.get();
      }
    }
    if (best == nullptr) return;
    best->Explain(out);
    for (auto& child : children_) {
      if (child.get() == best || child->doc() != doc_) continue;
      const size_t first = out->size();
      child->Explain(out);
      for (size_t i = first; i < out->size(); ++i) {
        (*out)[i].score = 0.0;
        (*out)[i].outscored = true;
      }
    }
  }
  uint64_t Cost() const override {
    uint64_t cost = 0;
    for (const auto& child : children_) cost += child->Cost();
    return cost;
  }
  double MaxScore() const override {
    double bound = 0.0;
    for (const auto& child : children_) {
      bound = dismax_ ? std::max(bound, child->MaxScore())
                      : bound + child->MaxScore();
    }
    return bound;
  }
  uint32_t ShallowAdvance(uint32_t target) override {
    uint32_t end = kNoMoreDocs;
    block_max_ = 0.0;
    for (auto& child : children_) {
      end = std::min(end, child->ShallowAdvance(target));
      const double bound = child->BlockMaxScore();
      block_max_ = dismax_ ? std::max(block_max_, bound) : block_max_ + bound;
    }
    return end;
  }
  double BlockMaxScore() override { return block_max_; }
  absl::Status AddAll(DocBitmap* matches, const CancelFn& cancelled) override {
    doc_ = kNoMoreDocs;
    for (auto& child : children_) {
      if (absl::Status s = child->AddAll(matches, cancelled); !s.ok()) {
        return s;
      }
    }
    return absl::OkStatus();
  }
  absl::Status status() const override {
    for (const auto& child : children_) {
      if (!child->status().ok()) return child->status();
    }
    return absl::OkStatus();
  }

 private:
  void Update() {
    doc_ = kNoMoreDocs;
    for (const auto& child : children_) doc_ = std::min(doc_, child->doc());
  }

  std::vector<std::unique_ptr<DocIterator>> children_;
  bool dismax_;
  double block_max_ = 0.0;  // For the last ShallowAdvance().
};

class ScaledIterator final : public DocIterator {
 public:
  ScaledIterator(std::unique_ptr<DocIterator> child, double factor)
      : child_(std::move(child)), factor_(factor) {
    doc_ = child_->doc();
  }

  void Advance(uint32_t target) override {
    child_->Advance(target);
    doc_ = child_->doc();
  }
  double Score() override { return factor_ * child_->Score(); }
  void Explain(std::vector<TermContribution>* out) override {
    const size_t first = out->size();
    child_->Explain(out);
    for (size_t i = first; i < out->size(); ++i) {
      (*out)[i].idf *= factor_;
      (*out)[i].score *= factor_;
    }
  }
  uint64_t Cost() const override { return child_->Cost(); }
  int64_t ExactCount() const override { return child_->ExactCount(); }
  double MaxScore() const override { return factor_ * child_->MaxScore(); }
  bool MayMatch(uint32_t doc) const override { return child_->MayMatch(doc); }
  absl::Span<const uint64_t> DocBits() const override {
    return child_->DocBits();
  }
  uint32_t ShallowAdvance(uint32_t target) override {
    return child_->ShallowAdvance(target);
  }
  double BlockMaxScore() override { return factor_ * child_->BlockMaxScore(); }
  absl::Status AddAll(DocBitmap* matches, const CancelFn& cancelled) override {
    const absl::Status status = child_->AddAll(matches, cancelled);
    doc_ = child_->doc();
    return status;
  }
  absl::Status status() const override { return child_->status(); }

 private:
  std::unique_ptr<DocIterator> child_;
  const double factor_;
};

}  // namespace

std::unique_ptr<DocIterator> NewScaledIterator(
    std::unique_ptr<DocIterator> child, double factor) {
  return std::make_unique<ScaledIterator>(std::move(child), factor);
}

std::unique_ptr<DocIterator> NewEmptyIterator() {
  return std::make_unique<EmptyIterator>();
}

std::unique_ptr<DocIterator> NewTermIterator(const storage::Store& store,
                                             const std::string& term,
                                             uint32_t df,
                                             const index::Bm25Scorer& scorer,
                                             bool scored, uint32_t scoring_df) {
  return std::make_unique<TermIterator>(store, term, df, scorer, scored,
                                        scoring_df == 0 ? df : scoring_df);
}

std::unique_ptr<DocIterator> NewPhraseIterator(
    const storage::Store& store, const std::vector<std::string>& words,
    const std::vector<uint32_t>& dfs, const std::vector<PhrasePart>& parts,
    uint32_t slop, const index::Bm25Scorer& scorer, const CancelFn& cancelled) {
  if (parts.empty()) return NewEmptyIterator();
  return std::make_unique<PhraseIterator>(store, words, dfs, parts, slop,
                                          scorer, cancelled);
}

std::unique_ptr<DocIterator> NewAndIterator(
    std::vector<std::unique_ptr<DocIterator>> required,
    std::vector<std::unique_ptr<DocIterator>> excluded) {
  if (required.empty()) return NewEmptyIterator();
  if (required.size() == 1 && excluded.empty()) return std::move(required[0]);
  return std::make_unique<AndIterator>(std::move(required),
                                       std::move(excluded));
}

std::unique_ptr<DocIterator> NewOrIterator(
    std::vector<std::unique_ptr<DocIterator>> children, bool dismax) {
  if (children.empty()) return NewEmptyIterator();
  if (children.size() == 1) return std::move(children[0]);
  return std::make_unique<OrIterator>(std::move(children), dismax);
}

}  // namespace paperdb::search
