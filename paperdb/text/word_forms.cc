#include "paperdb/text/word_forms.h"

#include <algorithm>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace paperdb::text {
namespace {

bool IsVowel(char c) {
  return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
}

bool HasVowel(absl::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return IsVowel(c); });
}

bool AllLowerAscii(absl::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return c >= 'a' && c <= 'z'; });
}

// "stopp" -> true: a doubled consonant, which English may double before
// -ed and -ing ("stopped", "modelling"); the base may also end in it
// ("passed"), so callers keep both candidates.
bool EndsInDoubledConsonant(absl::string_view s) {
  if (s.size() < 3) return false;
  const char c = s.back();
  return c == s[s.size() - 2] && !IsVowel(c);
}

// The bases `word` may be an inflection of, `word` itself first. Candidates
// need not be words: two words are inflections of one another when their
// candidates meet.
std::vector<std::string> Bases(absl::string_view word) {
  std::vector<std::string> bases = {std::string(word)};
  // A possessive is its word: "network's", "networks'".
  if (absl::EndsWith(word, "'s")) {
    word.remove_suffix(2);
    bases.emplace_back(word);
  } else if (absl::EndsWith(word, "'")) {
    word.remove_suffix(1);
    bases.emplace_back(word);
  }
  if (!AllLowerAscii(word)) return bases;
  auto add = [&bases](absl::string_view base) {
    if (base.size() >= 2 && HasVowel(base)) bases.emplace_back(base);
  };
  auto drop = [word](size_t n) { return word.substr(0, word.size() - n); };
  const size_t n = word.size();
  if (n > 3 && absl::EndsWith(word, "s") && !absl::EndsWith(word, "ss")) {
    bases.emplace_back(drop(1));  // "networks", "biases" -> "biase", "llms"
    if (absl::EndsWith(word, "es")) add(drop(2));  // "biases" -> "bias"
    if (n > 4 && absl::EndsWith(word, "ies")) {
      add(absl::StrCat(drop(3), "y"));  // "studies"
    }
  }
  if (n > 4 && absl::EndsWith(word, "ed") && !absl::EndsWith(word, "eed")) {
    const absl::string_view stem = drop(2);
    add(stem);     // "learned"
    add(drop(1));  // "based" -> "base"
    if (EndsInDoubledConsonant(stem)) add(stem.substr(0, stem.size() - 1));
    if (absl::EndsWith(word, "ied")) add(absl::StrCat(drop(3), "y"));
  }
  if (n > 5 && absl::EndsWith(word, "ing")) {
    const absl::string_view stem = drop(3);
    add(stem);                     // "learning"
    add(absl::StrCat(stem, "e"));  // "pruning" -> "prune"
    if (EndsInDoubledConsonant(stem)) add(stem.substr(0, stem.size() - 1));
  }
  if (n > 5 && absl::EndsWith(word, "ly")) {
    add(drop(2));  // "efficiently"
    if (absl::EndsWith(word, "ily")) add(absl::StrCat(drop(3), "y"));
  }
  return bases;
}

}  // namespace

bool HasFormTerm(absl::string_view folded, absl::string_view stem) {
  if (folded == stem) return false;
  return !AreInflections(folded, stem) &&
         !AreInflections(folded, absl::StrCat(stem, "e"));
}

bool HasUnmarkedInflection(absl::string_view word, absl::string_view stem) {
  // Only -ies and -ied reach a stem the word itself does not: "policies"
  // without "es" is "polici". (Other inflections meet a stem through the
  // word's own bases, or through a doubled consonant of a non-word:
  // "neuralled" is not an inflection of "neurall".)
  if (word.size() < 3 || !absl::EndsWith(word, "y")) return false;
  const absl::string_view base = word.substr(0, word.size() - 1);
  return !HasFormTerm(absl::StrCat(base, "ies"), stem) ||
         !HasFormTerm(absl::StrCat(base, "ied"), stem);
}

std::string FormTerm(absl::string_view stem, absl::string_view folded) {
  return absl::StrCat("\x03", stem, "\x1f", folded);
}

std::string FormTermPrefix(absl::string_view stem) {
  return absl::StrCat("\x03", stem, "\x1f");
}

absl::string_view FormOf(absl::string_view term) {
  if (!IsFormTerm(term)) return {};
  const size_t separator = term.find('\x1f');
  if (separator == absl::string_view::npos) return {};
  return term.substr(separator + 1);
}

// Bases() of `word` and of each of its bases: "embeddings" -> "embedding"
// -> "embed", so that inflections of inflections meet ("embeddings" and
// "embedded").
std::vector<std::string> BasesTwice(absl::string_view word) {
  std::vector<std::string> bases = Bases(word);
  const size_t first = bases.size();
  for (size_t i = 1; i < first; ++i) {
    std::vector<std::string> more = Bases(bases[i]);
    bases.insert(bases.end(), more.begin() + 1, more.end());
  }
  return bases;
}

bool AreInflections(absl::string_view a, absl::string_view b) {
  if (a == b) return true;
  const std::vector<std::string> bases_a = BasesTwice(a);
  const std::vector<std::string> bases_b = BasesTwice(b);
  for (const std::string& x : bases_a) {
    for (const std::string& y : bases_b) {
      if (x == y) return true;
    }
  }
  return false;
}

bool IsParticle(absl::string_view folded) {
  if (folded.size() > 2) absl::ConsumeSuffix(&folded, "s");
  static constexpr absl::string_view kParticles[] = {
      "off", "up", "out", "down", "over", "in", "on", "back", "away"};
  return std::find(std::begin(kParticles), std::end(kParticles), folded) !=
         std::end(kParticles);
}

}  // namespace paperdb::text
