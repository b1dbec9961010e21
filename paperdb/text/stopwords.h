// The English stopword list. Stopwords are indexed (so phrases that contain
// them still match exactly) but dropped from the loose terms of a query.

#ifndef PAPERDB_TEXT_STOPWORDS_H_
#define PAPERDB_TEXT_STOPWORDS_H_

#include "absl/strings/string_view.h"

namespace paperdb::text {

// True if the case-folded, unstemmed word `word` is one of the 33 words of
// Lucene's EnglishAnalyzer default stop set.
bool IsStopword(absl::string_view word);

// True if the case-folded, unstemmed word `word` is a function word:
// one of Snowball's English stop list less its prepositions of time and
// place and its quantifiers (so pronouns, question words, auxiliary and
// modal verbs, articles, conjunctions, contractions such as "doesn't" with
// either apostrophe; a superset of IsStopword's).
// A query written as a sentence ("what does prompt tuning fail to do")
// holds them; a paper sharing only them with it matches nothing asked for,
// yet in a small corpus their idf can rival a content word's.
bool IsFunctionWord(absl::string_view word);

// True if the case-folded, unstemmed word `word` is a word of the request
// itself in a search for papers, not of its topic: "papers", "studies",
// "work", "find", "show", "want" ("show me work on graph neural networks").
// Like function words, they match only when a query has nothing else.
bool IsRequestWord(absl::string_view word);

}  // namespace paperdb::text

#endif  // PAPERDB_TEXT_STOPWORDS_H_
