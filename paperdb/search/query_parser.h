// Parses the query language of SearchPapers.
//
//   spiking neural networks   every word must match (implicit AND)
//   "leading indicators"      exact phrase (also with “typographic” quotes)
//   -word  -"a phrase"        exclude papers matching it (also with U+2212 −)
//   ResNet-18                 a word that analyzes to several terms is
//                             matched as a phrase ("resnet 18")
// Stopwords outside phrases are dropped, and so are repeats of a word or
// phrase; a query of only stopwords or punctuation parses to a query that
// matches nothing (not an error). Any Unicode white space separates words.

#ifndef PAPERDB_SEARCH_QUERY_PARSER_H_
#define PAPERDB_SEARCH_QUERY_PARSER_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/search/query.h"

namespace paperdb::search {

// Longest query accepted, in bytes.
inline constexpr size_t kMaxQueryBytes = 16384;
// Longest phrase accepted, in words.
inline constexpr size_t kMaxPhraseTerms = 32;
// Distinct words and phrases that count; later ones are ignored, so a pasted
// abstract still gives a query of bounded cost.
inline constexpr size_t kMaxClauses = 64;

// Parses `text`. INVALID_ARGUMENT, with the 0-based code point position and
// what was expected, for invalid UTF-8, an unterminated phrase, a '-' with
// nothing to exclude, a phrase over kMaxPhraseTerms words, or a query longer
// than kMaxQueryBytes.
absl::StatusOr<Query> ParseQuery(absl::string_view text);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_QUERY_PARSER_H_
