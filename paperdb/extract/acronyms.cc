#include "paperdb/extract/acronyms.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace paperdb::extract {
namespace {

// Longest short form accepted; Schwartz & Hearst use 10 characters, names
// such as "STanHop-Net" need a little more.
constexpr size_t kMaxShortFormBytes = 12;
// Longest parenthesis considered, in bytes.
constexpr size_t kMaxParenthesisBytes = 160;

bool IsAlnum(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c));
}
bool IsUpper(char c) {
  return absl::ascii_isupper(static_cast<unsigned char>(c));
}

// Schwartz & Hearst's short-form test (at most two words, at most
// kMaxShortFormBytes, starts with a letter or digit), plus two capitals.
bool IsValidShortForm(absl::string_view s) {
  if (s.size() < 2 || s.size() > kMaxShortFormBytes || !IsAlnum(s[0])) {
    return false;
  }
  if (std::count(s.begin(), s.end(), ' ') > 1) return false;
  return std::count_if(s.begin(), s.end(), IsUpper) >= 2;
}

// A word that ends a sentence or clause, or holds a parenthesis: the long
// form's window does not reach over it.
bool StopsWindow(absl::string_view word) {
  if (word.find_first_of("()[]") != absl::string_view::npos) return true;
  const char last = word.back();
  return last == '.' || last == '?' || last == '!' || last == ';' ||
         last == ':';
}

// Start of the window of at most `max_words` words that ends at `end` (the
// byte before the parenthesis), not crossing a word that StopsWindow().
size_t WindowStart(absl::string_view text, size_t end, size_t max_words) {
  size_t start = end;
  size_t words = 0;
  size_t at = end;
  while (words < max_words) {
    while (at > 0 && text[at - 1] == ' ') --at;
    if (at == 0) break;
    size_t word_start = at;
    while (word_start > 0 && text[word_start - 1] != ' ') --word_start;
    if (StopsWindow(text.substr(word_start, at - word_start))) break;
    start = word_start;
    at = word_start;
    ++words;
  }
  return start;
}

// `s` without the trailing characters that cannot end a long form.
size_t TrimmedEnd(absl::string_view s) {
  size_t end = s.size();
  while (end > 0 && !IsAlnum(s[end - 1]) &&
         static_cast<unsigned char>(s[end - 1]) < 0x80) {
    --end;
  }
  return end;
}

// The long-form start for `short_form` in `candidate`, retrying without a
// plural 's' ("MLPs" for "Multi-Layer Perceptron").
size_t LongFormStart(absl::string_view short_form,
                     absl::string_view candidate) {
  // A short form mixing cases ("ToT", "MoE") marks its words' initials with
  // its capitals: those must start words if any reading lets them.
  size_t start = absl::string_view::npos;
  if (std::any_of(short_form.begin(), short_form.end(), [](char c) {
        return absl::ascii_islower(static_cast<unsigned char>(c));
      })) {
    start = internal::BestLongFormStart(short_form, candidate,
                                        /*capitals_start_words=*/true);
  }
  if (start == absl::string_view::npos) {
    start = internal::BestLongFormStart(short_form, candidate);
  }
  if (start == absl::string_view::npos && short_form.size() >= 3 &&
      short_form.back() == 's' && IsUpper(short_form[short_form.size() - 2])) {
    start = internal::BestLongFormStart(
        short_form.substr(0, short_form.size() - 1), candidate);
  }
  return start;
}

// Plain-text spans of one definition.
struct Found {
  Span acronym;
  Span expansion;
};

// "long form (SHORT)": the parenthesis is plain[open, close].
bool LongFormFirst(absl::string_view plain, size_t open, size_t close,
                   Found* found) {
  size_t begin = open + 1;
  size_t end = close;
  while (begin < end && plain[begin] == ' ') ++begin;
  if (absl::StartsWith(plain.substr(begin, end - begin), "or ")) begin += 3;
  end = std::min(end, plain.find_first_of(",;", begin));
  while (end > begin && plain[end - 1] == ' ') --end;
  const absl::string_view short_form = plain.substr(begin, end - begin);
  if (!IsValidShortForm(short_form)) return false;
  size_t window_end = open;
  while (window_end > 0 && plain[window_end - 1] == ' ') --window_end;
  const size_t max_words =
      std::min(short_form.size() + 5, short_form.size() * 2);
  const size_t window_start = WindowStart(plain, window_end, max_words);
  const absl::string_view candidate =
      plain.substr(window_start, window_end - window_start);
  const size_t start = LongFormStart(short_form, candidate);
  if (start == absl::string_view::npos) return false;
  const absl::string_view long_form =
      candidate.substr(start, TrimmedEnd(candidate.substr(start)));
  // A comma inside means the match ran over a clause boundary.
  if (long_form.size() <= short_form.size() ||
      long_form.find(',') != absl::string_view::npos) {
    return false;
  }
  found->acronym = {static_cast<uint32_t>(begin), static_cast<uint32_t>(end)};
  const size_t long_begin = window_start + start;
  found->expansion = {static_cast<uint32_t>(long_begin),
                      static_cast<uint32_t>(long_begin + long_form.size())};
  return true;
}

