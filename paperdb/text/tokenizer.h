// Splits UTF-8 text into word tokens, keeping byte offsets into the original.
//
// A token is a maximal run of letters, digits and combining marks (Unicode
// general categories L*, N*, Mn, Mc; properties from ICU). Inside a run, an
// apostrophe (U+0027 or U+2019) between two letters and a '.' or ',' between
// two digits are kept, so "model’s" and "5.4" stay one token, and so is an
// invisible soft hyphen or zero-width (non-)joiner inside a word. Everything
// else (spaces, punctuation, symbols, LaTeX and markdown markup) separates
// tokens, so "ResNet-18" gives "ResNet" and "18", and "$\eta(x)$" gives "eta"
// and "x".

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
};

// Returns the tokens of `text` in order. Invalid UTF-8 bytes are treated as
// separators, never as part of a token.
// REQUIRES: text.size() < 4 GiB.
std::vector<TokenSpan> Tokenize(absl::string_view text);

}  // namespace paperdb::text

#endif  // PAPERDB_TEXT_TOKENIZER_H_
