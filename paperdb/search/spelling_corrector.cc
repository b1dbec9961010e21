#include "paperdb/search/spelling_corrector.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/sequenced_lru.h"
#include "paperdb/index/varint.h"
#include "paperdb/storage/keys.h"
#include "paperdb/text/english_words.h"
#include "paperdb/text/stopwords.h"
#include "paperdb/text/utf8.h"
#include "paperdb/text/word_forms.h"
#include "unicode/utf8.h"

namespace paperdb::search {
namespace {

constexpr size_t kMaxScannedTerms = 200000;

// Damerau-Levenshtein distance (optimal string alignment) between `a` and
// `b`, or with `prefix_of_b` between `a` and the nearest prefix of `b`;
// max_distance + 1 if it exceeds `max_distance`.
uint32_t OsaDistance(std::u32string_view a, std::u32string_view b,
                     uint32_t max_distance, bool prefix_of_b) {
  const size_t n = a.size(), m = b.size();
  if ((n > m ? n - m : prefix_of_b ? 0 : m - n) > max_distance) {
    return max_distance + 1;
  }
  // Three rows of the optimal string alignment matrix.
  std::vector<uint32_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = static_cast<uint32_t>(j);
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = static_cast<uint32_t>(i);
    uint32_t row_min = cur[0];
    for (size_t j = 1; j <= m; ++j) {
      const uint32_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      uint32_t d = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d = std::min(d, prev2[j - 2] + 1);
      }
      cur[j] = d;
      row_min = std::min(row_min, d);
    }
    if (row_min > max_distance) return max_distance + 1;
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  if (prefix_of_b) {
    return std::min(*std::min_element(prev.begin(), prev.end()),
                    max_distance + 1);
  }
  return std::min(prev[m], max_distance + 1);
}

std::u32string Decode(absl::string_view s) {
  std::u32string out;
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  int32_t i = 0;
  const int32_t n = static_cast<int32_t>(s.size());
  while (i < n) {
    UChar32 c;
    U8_NEXT(p, i, n, c);
    out.push_back(static_cast<char32_t>(c < 0 ? 0xFFFD : c));
  }
  return out;
}

// The least distance between a start of `word` and `stem` (or `stem`
// without a final 'e', or with a final 'i' back to 'y', as Snowball's rules
// undo them), for a stem of 4 letters or more.
uint32_t PrefixDistance(const std::u32string& word, const std::u32string& stem,
                        uint32_t max_distance) {
  uint32_t best = max_distance + 1;
  if (stem.size() < 4) return best;
  best = OsaDistance(stem, word, max_distance, /*prefix_of_b=*/true);
  const char32_t last = stem.back();
  if (last == U'e' || last == U'i') {
    std::u32string base = stem.substr(0, stem.size() - 1);
    if (last == U'i') base.push_back(U'y');
    best = std::min(best, OsaDistance(base, word, max_distance, true));
  }
  return best;
}

// The least distance between `word` and `stem` followed by an English
// inflection or derivation suffix (with a final 'e' of the stem dropped,
// or a final 'i' back to 'y', as Snowball's rules undo them), for a stem
// of 4 letters or more that `word` starts with: the typo is in the
// suffix. (Otherwise too many words are in reach: "notation" is one edit
// from "non" + "ation", "node" + "ation" and "no" + "ation".)
uint32_t InflectedDistance(const std::u32string& word,
                           const std::u32string& stem, uint32_t max_distance) {
  static const char32_t* const kSuffixes[] = {
      U"",     U"s",     U"es",      U"ed",   U"ing",   U"ion",
      U"ions", U"ation", U"ations",  U"ator", U"ators", U"er",
      U"ers",  U"al",    U"ally",    U"e",    U"y",     U"ies",
      U"ity",  U"ive",   U"ness",    U"ment", U"ments", U"ly",
      U"ize",  U"ized",  U"ization", U"able", U"ance",  U"ence"};
  uint32_t best = max_distance + 1;
  std::u32string bases[3] = {stem, U"", U""};
  if (!stem.empty() && stem.back() == U'e') {
    bases[1] = stem.substr(0, stem.size() - 1);
  }
  if (!stem.empty() && stem.back() == U'i') {
    bases[2] = stem.substr(0, stem.size() - 1) + U"y";
  }
  for (const std::u32string& base : bases) {
    if (base.size() < 4 || word.compare(0, base.size(), base) != 0) {
      continue;
    }
    for (const char32_t* suffix : kSuffixes) {
      const std::u32string candidate = base + suffix;
      const size_t a = candidate.size(), b = word.size();
      if ((a > b ? a - b : b - a) > max_distance) continue;
      best = std::min(best, EditDistance(word, candidate, max_distance));
      if (best == 0) return 0;
    }
  }
  return best;
}

// The least distance between `word` and a word the corpus spells with
// stem `key`: the stem itself, the stem with an inflection ("learn" +
// "ing"), or a surface form the index stores for it ("indicators",
// "segmentation"; text/word_forms.h). A correction is judged on words, not
// stems: "compositional" is two edits from the stem "competit" of
// "competitive", which is not what its writer meant.
absl::StatusOr<uint32_t> WordDistance(const storage::Store& store,
                                      const std::u32string& word,
                                      absl::string_view key,
                                      uint32_t max_distance,
                                      std::string* nearest) {
  static const char* const kInflections[] = {"",  "s", "es",  "ed", "ing",
                                             "e", "y", "ies", "er", "ers"};
  uint32_t best = max_distance + 1;
  nearest->clear();
  auto consider = [&](std::string candidate) {
    const uint32_t d = EditDistance(word, Decode(candidate), max_distance);
    if (d < best || (d == best && d <= max_distance && nearest->empty())) {
      best = d;
      *nearest = std::move(candidate);
    }
  };
  // The stem, and as Snowball's rules undo them without a final 'e'
  // ("spik" + "ing") or with a final 'i' back to 'y' ("studi": "study").
  std::string bases[2] = {std::string(key), ""};
  if (absl::EndsWith(key, "e"))
    bases[1] = std::string(key.substr(0, key.size() - 1));
  if (absl::EndsWith(key, "i")) {
    bases[1] = absl::StrCat(key.substr(0, key.size() - 1), "y");
  }
  // An inflection made here is a word the corpus may not write ("neural" +
  // "y", "neural" + "e"): beyond the stem it counts only if it is English.
  for (const std::string& base : bases) {
    if (base.empty()) continue;
    for (const char* suffix : kInflections) {
      std::string candidate = absl::StrCat(base, suffix);
      if (*suffix != '\0' && !text::IsEnglishWord(candidate)) continue;
      consider(std::move(candidate));
    }
  }
  const std::string prefix = text::FormTermPrefix(key);
  std::unique_ptr<storage::StoreIterator> it =
      store.NewIterator(storage::Column::kTerms);
  int forms = 0;
  for (it->Seek(prefix); it->Valid() && absl::StartsWith(it->key(), prefix) &&
                         forms < 64 && best > 0;
       it->Next(), ++forms) {
    consider(std::string(it->key().substr(prefix.size())));
  }
  PAPERDB_RETURN_IF_ERROR(it->status());
  return best;
}

}  // namespace

