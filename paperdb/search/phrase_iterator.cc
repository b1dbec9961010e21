#include "paperdb/search/phrase_iterator.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_join.h"
#include "paperdb/index/next_words.h"

// PhraseIterator: construction, the DocIterator interface, and finding
// candidates (docs holding every word) by leapfrog over lists or bitsets.
namespace paperdb::search::internal {

PhraseIterator::PhraseIterator(const storage::Store& store,
                               const std::vector<std::string>& words,
                               const std::vector<uint32_t>& dfs,
                               const std::vector<PhrasePart>& parts,
                               uint32_t slop, const index::Bm25Scorer& scorer,
                               const CancelFn& cancelled)
    : slop_(slop), scorer_(scorer), cancelled_(cancelled), words_(words) {
  absl::flat_hash_map<std::string, size_t> slot_of;
  for (const PhrasePart& part : parts) {
    auto [it, inserted] = slot_of.emplace(part.term, terms_.size());
    if (inserted) {
      terms_.push_back(std::make_unique<TermIterator>(store, part.term, part.df,
                                                      scorer, true, part.df));
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
  if (slop_ == 0) {
    for (size_t k = 0; k < parts.size(); ++k) {
      const uint32_t next =
          parts[k].offset + index::NextWordDistance(parts[k].term);
      for (size_t m = 0; m < parts.size(); ++m) {
        if (parts[m].offset == next) {
          next_word_checks_.push_back(
              {slots_[k], index::NextWordBit(parts[m].term)});
        }
      }
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

void PhraseIterator::Advance(uint32_t target) {
  if (doc_ >= target) return;
  Find(target);
}

double PhraseIterator::Score() {
  return scorer_.Score(idf_, frequency_, terms_[0]->postings().doc_length());
}

void PhraseIterator::Explain(std::vector<TermContribution>* out) {
  // StrCat, not operator+ on std::string: GCC 12 at -O3 (a Release
  // build) reports a false -Wrestrict on `"~" + std::to_string(...)`.
  std::string phrase = absl::StrCat("\"", absl::StrJoin(words_, " "), "\"");
  if (slop_ > 0) absl::StrAppend(&phrase, "~", slop_);
  out->push_back({phrase, frequency_, min_word_df_, idf_,
                  terms_[0]->postings().doc_length(), Score()});
}

uint32_t PhraseIterator::ShallowAdvance(uint32_t target) {
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

bool PhraseIterator::SetMinCompetitiveScore(double score) {
  if (slop_ > 0) return false;
  min_competitive_ = score;
  return true;
}

uint64_t PhraseIterator::SkippedMatches(bool* skipped_any) const {
  *skipped_any = skips_.skipped_any() || range_skips_.skipped_any();
  return probe_matches_ + skips_.SkippedMatches() +
         range_skips_.SkippedMatches();
}

absl::Status PhraseIterator::status() const {
  for (const auto& term : terms_) {
    if (!term->status().ok()) return term->status();
  }
  return status_;
}

void PhraseIterator::Find(uint32_t target) {
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

bool PhraseIterator::AllDense() {
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

uint32_t PhraseIterator::LeapfrogBits(uint32_t target) {
  if (bits_of_.empty()) {
    for (const size_t i : order_) {
      const index::PostingList* list = terms_[i]->postings().list();
      bits_of_.push_back(list != nullptr && !list->doc_bits.empty() ? list
                                                                    : nullptr);
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

uint32_t PhraseIterator::NextCandidate(uint32_t target) const {
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

}  // namespace paperdb::search::internal
