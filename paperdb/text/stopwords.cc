#include "paperdb/text/stopwords.h"

#include "absl/container/flat_hash_set.h"

namespace paperdb::text {

bool IsStopword(absl::string_view word) {
  // Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.
  static const auto* const kStopwords =
      new absl::flat_hash_set<absl::string_view>{
          "a",    "an",  "and",   "are",  "as",    "at",    "be",
          "but",  "by",  "for",   "if",   "in",    "into",  "is",
          "it",   "no",  "not",   "of",   "on",    "or",    "such",
          "that", "the", "their", "then", "there", "these", "they",
          "this", "to",  "was",   "will", "with"};
  return kStopwords->contains(word);
}

}  // namespace paperdb::text
