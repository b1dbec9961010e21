// Word forms: telling apart the words one stem conflates. Snowball stems
// "experience" and "experiments" to "experi", "informative" and
// "information" to "inform", "universe" and "university" to "univers".
// Beside a token's stem, the index keeps a surface-form term naming the
// word as written (folded), so that a search can rank papers holding the
// typed word (or an inflection of it: "network"/"networks",
// "prune"/"pruning") above papers holding only another word of its stem,
// as Lucene does with KeywordRepeatFilter beside a stemmer.
//
// A surface-form term is "\x03" stem "\x1f" folded, where `folded` is the
// token's folded form (Analyzer::FoldForMatching()). A token gets one only
// if HasFormTerm(folded, stem): the many words that are their stem, or
// their stem plus "e", or an inflection of either ("network", "networks",
// "language", "learning") get none, and a search counts the stem's
// occurrences that no form term accounts for as that unmarked word. So
// only words Snowball reduces further than their inflections carry one
// ("information", "experiments", "university"), and the head of a word
// hyphened to a particle, whose form is the joined compound ("tradeoff"
// for the "trade" of "trade-off"). Word terms never start with
// "\x03" (the tokenizer keeps only letters, digits and marks), nor field terms
// ("\x01") or common grams ("\x02"). Form terms take no part in document
// lengths.

#ifndef PAPERDB_TEXT_WORD_FORMS_H_
#define PAPERDB_TEXT_WORD_FORMS_H_

#include <string>

#include "absl/strings/string_view.h"

namespace paperdb::text {

// True if a content token folded to `folded` and stemmed to `stem` is
// indexed with a surface-form term: `folded` is not `stem` or `stem`
// followed by "e", nor an inflection of either (AreInflections()).
bool HasFormTerm(absl::string_view folded, absl::string_view stem);

// The surface-form term of `folded` under `stem`.
std::string FormTerm(absl::string_view stem, absl::string_view folded);

// "\x03" stem "\x1f": every form term of `stem` starts with it.
std::string FormTermPrefix(absl::string_view stem);

// True if `term` is a surface-form term.
inline bool IsFormTerm(absl::string_view term) {
  return !term.empty() && term[0] == '\x03';
}

// True if the -ies or -ied inflection of the folded word `word` (ending in
// "y") has no form term under `stem`, being the stem inflected: "policy"
// (stem "polici") has "policies", which folds to it. Papers holding only
// such an inflection hold the word.
bool HasUnmarkedInflection(absl::string_view word, absl::string_view stem);

// The folded word of a form term ("" if `term` is not one).
absl::string_view FormOf(absl::string_view term);

// True if the folded word `folded` is a particle that makes a phrasal noun
// of the word hyphened before it, plural or not: "off" of "trade-off",
// "ups" of "set-ups", "out", "down", "over", "in", "on", "back", "away".
// Such a head is not its word inflected ("trade-off" is no "trading"): it
// gets the compound as its form term (Analyzer::Analyze()).
bool IsParticle(absl::string_view folded);

// True if the folded words `a` and `b` are one English word, inflected:
// they share a base once regular inflections are removed (plural -s, -es,
// -ies; possessive 's; -ed, -ied, -ing, with a final "e" restored or a
// doubled consonant undoubled; adverbial -ly, -ily). "network"/"networks",
// "prune"/"pruning", "study"/"studies", "bias"/"biases" are; "experience"/
// "experiments", "informative"/"information", "universe"/"university" are
// not. Words with characters other than ASCII letters are one word only
// when equal.
bool AreInflections(absl::string_view a, absl::string_view b);

}  // namespace paperdb::text

#endif  // PAPERDB_TEXT_WORD_FORMS_H_
