// The English stopword list. Stopwords are indexed (so phrases that contain
// them still match exactly) but dropped from the loose terms of a query.

#ifndef PAPERDB_TEXT_STOPWORDS_H_
#define PAPERDB_TEXT_STOPWORDS_H_

#include "absl/strings/string_view.h"

namespace paperdb::text {

// True if the case-folded, unstemmed word `word` is one of the 33 words of
// Lucene's EnglishAnalyzer default stop set.
bool IsStopword(absl::string_view word);

}  // namespace paperdb::text

#endif  // PAPERDB_TEXT_STOPWORDS_H_
