#include "paperdb/extract/datasets.h"

#include <algorithm>
#include <array>
#include <bitset>
#include <cstdlib>
#include <iterator>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "paperdb/extract/name_shape.h"

namespace paperdb::extract {
namespace internal {
// datasets.txt, embedded by embed_text.cmake.
extern const char kDatasetList[];
}  // namespace internal

namespace {

// The curated list, parsed once.
struct Catalog {
  std::vector<std::string> canonical;  // Canonical names, in file order.
  // Every spelling (canonical names and aliases) with its canonical index,
  // by first byte, longest first.
  std::array<std::vector<std::pair<std::string, size_t>>, 256> by_first;
  // Whether some spelling starts with bytes b1 b2 (bit b2 of
  // second_bytes[b1]), or is the one byte b1 (bit 0: no spelling holds NUL).
  std::array<std::bitset<256>, 256> second_bytes;
  absl::flat_hash_map<std::string, size_t> by_spelling;
};

const Catalog& GetCatalog() {
  static const Catalog* const catalog = [] {
    auto* c = new Catalog;
    for (absl::string_view line :
         absl::StrSplit(internal::kDatasetList, '\n')) {
      line = absl::StripAsciiWhitespace(line);
      if (line.empty() || line[0] == '#') continue;
      const size_t index = c->canonical.size();
      bool first = true;
      for (absl::string_view spelling : absl::StrSplit(line, '|')) {
        spelling = absl::StripAsciiWhitespace(spelling);
        if (spelling.empty()) continue;
        if (first) c->canonical.emplace_back(spelling);
        first = false;
        if (c->by_spelling.emplace(std::string(spelling), index).second) {
          const auto first = static_cast<unsigned char>(spelling[0]);
          c->by_first[first].emplace_back(std::string(spelling), index);
          c->second_bytes[first].set(
              spelling.size() > 1 ? static_cast<unsigned char>(spelling[1])
                                  : 0);
        }
      }
    }
    for (auto& spellings : c->by_first) {
      std::stable_sort(spellings.begin(), spellings.end(),
                       [](const auto& a, const auto& b) {
                         return a.first.size() > b.first.size();
                       });
    }
    return c;
  }();
  return *catalog;
}

bool IsAlnumAt(absl::string_view text, size_t i) {
  return i < text.size() &&
         absl::ascii_isalnum(static_cast<unsigned char>(text[i]));
}

// True if a token can start at `begin`: no letter or digit before it, and no
// '-' joining it to one ("10" inside "CIFAR-10" does not start one).
bool StartsToken(absl::string_view text, size_t begin) {
  if (begin == 0) return true;
  if (IsAlnumAt(text, begin - 1)) return false;
  return !(text[begin - 1] == '-' && begin >= 2 && IsAlnumAt(text, begin - 2));
}

// True if a token can end at `end`: no letter or digit after it, and no '-'
// joining it to one ("CIFAR-10" inside "CIFAR-10-C" does not end one).
bool EndsToken(absl::string_view text, size_t end) {
  if (IsAlnumAt(text, end)) return false;
  return !(end < text.size() && text[end] == '-' && IsAlnumAt(text, end + 1));
}

struct Match {
  Span span;  // Plain-text offsets.
  std::string name;
};

// Start bytes of the runs of ASCII letters and digits in `text`, in order:
// where a name or a pattern's word may start.
std::vector<size_t> WordStarts(absl::string_view text) {
  std::vector<size_t> starts;
  bool previous = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool alnum = absl::ascii_isalnum(static_cast<unsigned char>(text[i]));
    if (alnum && !previous) starts.push_back(i);
    previous = alnum;
  }
  return starts;
}

// The words the patterns below start from, and where each occurs in a text
// at a word start (every pattern wants a space or a non-word byte before
// it), found in one pass instead of a search per pattern.
class HeadWords {
 public:
  static constexpr absl::string_view kWords[] = {
      "dataset",    "benchmark", "corpus",  "suite",
      "evaluation", "testbed",   "Dataset", "Benchmark"};

  HeadWords(absl::string_view text, const std::vector<size_t>& word_starts) {
    for (const size_t at : word_starts) {
      for (size_t w = 0; w < std::size(kWords); ++w) {
        if (kWords[w][0] == text[at] &&
            absl::StartsWith(text.substr(at), kWords[w])) {
          at_[w].push_back(at);
          break;
        }
      }
    }
  }

  // Start bytes of `word`'s occurrences, in order. REQUIRES: `word` is in
  // kWords.
  const std::vector<size_t>& Of(absl::string_view word) const {
    for (size_t w = 0; w < std::size(kWords); ++w) {
      if (kWords[w] == word) return at_[w];
    }
    std::abort();
  }

