// Spelling correction against the store's term dictionary: for a word no
// paper holds, the stored terms within Damerau-Levenshtein distance 1 (2
// from 9 code points on) that start with the same character (Meilisearch's
// thresholds; the first-character rule is Lucene's FuzzyQuery prefix
// length of 1). Terms are stems; a term is in reach when a word the corpus
// spells with it (the stem, an inflection, or a stored surface form:
// "indicatros": "indicators") is within the distance of the word typed, or
// when the stem is within the distance its own length allows of the typed
// word's stem ("synapt": "synaps"). Nearer words rank first.
//
// Thread safety: pure functions of the store's state.

#ifndef PAPERDB_SEARCH_SPELLING_CORRECTOR_H_
#define PAPERDB_SEARCH_SPELLING_CORRECTOR_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/index/terms_cache.h"
#include "paperdb/search/cancel.h"
#include "paperdb/storage/store.h"

namespace paperdb::search {

inline constexpr size_t kMaxCorrections = 3;
// Longest word corrected, in code points.
inline constexpr size_t kMaxCorrectedLength = 40;

// A correction: the stored term, its document frequency, and the word the
// corpus spells with it nearest the one typed ("transformer" for the term
// "transform"), or empty if only the term's stem was near the typed stem.
struct SpellingCorrection {
  std::string term;
  uint32_t df = 0;
  std::string word;
};

// The corrections of `word` (case-folded, as typed) whose stem `stem` no
// paper holds: the nearest stored terms, at most kMaxCorrections, most
// papers first, none with under a tenth of the best one's papers. Empty
// for a word under 5 or over kMaxCorrectedLength code points or with a
// digit ("resnet18": a name with a version). Scans at most 200,000 terms
// sharing the first character, asking `cancelled` every 4,096: CANCELLED
// once it says so. Answers are kept in memory (4,096 of them) until the
// store's sequence number changes. Store errors; DATA_LOSS for a bad
// document frequency.
absl::StatusOr<std::vector<SpellingCorrection>> SpellingCorrections(
    const storage::Store& store, absl::string_view word, absl::string_view stem,
    const CancelFn& cancelled);

// True if `word` is what a user meant by typing `typed` (both case-folded):
// within the distance SpellingCorrections() allows (1, or 2 from 9 code
// points), `typed` of 5 to kMaxCorrectedLength code points without a digit,
// and the two not equal.
bool IsTypoOf(absl::string_view typed, absl::string_view word);

// Damerau-Levenshtein distance (optimal string alignment) between `a` and
// `b`, in code points, or max_distance + 1 if it exceeds `max_distance`.
uint32_t EditDistance(std::u32string_view a, std::u32string_view b,
                      uint32_t max_distance);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_SPELLING_CORRECTOR_H_
