#include <algorithm>

#include "paperdb/search/phrase_iterator.h"

// PhraseIterator's position check: whether a candidate holds the phrase,
// and how often (exact phrases, and sloppy ones within their window).
namespace paperdb::search::internal {

bool PhraseIterator::DecodePositions(size_t i) {
  absl::Status status = terms_[i]->postings().Positions(&positions_[i]);
  if (status.ok()) return true;
  status_ = std::move(status);
  return false;
}

bool PhraseIterator::PairAligned(size_t a, size_t b) const {
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

bool PhraseIterator::PositionsMatch() {
  if (slop_ == 0 && slots_.size() == 1) {
    // One part (a common gram alone): each of its positions is a match.
    frequency_ = terms_[0]->postings().tf();
    return frequency_ > 0;
  }
  frequency_ = 0;
  for (const NextWordCheck& check : next_word_checks_) {
    if ((terms_[check.slot]->postings().next_words() & check.bit) == 0) {
      return false;
    }
  }
  std::vector<std::vector<uint32_t>>& decoded = positions_;
  decoded.resize(terms_.size());
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

}  // namespace paperdb::search::internal
