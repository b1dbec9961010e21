// The characters of the query syntax (query_parser.h): quote marks,
// white space and minus signs in their Unicode forms, and pasted prose
// told apart from syntax. Internal to the query parser.

#ifndef PAPERDB_SEARCH_QUERY_LEXER_H_
#define PAPERDB_SEARCH_QUERY_LEXER_H_

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace paperdb::search::internal {

inline constexpr absl::string_view kLeftQuote = "\xE2\x80\x9C";   // U+201C “
inline constexpr absl::string_view kRightQuote = "\xE2\x80\x9D";  // U+201D ”
inline constexpr absl::string_view kFieldNames =
    "venue, year, has, host, method, dataset";

// Byte length of the quote mark at `text[i]`, or 0 if there is none.
size_t QuoteAt(absl::string_view text, size_t i);

// Byte length of the white-space character (Unicode White_Space: ASCII
// spaces, NBSP, U+3000, ...) at `text[i]`, or 0 if there is none.
size_t SpaceAt(absl::string_view text, size_t i);

// Byte length of the minus sign ('-' or U+2212 MINUS SIGN) at `text[i]`,
// or 0 if there is none.
size_t MinusAt(absl::string_view text, size_t i);

// `text` as the syntax reads it: each full-width form of an ASCII character
// (U+FF01..U+FF5E, as a CJK input method types them: （ ） ＂ － ： ＊ ～,
// and letters of field names and operators) as that character, and the
// quote marks of other languages („ German, 「 」 『 』 CJK) as '"'. One
// code point for one, so positions in code points hold. Words fold the same
// either way (the analyzer's NFKC).
std::string SyntaxForm(absl::string_view text);

// True for a query of at least kPastedWords white-space separated words.
bool LooksPasted(absl::string_view text);

// `text` with every character the syntax uses replaced by a space, so that
// it parses as words only: quotes, brackets, '*', ':', '~', minus signs
// and the operator words OR, AND, NOT (lower-cased: stopwords).
std::string AsPlainWords(absl::string_view text);

}  // namespace paperdb::search::internal

#endif  // PAPERDB_SEARCH_QUERY_LEXER_H_
