// Parses the query language of SearchPapers into a Query (query.h).
//
//   spiking neural networks   every word must match (implicit AND)
//   graph OR network          either (OR binds looser than AND:
//                             `a b OR c` is `(a b) OR c`)
//   (graph OR network) pruning  parentheses group
//   "leading indicators"      exact phrase (also with “typographic” quotes)
//   "neural pruning"~3        the words within 3 extra positions, any order
//   -word  -"a phrase"  -(a OR b)  NOT word
//                             exclude papers matching it (also U+2212 −)
//   grap*                     any word starting with "grap"
//   ResNet-18                 a word that analyzes to several terms is a
//                             phrase, or its joined form ("resnet18")
//   venue:ICLR  year:2024  year:2020..2023  has:code  host:github.com
//   method:LIFT  dataset:ImageNet  method:"Long Name"
//                             field filters (they restrict, never score)
// `OR`, `AND` and `NOT` are operators only in capitals. Stopwords outside
// phrases are dropped, and so are repeats; a query of only stopwords or
// punctuation parses to a query that matches nothing (not an error).

#ifndef PAPERDB_SEARCH_QUERY_PARSER_H_
#define PAPERDB_SEARCH_QUERY_PARSER_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/search/query.h"

namespace paperdb::search {

// Longest query accepted, in bytes.
inline constexpr size_t kMaxQueryBytes = 16384;
// Longest phrase accepted, in words: as many as a query's leaves, so a
// quoted sentence is matched whole. A longer one is INVALID_ARGUMENT with
// reason kPhraseTooLong, never read as plain words.
inline constexpr size_t kMaxPhraseTerms = 256;
inline constexpr absl::string_view kPhraseTooLong = "PHRASE_TOO_LONG";
// Leaves (words, phrases, filters) kept; later ones are ignored, so a pasted
// abstract still gives a query of bounded cost. The searcher then keeps the
// most informative of a long conjunction (searcher.h).
inline constexpr size_t kMaxClauses = 256;
// Deepest nesting of parentheses accepted.
inline constexpr size_t kMaxDepth = 32;
// Largest proximity slop accepted ("..."~N).
inline constexpr uint32_t kMaxSlop = 64;
// A query of at least this many words that does not parse is read as plain
// words instead (a pasted abstract with "1)" or a stray quote), and
// Query::read_as_text says so.
inline constexpr size_t kPastedWords = 24;

// Parses `text`. Unless it has kPastedWords words or more (then it is read
// as plain words, except for a phrase over kMaxPhraseTerms), INVALID_ARGUMENT,
// with the 0-based code point position and what was expected ("query: character
// 6: unterminated phrase: expected a closing '\"'"), for invalid UTF-8, an
// unterminated phrase, an unbalanced parenthesis, a dangling operator (`a OR`,
// `OR a`, `-`), an unknown field or a malformed field value, a phrase over
// kMaxPhraseTerms words, nesting over kMaxDepth, a slop over kMaxSlop, or a
// query over kMaxQueryBytes.
absl::StatusOr<Query> ParseQuery(absl::string_view text);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_QUERY_PARSER_H_
