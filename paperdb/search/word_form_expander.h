// Word forms at query time: for a typed word whose stem other words share
// (text/word_forms.h), finds which of the stem's surface-form terms are
// the typed word and which are other words, so that the searcher can weigh
// papers holding only the others less (word_form_iterator.h).

#ifndef PAPERDB_SEARCH_WORD_FORM_EXPANDER_H_
#define PAPERDB_SEARCH_WORD_FORM_EXPANDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "paperdb/search/query.h"
#include "paperdb/storage/store.h"

namespace paperdb::search {

// Surface-form terms read per stem, most papers first.
inline constexpr size_t kMaxFormTerms = 64;
// Other words of a stem named in a rewrite.
inline constexpr size_t kMaxFormsShown = 5;

struct WordFormResolution {
  // The other words of the stem that papers hold, folded, most papers
  // first (at most kMaxFormsShown); words folded to the stem or the stem
  // plus "e", which the index does not name, are listed as the stem when
  // they are all that matched and are not the typed word ("neurall":
  // "neural"), or, as an English word, after the others when some papers
  // are known to hold only them ("generalization": ..., "general").
  std::vector<std::string> other_words;
  // False if no paper holds the typed word or an inflection of it: every
  // match of the stem is another word.
  bool typed_word_found = true;
  // The typed word is not English and no paper holds it, but one of the
  // stem's words is within spelling-correction distance of it
  // ("reinforcment": "reinforcement"): that word, which then counts as the
  // typed one.
  std::string corrected;
};

// For `node`, a kTerm with `surface` set whose stem `node->terms[0]`
// `stem_df` papers hold: sets node->split_forms, same_forms, other_forms and
// unmarked_same when other words share the stem in some paper. Words folded
// to the stem or the stem plus "e" have no form term; they are counted as
// another word only where more papers hold the stem than the typed word's
// forms (else no paper is known to hold them without the typed word). Store
// errors; DATA_LOSS for a bad document frequency.
absl::StatusOr<WordFormResolution> ResolveWordForms(const storage::Store& store,
                                                    QueryNode* node,
                                                    uint32_t stem_df);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_WORD_FORM_EXPANDER_H_