 private:
  std::array<std::vector<size_t>, std::size(kWords)> at_;
};

// Calls `visit(at)` for each occurrence of `needle` (" word": a space, then
// a word, one of HeadWords::kWords) in `text`, in order.
template <typename Visit>
void ForEachSpaceWord(absl::string_view text, const HeadWords& heads,
                      absl::string_view needle, Visit visit) {
  for (const size_t at : heads.Of(needle.substr(1))) {
    if (at > 0 && text[at - 1] == ' ') visit(at - 1);
  }
}

// Leftmost-longest matches of the curated spellings, tried only where a
// token starts (a few comparisons per token).
void CuratedMatches(absl::string_view text,
                    const std::vector<size_t>& word_starts,
                    std::vector<Match>* matches) {
  const Catalog& catalog = GetCatalog();
  size_t resume = 0;  // The end of the last match.
  for (const size_t at : word_starts) {
    if (at < resume || !StartsToken(text, at)) continue;
    const auto first = static_cast<unsigned char>(text[at]);
    const std::bitset<256>& seconds = catalog.second_bytes[first];
    if (!seconds.test(0) &&
        (at + 1 >= text.size() ||
         !seconds.test(static_cast<unsigned char>(text[at + 1])))) {
      continue;  // No spelling starts here.
    }
    for (const auto& [spelling, index] : catalog.by_first[first]) {
      const size_t end = at + spelling.size();
      // The second byte first: most spellings part from the text there.
      if (end > text.size() ||
          (spelling.size() > 1 && spelling[1] != text[at + 1])) {
        continue;
      }
      if (absl::StartsWith(text.substr(at), spelling) && EndsToken(text, end)) {
        matches->push_back(
            {{static_cast<uint32_t>(at), static_cast<uint32_t>(end)},
             catalog.canonical[index]});
        resume = end;
        break;
      }
    }
  }
}

// A kName token (or a listed spelling) that ends right before `end`.
bool TokenBefore(absl::string_view text, size_t end, Match* match) {
  constexpr size_t kMaxNameBytes = 64;  // Longer runs are not names.
  size_t begin = end;
  while (begin > 0 && IsNameChar(text[begin - 1])) {
    if (end - begin >= kMaxNameBytes) return false;
    --begin;
  }
  const Span token = NameTokenAt(text, begin);
  if (token.end != end || token.size() == 0) return false;
  const absl::string_view name = text.substr(token.begin, token.size());
  if (ClassifyName(name) != NameShape::kName) return false;
  match->span = token;
  const std::optional<std::string> canonical = CanonicalDatasetName(name);
  match->name = canonical.has_value() ? *canonical : std::string(name);
  return true;
}

// "the X dataset|datasets|benchmark|benchmarks|corpus|suite" and
// "new dataset|benchmark, X".
void PatternMatches(absl::string_view text, const HeadWords& heads,
                    std::vector<Match>* matches) {
  for (absl::string_view head :
       {" dataset", " benchmark", " corpus", " suite"}) {
    ForEachSpaceWord(text, heads, head, [&](size_t at) {
      const size_t after = at + head.size();
      if (IsAlnumAt(text, after) && text[after] != 's') return;
      Match match;
      if (!TokenBefore(text, at, &match)) return;
      const absl::string_view before = text.substr(0, match.span.begin);
      if (absl::EndsWith(before, "the ") || absl::EndsWith(before, "The ")) {
        matches->push_back(std::move(match));
      }
    });
  }
  for (absl::string_view noun : {"dataset", "benchmark"}) {
    // "new <noun>, "
    for (const size_t at : heads.Of(noun)) {
      if (at < 4 || text.substr(at - 4, 4) != "new " ||
          text.substr(at + noun.size(), 2) != ", ") {
        continue;
      }
      const size_t begin = at + noun.size() + 2;
      const Span token = NameTokenAt(text, begin);
      if (token.size() == 0 ||
          ClassifyName(text.substr(token.begin, token.size())) !=
              NameShape::kName) {
        continue;
      }
      matches->push_back(
          {token, std::string(text.substr(token.begin, token.size()))});
    }
  }
}

// "Spiking Heidelberg Dataset (SHD)", "a dataset about grounded image-text
// pairs (GrIT)": a dataset word, then within a few words of the same clause,
// "(X)" with X one name token.
void ParenthesizedNames(absl::string_view text, const HeadWords& heads,
                        std::vector<Match>* matches) {
  constexpr size_t kMaxGapBytes = 100;
  for (absl::string_view head :
       {"dataset", "Dataset", "benchmark", "Benchmark"}) {
    for (const size_t at : heads.Of(head)) {
      // Searched in a bounded window, so that text with many dataset words
      // and no parenthesis stays linear.
      const size_t open = text.substr(0, at + kMaxGapBytes).find('(', at);
      if (open == absl::string_view::npos) continue;
      const absl::string_view gap = text.substr(at, open - at);
      if (gap.find_first_of(".;:,)") != absl::string_view::npos) continue;
      const Span token = NameTokenAt(text, open + 1);
      if (token.end >= text.size() || text[token.end] != ')') continue;
      Match match;
      if (TokenBefore(text, token.end, &match) && match.span == token) {
        matches->push_back(std::move(match));
      }
    }
  }
}

// True if the noun phrase ends with the word that ends at `end`: a clause
// end or a preposition follows ("a new evaluation to measure ...", not "an
// evaluation strategy").
bool EndsNounPhrase(absl::string_view text, size_t end) {
  if (end >= text.size() || text[end] != ' ') return true;
  absl::string_view rest = text.substr(end + 1);
  rest = rest.substr(0, rest.find(' '));
  for (absl::string_view word : {"to", "for", "of", "that", "which", "with",
                                 "on", "in", "and", "where"}) {
    if (rest == word) return true;
  }
  return false;
}

// "X, a new benchmark|dataset|evaluation ...": X is introduced as data.
void IntroducedAsData(absl::string_view text, const HeadWords& heads,
                      std::vector<Match>* matches) {
  for (absl::string_view head :
       {" benchmark", " dataset", " evaluation", " corpus", " testbed"}) {
    ForEachSpaceWord(text, heads, head, [&](size_t at) {
      if (!EndsNounPhrase(text, at + head.size())) return;
      // At most three words between the comma and the head, the first "a"
      // or "an".
      constexpr size_t kMaxGapBytes = 40;
      const size_t from = at > kMaxGapBytes ? at - kMaxGapBytes : 0;
      const size_t window_comma = text.substr(from, at - from).rfind(',');
      if (window_comma == absl::string_view::npos) return;
      const size_t comma = from + window_comma;
      const absl::string_view between = text.substr(comma + 1, at - comma - 1);
      if (!absl::StartsWith(between, " a ") &&
          !absl::StartsWith(between, " an ") && between != " a" &&
          between != " an") {
        return;
      }
      if (between.find_first_of(".;:()") != absl::string_view::npos ||
          std::count(between.begin(), between.end(), ' ') > 3) {
        return;
      }
      Match match;
      if (TokenBefore(text, comma, &match)) {
        matches->push_back(std::move(match));
      }
    });
  }
}

bool NamesADataset(absl::string_view expansion) {
  for (absl::string_view word :
       absl::StrSplit(expansion, absl::ByAnyChar(" -"), absl::SkipEmpty())) {
    if (word == "Dataset" || word == "Datasets" || word == "Benchmark" ||
        word == "Corpus") {
      return true;
    }
  }
  return false;
}

}  // namespace

