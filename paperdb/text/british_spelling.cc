#include "paperdb/text/british_spelling.h"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "paperdb/text/english_words.h"

namespace paperdb::text {
namespace {

struct Ending {
  absl::string_view british;
  absl::string_view american;
};

// -ise endings and the -ise verb each stands on ("tokenising": "tokenise").
constexpr Ending kIseEndings[] = {
    {"isational", "izational"}, {"isations", "izations"},
    {"isation", "ization"},     {"isable", "izable"},
    {"isers", "izers"},         {"ising", "izing"},
    {"iser", "izer"},           {"ised", "ized"},
    {"ises", "izes"},           {"ise", "ize"},
};

// Endings replaced only where the American word is listed.
constexpr Ending kListedEndings[] = {
    {"tres", "ters"},   {"tred", "tered"}, {"tre", "ter"},
    {"ences", "enses"}, {"ence", "ense"},  {"ysing", "yzing"},
    {"ysed", "yzed"},   {"yses", "yzes"},  {"yse", "yze"},
};

bool Listed(absl::string_view word) {
  return IsListedEnglishWord(std::string_view(word.data(), word.size()));
}

bool AllLowerAscii(absl::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return c >= 'a' && c <= 'z'; });
}

// True if `verb` (ending in "ise") ends in a word whose "ise" is no suffix
// "ize" replaces: a listed one of 6 letters or more ("unsupervise" in
// "supervise") or a short one that compounds ("denoise", "layerwise").
// Short listed words such as "arise" and "rise" do not count: they end
// "regularise" and "vectorise".
bool EndsInAnIseWord(absl::string_view verb) {
  static constexpr absl::string_view kShort[] = {"noise", "wise", "guise",
                                                 "poise", "raise"};
  for (absl::string_view word : kShort) {
    if (absl::EndsWith(verb, word)) return true;
  }
  for (size_t from = 0; from + 6 <= verb.size(); ++from) {
    if (Listed(verb.substr(from))) return true;
  }
  return false;
}

std::string IseToIze(absl::string_view word) {
  for (const Ending& ending : kIseEndings) {
    if (!absl::EndsWith(word, ending.british)) continue;
    const absl::string_view stem =
        word.substr(0, word.size() - ending.british.size());
    // "prise" is no "prize": short stems are other words.
    if (stem.size() < 4) return "";
    if (EndsInAnIseWord(absl::StrCat(stem, "ise"))) return "";
    return absl::StrCat(stem, ending.american);
  }
  return "";
}

std::string ListedVariant(absl::string_view word) {
  for (const Ending& ending : kListedEndings) {
    if (!absl::EndsWith(word, ending.british)) continue;
    const absl::string_view stem =
        word.substr(0, word.size() - ending.british.size());
    // "entre" is no "enter": the -tre words have 3 letters or more before
    // it ("centre").
    if (stem.size() < 3 && absl::StartsWith(ending.british, "tre")) continue;
    std::string american = absl::StrCat(stem, ending.american);
    if (IsListedEnglishWord(american)) return american;
  }
  // -our, alone or before a suffix: "behaviour", "behavioural",
  // "neighbourhood" (not "bourne": "borne").
  static constexpr absl::string_view kAfterOur[] = {
      "",      "s",    "ed",   "ing", "er",   "ers",  "al",
      "ally",  "able", "ably", "ful", "ite",  "ites", "hood",
      "hoods", "ly",   "less", "ist", "ists", "ism",  "ings"};
  for (size_t at = word.find("our", 1); at != absl::string_view::npos;
       at = word.find("our", at + 1)) {
    const absl::string_view after = word.substr(at + 3);
    if (std::find(std::begin(kAfterOur), std::end(kAfterOur), after) ==
        std::end(kAfterOur)) {
      continue;
    }
    std::string american = absl::StrCat(word.substr(0, at), "or", after);
    if (IsListedEnglishWord(american)) return american;
  }
  return "";
}

}  // namespace

std::string AmericanSpelling(absl::string_view folded) {
  if (folded.size() < 5 || !AllLowerAscii(folded) || Listed(folded)) {
    return "";
  }
  std::string american = IseToIze(folded);
  if (american.empty()) american = ListedVariant(folded);
  return american;
}

}  // namespace paperdb::text