bool IsTypoOf(absl::string_view typed, absl::string_view word) {
  const std::u32string a = Decode(typed);
  if (a.size() < 5 || a.size() > kMaxCorrectedLength || typed == word ||
      std::any_of(a.begin(), a.end(),
                  [](char32_t c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  const uint32_t max_distance = a.size() >= 9 ? 2 : 1;
  return EditDistance(a, Decode(word), max_distance) <= max_distance;
}

namespace {

// SpellingCorrections() without its cache.
absl::StatusOr<std::vector<SpellingCorrection>> ScanCorrections(
    const storage::Store& store, absl::string_view folded_word,
    absl::string_view stem_term, const CancelFn& cancelled) {
  std::vector<SpellingCorrection> out;
  const std::u32string word = Decode(folded_word);
  const std::u32string stem = Decode(stem_term);
  if (stem_term.empty() || word.size() < 5 ||
      word.size() > kMaxCorrectedLength) {
    return out;
  }
  if (std::any_of(word.begin(), word.end(),
                  [](char32_t c) { return c >= '0' && c <= '9'; })) {
    return out;
  }
  const uint32_t max_distance = word.size() >= 9 ? 2 : 1;
  const std::string first(
      stem_term.substr(0, static_cast<size_t>(text::Utf8SequenceLength(
                              static_cast<unsigned char>(stem_term[0])))));
  // (distance, word distance), term.
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, SpellingCorrection>>
      candidates;
  std::unique_ptr<storage::StoreIterator> it =
      store.NewIterator(storage::Column::kTerms);
  size_t scanned = 0;
  for (it->Seek(first); it->Valid() && absl::StartsWith(it->key(), first) &&
                        scanned < kMaxScannedTerms;
       it->Next(), ++scanned) {
    if ((scanned & 4095) == 0 && IsCancelRequested(cancelled)) {
      return SearchCancelledError();
    }
    const std::u32string key = Decode(it->key());
    if (key.size() > word.size() + max_distance) continue;
    // A stopword, or a term of under 4 letters, is no correction of a word
    // of 5 or more ("agnes": not "an", "boeing": not "box").
    if (key.size() < 4 || text::IsStopword(it->key())) continue;
    const uint32_t stem_distance = stem.size() < 4
                                       ? max_distance + 1
                                       : EditDistance(stem, key, max_distance);
    // Cheap filters before the words are compared: the stems, a typo in
    // the suffix, or the stem near a start of the word (a typo that keeps
    // Snowball from stripping the suffix: "trnsformer" stays whole).
    if (stem_distance > max_distance &&
        InflectedDistance(word, key, max_distance) > max_distance &&
        PrefixDistance(word, key, max_distance) > max_distance) {
      continue;
    }
    // Words in reach by the typed word's length ("segmantation":
    // "segmentation"), or stems in reach by the stem's own length
    // ("synaptic": "synapse", one edit from "synapt"; not "compositional":
    // "competitive", two from "composit").
    std::string nearest;
    PAPERDB_ASSIGN_OR_RETURN(
        const uint32_t word_distance,
        WordDistance(store, word, it->key(), max_distance, &nearest));
    const uint32_t stem_max = stem.size() >= 9 ? 2 : 1;
    const uint32_t d =
        std::min(word_distance,
                 stem_distance <= stem_max ? stem_distance : max_distance + 1);
    if (d == 0 || d > max_distance) continue;
    PAPERDB_ASSIGN_OR_RETURN(const uint32_t df,
                             index::ParseDocumentFrequency(it->value()));
    if (df == 0) continue;
    candidates.push_back(
        {{d, word_distance},
         {std::string(it->key()), df,
          word_distance <= max_distance ? std::move(nearest) : ""}});
  }
  PAPERDB_RETURN_IF_ERROR(it->status());
  if (candidates.empty()) return out;
  // Nearest first; at one distance, the nearer word ("segmentation" before
  // "semantic", both one edit from "segmant" + "ation" as stems).
  std::sort(
      candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
        return a.first < b.first ||
               (a.first == b.first &&
                (a.second.df > b.second.df || (a.second.df == b.second.df &&
                                               a.second.term < b.second.term)));
      });
  const std::pair<uint32_t, uint32_t> best = candidates[0].first;
  const uint32_t best_df = candidates[0].second.df;
  for (auto& [d, t] : candidates) {
    if (d != best || out.size() >= kMaxCorrections) break;
    // A far rarer neighbour is noise ("lerning": "learn", not "len").
    if (t.df * 10 < best_df) break;
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<SpellingCorrection>> SpellingCorrections(
    const storage::Store& store, absl::string_view folded_word,
    absl::string_view stem_term, const CancelFn& cancelled) {
  // A scan reads up to 200,000 terms, and a query asks it twice for one
  // word (the concept and the word expansions): answers are kept until the
  // store changes.
  static auto* const cache =
      new index::SequencedLru<std::vector<SpellingCorrection>>(4096);
  const uint64_t sequence = store.LatestSequenceNumber();
  index::StoreKey key{store.instance_id(),
                      absl::StrCat(folded_word, "\n", stem_term)};
  if (std::optional<std::vector<SpellingCorrection>> cached =
          cache->Lookup(key, sequence)) {
    return *std::move(cached);
  }
  PAPERDB_ASSIGN_OR_RETURN(
      std::vector<SpellingCorrection> found,
      ScanCorrections(store, folded_word, stem_term, cancelled));
  cache->Insert(std::move(key), sequence, found);
  return found;
}

uint32_t EditDistance(std::u32string_view a, std::u32string_view b,
                      uint32_t max_distance) {
  return OsaDistance(a, b, max_distance, /*prefix_of_b=*/false);
}

}  // namespace paperdb::search
