// The iterator of a word whose stem other words share (text/word_forms.h):
// it matches every paper holding the stem, as a term does. A paper holding
// the typed word (or an inflection of it) scores the stem's BM25 with its
// other words' occurrences weighted by WordForms::stem_only_weight in the
// term frequency; a paper holding only other words of the stem
// ("experiments" for "experience", "information" for "informative")
// scores that weight times the stem's BM25. Both stay below the stem's
// BM25, so the stem's block bounds hold. A quoted word (surface-only)
// matches the first kind alone.
//
// Which occurrences are the typed word comes from surface-form terms: a
// paper is a full match if it holds one of `same_forms`, or, when
// `unmarked_same` (the stem's occurrences that carry no form term are the
// typed word), if the stem occurs more often in it than `other_forms` do
// together.

#ifndef PAPERDB_SEARCH_WORD_FORM_ITERATOR_H_
#define PAPERDB_SEARCH_WORD_FORM_ITERATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "paperdb/index/bm25.h"
#include "paperdb/search/doc_iterator.h"
#include "paperdb/storage/store.h"

namespace paperdb::search {

// The part of the stem's BM25 a paper gets that holds only other words of
// the typed word's stem (the word is the whole query): a paper with
// the typed word once then still outranks one with another word of the
// stem at any frequency and length up to twice the average (BM25 of tf 1
// there is idf * 2.2 / 3.4 = 0.65 idf, above 1/3 of BM25's limit, 2.2 idf).
inline constexpr double kStemOnlyWeightAlone = 1.0 / 3.0;

struct WordForms {
  std::string stem;         // The index term.
  uint32_t df = 0;          // Papers holding the stem.
  uint32_t scoring_df = 0;  // The df its idf is of (0: df), as a pin's.
  std::vector<std::string> same_forms;   // Form terms of the typed word.
  std::vector<std::string> other_forms;  // Form terms of other words.
  bool unmarked_same = false;
  bool surface_only = false;  // Only papers holding the typed word.
  double stem_only_weight = kStemOnlyWeightAlone;
};

// REQUIRES: forms.df > 0. `scorer` must outlive the iterator. Explain()
// gives the stem's contribution, with `stem_only` set for a paper holding
// only other words of the stem.
std::unique_ptr<DocIterator> NewWordFormIterator(
    const storage::Store& store, const WordForms& forms,
    const index::Bm25Scorer& scorer);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_WORD_FORM_ITERATOR_H_
