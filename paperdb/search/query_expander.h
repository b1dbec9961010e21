// QueryExpander: rewrites a parsed query against the store's term
// dictionary before evaluation.
//
//  - Field filters become the field terms that match them (a year range:
//    every stored year inside it).
//  - `prefix*` becomes the (at most kMaxPrefixTerms) most frequent terms
//    starting with the prefix or its stem, stopwords left out; all the
//    prefixes of a query expand to at most kMaxExpandedTerms terms.
//  - Spelling: a word no paper contains is replaced by its corrections
//    (spelling_corrector.h), unless it is a real English word
//    (text/english_words.h), inside an exclusion, or part of a run of
//    words naming a concept.
//  - A word alone (the query's one scored word), or a quoted single word,
//    whose stem other words share (text/word_forms.h) is told apart from
//    them (word_form_expander.h): papers holding only the other words rank
//    lower, or, quoted, do not match; a kStem or kStemOnly rewrite says so.
//  - Acronyms the corpus defines ("reinforcement learning (RL)") expand
//    both ways: a word that is a defined acronym also matches its most
//    frequent expansion as a phrase, and consecutive words (or a phrase)
//    that spell an expansion also match the acronym.
//  - A conjunction of more than kMaxConjunctionTerms words keeps the
//    rarest ones (a pasted abstract), the others are dropped.
//
// Thread safety: a pure function of the store's state.

#ifndef PAPERDB_SEARCH_QUERY_EXPANDER_H_
#define PAPERDB_SEARCH_QUERY_EXPANDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "paperdb/search/cancel.h"
#include "paperdb/search/query.h"
#include "paperdb/search/spelling_corrector.h"
#include "paperdb/storage/store.h"

namespace paperdb::search {

inline constexpr size_t kMaxPrefixTerms = 64;
inline constexpr size_t kMaxExpandedTerms = 256;
inline constexpr size_t kMaxConjunctionTerms = 32;

// What the expander changed, for the response.
struct QueryRewrite {
  // kStem: papers holding other words of a typed word's stem also match,
  // ranked lower; kStemOnly: no paper holds the typed word, every match
  // holds another word of its stem. Replacements: those other words.
  // kConcept: words that name a concept of the thesaurus also match the
  // concept's other terms (paperdb/search/semantic_query.h). kJoined: two
  // adjacent words also match as the one word a paper writes (replacement:
  // that word, folded).
  enum class Kind {
    kSpelling,
    kAcronym,
    kPrefix,
    kDropped,
    kStem,
    kStemOnly,
    kConcept,
    kJoined
  };
  Kind kind = Kind::kSpelling;
  // The word, phrase, prefix or run of words as typed (Query::text from
  // its first word's first character to its last word's last), or the
  // analyzed terms for a query built in code.
  std::string original;
  uint32_t position = 0;  // Where `original` starts, in code points.
  // What was searched instead: for spelling and prefixes, one word per
  // term as an abstract writes it, case-folded ("indicators", not the
  // stem "indic"); acronym expansions as the abstracts write them; for
  // kDropped, the dropped terms.
  std::vector<std::string> replacements;
};

struct ExpandedQuery {
  Query query;
  std::vector<QueryRewrite> rewrites;
};

// Document frequency of `term` (0 if absent). DATA_LOSS if the stored value
// does not parse; store errors.
absl::StatusOr<uint32_t> DocumentFrequency(const storage::Store& store,
                                           const std::string& term);

// Expands `query` as described above. Asks `cancelled` between terms, and
// every few thousand dictionary entries scanned for spelling corrections:
// CANCELLED (SearchCancelledError()) once it says so. Store errors.
absl::StatusOr<ExpandedQuery> ExpandQuery(const storage::Store& store,
                                          Query query,
                                          const CancelFn& cancelled = nullptr);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_QUERY_EXPANDER_H_
