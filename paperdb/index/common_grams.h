// Common grams: an index term for each pair of adjacent stopwords, so that a
// phrase of them ("of the", "state of the art") reads one short posting
// list instead of checking the positions of two of the longest (Lucene's
// CommonGramsFilter; T. Burrows, HathiTrust, "Slow queries and common
// words", 2010).
//
// A common gram is "\x02" first " " second, the two analyzed terms; it has a
// posting at the first word's position wherever the second word follows it
// directly. Word terms never start with "\x02" (the tokenizer keeps only
// letters, digits and marks) nor field terms (field_keys.h), so a prefix of
// word terms never reaches one. Common grams take no part in document
// lengths.

#ifndef PAPERDB_INDEX_COMMON_GRAMS_H_
#define PAPERDB_INDEX_COMMON_GRAMS_H_

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "paperdb/text/stopwords.h"

namespace paperdb::index {

// True if the analyzed term `term` is one half of a common gram: one of the
// stopwords (stopwords.h). Asked of the analyzed (stemmed) term, at ingest
// and at query time alike, so the two always agree.
inline bool IsCommonGramWord(absl::string_view term) {
  return term.size() <= 5 && text::IsStopword(term);
}

// The common gram of `first` followed by `second`.
// REQUIRES: IsCommonGramWord() of both.
inline std::string CommonGram(absl::string_view first,
                              absl::string_view second) {
  return absl::StrCat("\x02", first, " ", second);
}

// True if `term` is a common gram.
inline bool IsCommonGram(absl::string_view term) {
  return !term.empty() && term[0] == '\x02';
}

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_COMMON_GRAMS_H_
