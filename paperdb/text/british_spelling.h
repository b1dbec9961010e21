// British spellings read as their American words, so that a paper written
// in either spelling is found by a query in either: "quantisation" is
// "quantization", "behaviour" "behavior", "centre" "center", "analyse"
// "analyze". Snowball stems the two spellings apart ("quantis" and
// "quantiz"), so the analyzer spells a word the American way before it
// stems it, for the index and for queries alike. Offsets, snippets and
// highlights keep the text as written.

#ifndef PAPERDB_TEXT_BRITISH_SPELLING_H_
#define PAPERDB_TEXT_BRITISH_SPELLING_H_

#include <string>

#include "absl/strings/string_view.h"

namespace paperdb::text {

// The American spelling of the folded word `folded`, or "" if it has none
// (American already, a word of both spellings, or not ASCII letters):
// - -ise, -ised, -ises, -ising, -iser(s), -isable, -isation(s),
//   -isational become -ize...: "normalise", "tokenising", "regularisation".
//   The word must not be on the English list ("exercise", "promised"),
//   have under 4 letters before its ending ("prise"), nor
//   end in a longer listed -ise word ("unsupervised": supervise) or in
//   "noise", "wise", "guise", "poise" or "raise" ("denoising").
// - -our, alone or before a suffix, becomes -or ("behavioural", "colours";
//   not "bourne"), -tre(s)/-tred -ter after 3 letters or more ("centred";
//   not "entre"), -ence(s) -ense ("defence"), -yse(d/s)/-ysing -yze
//   ("analysing"): only where the American word is on the English list
//   (text/english_words.h). A word of both spellings on the list
//   ("licence", "theatre") stays as written.
std::string AmericanSpelling(absl::string_view folded);

}  // namespace paperdb::text

#endif  // PAPERDB_TEXT_BRITISH_SPELLING_H_