// "SHORT (long form)": the whole parenthesis must be the long form.
bool ShortFormFirst(absl::string_view plain, size_t open, size_t close,
                    Found* found) {
  if (open < 2 || plain[open - 1] != ' ') return false;
  const size_t short_end = open - 1;
  size_t short_begin = short_end;
  while (short_begin > 0 && plain[short_begin - 1] != ' ') --short_begin;
  const absl::string_view short_form =
      plain.substr(short_begin, short_end - short_begin);
  if (!IsValidShortForm(short_form) ||
      short_form.find(' ') != absl::string_view::npos) {
    return false;
  }
  const absl::string_view inner =
      absl::StripAsciiWhitespace(plain.substr(open + 1, close - open - 1));
  if (inner.find(' ') == absl::string_view::npos ||
      inner.find(',') != absl::string_view::npos ||
      LongFormStart(short_form, inner) != 0) {
    return false;
  }
  const size_t inner_begin = static_cast<size_t>(inner.data() - plain.data());
  found->acronym = {static_cast<uint32_t>(short_begin),
                    static_cast<uint32_t>(short_end)};
  found->expansion = {static_cast<uint32_t>(inner_begin),
                      static_cast<uint32_t>(inner_begin + TrimmedEnd(inner))};
  return true;
}

}  // namespace

namespace internal {

size_t BestLongFormStart(absl::string_view short_form,
                         absl::string_view candidate,
                         bool capitals_start_words) {
  ptrdiff_t s = static_cast<ptrdiff_t>(short_form.size()) - 1;
  ptrdiff_t l = static_cast<ptrdiff_t>(candidate.size()) - 1;
  for (; s >= 0; --s) {
    const char c =
        absl::ascii_tolower(static_cast<unsigned char>(short_form[s]));
    if (!IsAlnum(c)) continue;
    const bool word_start =
        s == 0 || (capitals_start_words && IsUpper(short_form[s]));
    while ((l >= 0 && absl::ascii_tolower(
                          static_cast<unsigned char>(candidate[l])) != c) ||
           (word_start && l > 0 && IsAlnum(candidate[l - 1]))) {
      --l;
    }
    if (l < 0) return absl::string_view::npos;
    --l;
  }
  // The long form starts at the word holding the first matched character.
  while (l >= 0 && candidate[l] != ' ') --l;
  return static_cast<size_t>(l + 1);
}

}  // namespace internal

std::vector<Acronym> FindAcronyms(absl::string_view text) {
  return FindAcronyms(StripMarkup(text));
}

std::vector<Acronym> FindAcronyms(const PlainText& plain) {
  std::vector<Acronym> acronyms;
  absl::flat_hash_set<std::string> seen;
  const absl::string_view p = plain.text;
  for (size_t open = p.find('('); open != absl::string_view::npos;
       open = p.find('(', open + 1)) {
    const size_t close = p.find_first_of("()", open + 1);
    if (close == absl::string_view::npos || p[close] != ')' ||
        close - open > kMaxParenthesisBytes) {
      continue;
    }
    Found found;
    if (!LongFormFirst(p, open, close, &found) &&
        !ShortFormFirst(p, open, close, &found)) {
      continue;
    }
    std::string acronym(p.substr(found.acronym.begin, found.acronym.size()));
    if (!seen.insert(acronym).second) continue;
    acronyms.push_back(
        {std::move(acronym),
         std::string(p.substr(found.expansion.begin, found.expansion.size())),
         plain.ToSource(found.acronym), plain.ToSource(found.expansion)});
  }
  return acronyms;
}

}  // namespace paperdb::extract
