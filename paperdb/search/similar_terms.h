// Term selection for "more like this": the most informative terms of a text,
// as Elasticsearch's more_like_this query picks them (tf x idf with
// Lucene's classic idf, 1 + ln((N + 1) / (df + 1)); the Snowball English
// stop list, number words, words under 3 characters but 2-character
// acronyms ("RL", "QA") and Han or Kana characters (each a term), and bare
// numbers skipped; terms no other paper holds skipped).
// Source: Lucene's MoreLikeThis (org.apache.lucene.queries.mlt).

#ifndef PAPERDB_SEARCH_SIMILAR_TERMS_H_
#define PAPERDB_SEARCH_SIMILAR_TERMS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/storage/store.h"

namespace paperdb::search {

struct SimilarTerm {
  std::string term;   // The index term ("prune").
  std::string word;   // Its first occurrence in the text ("pruning").
  uint32_t tf = 0;    // Occurrences in the text.
  uint32_t df = 0;    // Papers holding the term.
  double weight = 0;  // tf x idf; the list is sorted by it, descending.
};

// Up to `max_terms` terms of `text`. `text_is_stored` says the text is a
// stored paper's abstract, which counts in every df: a term must then be in
// at least 2 papers to be shared with another. Store errors.
absl::StatusOr<std::vector<SimilarTerm>> SelectSimilarTerms(
    const storage::Store& store, absl::string_view text, bool text_is_stored,
    size_t max_terms);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_SIMILAR_TERMS_H_
