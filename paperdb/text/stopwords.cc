#include "paperdb/text/stopwords.h"

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_replace.h"

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

bool IsFunctionWord(absl::string_view word) {
  // Snowball's English stop list (snowballstem.org, algorithms/english/
  // stop.txt), with its contractions, less its prepositions of time and
  // place and its quantifiers ("before", "between", "against", "few",
  // "more"), which carry meaning in a research question: "predicting
  // before training", "attacks against", "few examples".
  static const auto* const kFunctionWords =
      new absl::flat_hash_set<absl::string_view>{
          "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you",
          "your", "yours", "yourself", "yourselves", "he", "him", "his",
          "himself", "she", "her", "hers", "herself", "it", "its", "itself",
          "they", "them", "their", "theirs", "themselves", "what", "which",
          "who", "whom", "this", "that", "these", "those", "am", "is", "are",
          "was", "were", "be", "been", "being", "have", "has", "had", "having",
          "do", "does", "did", "doing", "would", "should", "could", "ought",
          "i'm", "you're", "he's", "she's", "it's", "we're", "they're", "i've",
          "you've", "we've", "they've", "i'd", "you'd", "he'd", "she'd", "we'd",
          "they'd", "i'll", "you'll", "he'll", "she'll", "we'll", "they'll",
          "isn't", "aren't", "wasn't", "weren't", "hasn't", "haven't", "hadn't",
          "doesn't", "don't", "didn't", "won't", "wouldn't", "shan't",
          "shouldn't", "can't", "cannot", "couldn't", "mustn't", "let's",
          "that's", "who's", "what's", "here's", "there's", "when's", "where's",
          "why's", "how's", "a", "an", "the", "and", "but", "if", "or",
          "because", "as", "until", "while", "of", "at", "by", "for", "with",
          "about", "into", "to", "from", "in", "on", "then", "here", "there",
          "when", "where", "why", "how", "all", "any", "both", "each", "such",
          "no", "nor", "not", "so", "than", "will",
          // "via" joins like "by" and "with" ("attention via sparse
          // estimation"); Snowball's list predates its use in titles.
          "via"};
  // A typographic apostrophe (U+2019) reads as the ASCII one.
  if (absl::StrContains(word, "\xE2\x80\x99")) {
    return kFunctionWords->contains(
        absl::StrReplaceAll(word, {{"\xE2\x80\x99", "'"}}));
  }
  return kFunctionWords->contains(word);
}

bool IsRequestWord(absl::string_view word) {
  static const auto* const kRequestWords =
      new absl::flat_hash_set<absl::string_view>{
          "paper",      "papers",    "study",    "studies",     "work",
          "works",      "article",   "articles", "publication", "publications",
          "literature", "find",      "show",     "want",        "looking",
          "search",     "searching", "need",     "please"};
  return kRequestWords->contains(word);
}

}  // namespace paperdb::text
