#include <algorithm>

#include "paperdb/search/phrase_iterator.h"

// PhraseIterator's block-max skipping for exact phrases: doc ranges whose
// bound cannot compete are skipped, and a competitive range's candidates
// are filtered by each word's bitset and term frequencies before their
// positions are read.
namespace paperdb::search::internal {

bool PhraseIterator::NextRange(uint32_t target) {
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

bool PhraseIterator::FilterRange(uint32_t target) {
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
    walk.next_words = postings.BlockNextWords();
    if (walk.next_words.size() != walk.tfs.size()) return false;
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
      // A word not followed by the phrase's next word: no match either
      // (next_words.h), and no positions decoded to find out.
      bool followed = true;
      for (const NextWordCheck& check : next_word_checks_) {
        const Walk& walk = walks_[check.slot];
        const size_t at =
            walk.rank + index::PostingList::PopCount(walk.mine & below);
        followed &= (walk.next_words[at] & check.bit) != 0;
      }
      if (!followed) continue;
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

bool PhraseIterator::BitsetPastBlock(size_t i) {
  status_ = absl::DataLossError(
      absl::StrCat("posting list of \"", terms_[i]->postings().term(),
                   "\": its bitset holds more docs than its block"));
  return false;
}

bool PhraseIterator::NextFiltered(uint32_t target, uint32_t* match) {
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

double PhraseIterator::BlockBound(const index::PostingList::Block& block,
                                  size_t i) const {
  if (repeats_[i] == 0) return block.MaxScore(scorer_, idf_);
  double best = -1.0;
  for (uint32_t k = 0; k < block.impact_count; ++k) {
    const index::PostingList::Impact& impact = block.impacts[k];
    if (impact.tf <= repeats_[i]) continue;
    best = std::max(
        best, scorer_.Score(idf_, impact.tf - repeats_[i], impact.doc_length));
  }
  return best;
}

double PhraseIterator::ScoreBound() {
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

void PhraseIterator::Reorder(size_t k) {
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

}  // namespace paperdb::search::internal
