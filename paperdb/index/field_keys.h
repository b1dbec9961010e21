// Field keys: how field terms are encoded. Field terms are the index terms
// of a paper's typed fields (venue, year, code links, methods, datasets,
// acronym definitions; field_terms.h), kept in the same posting lists as
// the words of its abstract so that filters and facets run on the same
// machinery as full-text search.
//
// A field term is "\x01" field ":" key "\x1f" display, where `key` is the
// folded value that filters match (Unicode NFKC case folding, white space
// collapsed) and `display` the value as the paper gives it (for facets).
// Word terms never start with "\x01" (the tokenizer keeps only letters,
// digits and marks), and no field term contains NUL. Field terms have one
// posting per paper with tf 1 and take no part in BM25 statistics.

#ifndef PAPERDB_INDEX_FIELD_KEYS_H_
#define PAPERDB_INDEX_FIELD_KEYS_H_

#include <string>

#include "absl/strings/string_view.h"

namespace paperdb::index {

// Field names, as written in queries (`venue:ICLR`) and facet requests.
inline constexpr absl::string_view kVenueField = "venue";
inline constexpr absl::string_view kYearField = "year";
inline constexpr absl::string_view kHasField = "has";  // Only "has:code".
inline constexpr absl::string_view kHostField = "host";
inline constexpr absl::string_view kMethodField = "method";
inline constexpr absl::string_view kDatasetField = "dataset";
// Acronym definitions: key is the acronym's analyzed term, display the
// expansion as written ("rl" / "reinforcement learning"); and the reverse,
// key the analyzed terms of the expansion without stopwords joined by ' ',
// display the acronym ("reinforc learn" / "RL").
inline constexpr absl::string_view kAcronymField = "acronym";
inline constexpr absl::string_view kExpansionField = "expansion";

// True if `term` is a field term.
inline bool IsFieldTerm(absl::string_view term) {
  return !term.empty() && term[0] == '\x01';
}

// The folded key of `value`: NFKC case folded, runs of white space and
// control characters collapsed to one ' ', trimmed.
std::string FieldKey(absl::string_view value);

// The key of a method or dataset name: FieldKey() without spaces, hyphens
// ('-', U+2010, U+2011), '_', '.' and '/', so that "CIFAR10", "cifar-10"
// and "CIFAR 10" are one name.
std::string NameKey(absl::string_view name);

// "\x01" field ":" key "\x1f": every field term of that key starts with it.
std::string FieldTermPrefix(absl::string_view field, absl::string_view key);

// "\x01" field ":": every field term of the field starts with it.
std::string FieldPrefix(absl::string_view field);

// The field term for `display` in `field` (the key is FieldKey(display),
// or `key` if given).
std::string FieldTerm(absl::string_view field, absl::string_view display,
                      absl::string_view key = {});

// A field term taken apart. Returns false if `term` is not a field term.
struct FieldTermParts {
  absl::string_view field;
  absl::string_view key;
  absl::string_view display;
};
bool ParseFieldTerm(absl::string_view term, FieldTermParts* parts);

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_FIELD_KEYS_H_
