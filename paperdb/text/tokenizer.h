// Splits UTF-8 text into word tokens, keeping byte offsets into the original.
//
// A token is a maximal run of letters, digits and combining marks (Unicode
// general categories L*, N*, Mn, Mc; properties from ICU). Inside a run, an
// apostrophe (U+0027 or U+2019) between two letters and a '.' or ',' (or
// its full-width form) between two digits are kept, so "model’s", "5.4" and
// "９５．３" stay one token, and so is an
// invisible soft hyphen, zero-width space, (non-)joiner or word joiner
// inside a word, and so are one to three asterisks between two letters,
// markdown emphasis inside a word ("**S**parse **Hop**field" gives
// "S**parse" and "Hop**field", marked `inner_emphasis`). Everything
// else (spaces, punctuation, symbols, LaTeX and markdown markup) separates
// tokens, so "ResNet-18" gives "ResNet" and "18", "k=5" gives "k" and "5",
// "5.4%" gives "5.4", "10\%" gives "10", and "$\eta(x)$" gives "eta" and "x".
//
// Han, Hiragana and Katakana characters, written without spaces between
// words, are one token each ("神经网络" gives four), as in Lucene's
// StandardTokenizer.
//
// A token separated from the previous one by exactly one hyphen and nothing
// else is marked `after_hyphen` ("SKILL-MIX": "MIX"), so the analyzer can
// also index the joined compound. Hyphens are U+002D, U+2010 HYPHEN and
// U+2011 NON-BREAKING HYPHEN. Dashes are not: U+2012 FIGURE DASH and U+2013
// EN DASH join ranges ("2019–2023", "pp. 3–5"), U+2014 asides, and U+2212
// MINUS SIGN formulas ("x−y"), none of them one word.

#ifndef PAPERDB_TEXT_TOKENIZER_H_
#define PAPERDB_TEXT_TOKENIZER_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"

namespace paperdb::text {

// One token: the half-open byte range [start_byte, end_byte) of the input.
struct TokenSpan {
  uint32_t start_byte = 0;
  uint32_t end_byte = 0;
  // Exactly one hyphen separates this token from the previous one.
  bool after_hyphen = false;
  // The token holds markdown emphasis asterisks, which are not part of the
  // word: the analyzer removes them.
  bool inner_emphasis = false;
};

// Returns the tokens of `text` in order. Invalid UTF-8 bytes are treated as
// separators, never as part of a token.
// REQUIRES: text.size() < 4 GiB.
std::vector<TokenSpan> Tokenize(absl::string_view text);

}  // namespace paperdb::text

#endif  // PAPERDB_TEXT_TOKENIZER_H_