std::optional<std::string> CanonicalDatasetName(absl::string_view name) {
  const Catalog& catalog = GetCatalog();
  const auto it = catalog.by_spelling.find(name);
  if (it == catalog.by_spelling.end()) return std::nullopt;
  return catalog.canonical[it->second];
}

std::vector<std::pair<std::string, std::string>> CuratedDatasetSpellings() {
  const Catalog& catalog = GetCatalog();
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(catalog.by_spelling.size());
  for (const auto& [spelling, index] : catalog.by_spelling) {
    out.emplace_back(spelling, catalog.canonical[index]);
  }
  return out;
}

size_t CuratedDatasetCount() { return GetCatalog().canonical.size(); }

std::vector<Mention> FindDatasets(absl::string_view text) {
  const PlainText plain = StripMarkup(text);
  return FindDatasets(plain, FindAcronyms(plain));
}

std::vector<Mention> FindDatasets(const PlainText& plain,
                                  const std::vector<Acronym>& acronyms) {
  std::vector<Match> matches;
  const std::vector<size_t> word_starts = WordStarts(plain.text);
  const HeadWords heads(plain.text, word_starts);
  CuratedMatches(plain.text, word_starts, &matches);
  PatternMatches(plain.text, heads, &matches);
  ParenthesizedNames(plain.text, heads, &matches);
  IntroducedAsData(plain.text, heads, &matches);
  std::vector<Mention> found;
  for (Match& match : matches) {
    found.push_back({std::move(match.name), plain.ToSource(match.span)});
  }
  for (const Acronym& acronym : acronyms) {
    if (NamesADataset(acronym.expansion)) {
      const std::optional<std::string> canonical =
          CanonicalDatasetName(acronym.acronym);
      found.push_back(
          {canonical.value_or(acronym.acronym), acronym.acronym_span});
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const Mention& a, const Mention& b) {
                     return a.span.begin < b.span.begin;
                   });
  std::vector<Mention> datasets;
  absl::flat_hash_set<std::string> seen;
  for (Mention& mention : found) {
    if (seen.insert(mention.name).second)
      datasets.push_back(std::move(mention));
  }
  return datasets;
}

}  // namespace paperdb::extract
