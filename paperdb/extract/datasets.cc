#include "paperdb/extract/datasets.h"

#include <algorithm>

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
  // Every spelling (canonical names and aliases), longest first.
  std::vector<std::pair<std::string, size_t>> spellings;
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
          c->spellings.emplace_back(std::string(spelling), index);
        }
      }
    }
    std::stable_sort(c->spellings.begin(), c->spellings.end(),
                     [](const auto& a, const auto& b) {
                       return a.first.size() > b.first.size();
                     });
    return c;
  }();
  return *catalog;
}

bool IsAlnumAt(absl::string_view text, size_t i) {
  return i < text.size() &&
         absl::ascii_isalnum(static_cast<unsigned char>(text[i]));
}

// True if text[begin, end) is a whole token: no letter or digit touches it,
// and no '-' joins it to one ("CIFAR-10" inside "CIFAR-10-C" is not).
bool OnTokenBoundaries(absl::string_view text, size_t begin, size_t end) {
  if (begin > 0) {
    if (IsAlnumAt(text, begin - 1)) return false;
    if (text[begin - 1] == '-' && begin >= 2 && IsAlnumAt(text, begin - 2)) {
      return false;
    }
  }
  if (IsAlnumAt(text, end)) return false;
  if (end < text.size() && text[end] == '-' && IsAlnumAt(text, end + 1)) {
    return false;
  }
  return true;
}

struct Match {
  Span span;  // Plain-text offsets.
  std::string name;
};

void CuratedMatches(absl::string_view text, std::vector<Match>* matches) {
  const Catalog& catalog = GetCatalog();
  std::vector<bool> taken(text.size(), false);
  for (const auto& [spelling, index] : catalog.spellings) {
    for (size_t at = text.find(spelling); at != absl::string_view::npos;
         at = text.find(spelling, at + 1)) {
      const size_t end = at + spelling.size();
      if (!OnTokenBoundaries(text, at, end)) continue;
      // Longest spellings come first: a shorter one inside is not a mention.
      if (std::any_of(taken.begin() + at, taken.begin() + end,
                      [](bool t) { return t; })) {
        continue;
      }
      std::fill(taken.begin() + at, taken.begin() + end, true);
      matches->push_back(
          {{static_cast<uint32_t>(at), static_cast<uint32_t>(end)},
           catalog.canonical[index]});
    }
  }
}

// A kName token (or a listed spelling) that ends right before `end`.
bool TokenBefore(absl::string_view text, size_t end, Match* match) {
  size_t begin = end;
  while (begin > 0 && IsNameChar(text[begin - 1])) --begin;
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
void PatternMatches(absl::string_view text, std::vector<Match>* matches) {
  for (absl::string_view head :
       {" dataset", " benchmark", " corpus", " suite"}) {
    for (size_t at = text.find(head); at != absl::string_view::npos;
         at = text.find(head, at + 1)) {
      const size_t after = at + head.size();
      if (IsAlnumAt(text, after) && text[after] != 's') continue;
      Match match;
      if (!TokenBefore(text, at, &match)) continue;
      const absl::string_view before = text.substr(0, match.span.begin);
      if (absl::EndsWith(before, "the ") || absl::EndsWith(before, "The ")) {
        matches->push_back(std::move(match));
      }
    }
  }
  for (absl::string_view cue : {"new dataset, ", "new benchmark, "}) {
    for (size_t at = text.find(cue); at != absl::string_view::npos;
         at = text.find(cue, at + 1)) {
      const size_t begin = at + cue.size();
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
void ParenthesizedNames(absl::string_view text, std::vector<Match>* matches) {
  constexpr size_t kMaxGapBytes = 100;
  for (absl::string_view head :
       {"dataset", "Dataset", "benchmark", "Benchmark"}) {
    for (size_t at = text.find(head); at != absl::string_view::npos;
         at = text.find(head, at + 1)) {
      if (at > 0 && IsAlnumAt(text, at - 1)) continue;
      const size_t open = text.find('(', at);
      if (open == absl::string_view::npos || open - at > kMaxGapBytes) continue;
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
void IntroducedAsData(absl::string_view text, std::vector<Match>* matches) {
  for (absl::string_view head :
       {" benchmark", " dataset", " evaluation", " corpus", " testbed"}) {
    for (size_t at = text.find(head); at != absl::string_view::npos;
         at = text.find(head, at + 1)) {
      if (!EndsNounPhrase(text, at + head.size())) continue;
      // At most three words between the comma and the head, the first "a"
      // or "an".
      const size_t comma = text.rfind(',', at);
      if (comma == absl::string_view::npos || at - comma > 40) continue;
      const absl::string_view between = text.substr(comma + 1, at - comma - 1);
      if (!absl::StartsWith(between, " a ") &&
          !absl::StartsWith(between, " an ") && between != " a" &&
          between != " an") {
        continue;
      }
      if (between.find_first_of(".;:()") != absl::string_view::npos ||
          std::count(between.begin(), between.end(), ' ') > 3) {
        continue;
      }
      Match match;
      if (TokenBefore(text, comma, &match)) {
        matches->push_back(std::move(match));
      }
    }
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

size_t CuratedDatasetCount() { return GetCatalog().canonical.size(); }

std::vector<Mention> FindDatasets(absl::string_view text) {
  const PlainText plain = StripMarkup(text);
  return FindDatasets(plain, FindAcronyms(plain));
}

std::vector<Mention> FindDatasets(const PlainText& plain,
                                  const std::vector<Acronym>& acronyms) {
  std::vector<Match> matches;
  CuratedMatches(plain.text, &matches);
  PatternMatches(plain.text, &matches);
  ParenthesizedNames(plain.text, &matches);
  IntroducedAsData(plain.text, &matches);
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
