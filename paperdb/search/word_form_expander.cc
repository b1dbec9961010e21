#include "paperdb/search/word_form_expander.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/terms_cache.h"
#include "paperdb/text/word_forms.h"

namespace paperdb::search {

absl::StatusOr<WordFormResolution> ResolveWordForms(const storage::Store& store,
                                                    QueryNode* node) {
  WordFormResolution resolution;
  const std::string& stem = node->terms[0];
  const std::string& typed = node->surface;
  PAPERDB_ASSIGN_OR_RETURN(
      std::vector<index::TermDf> forms,
      index::TermsCache::Default().Scan(store, text::FormTermPrefix(stem),
                                        kMaxFormTerms));
  std::stable_sort(forms.begin(), forms.end(),
                   [](const index::TermDf& a, const index::TermDf& b) {
                     return a.df > b.df;
                   });
  // The stem's occurrences without a form term are words folded to the
  // stem or the stem plus "e" (text::HasFormTerm()).
  const bool unmarked_same =
      !text::HasFormTerm(typed, stem) || text::AreInflections(typed, stem) ||
      text::AreInflections(typed, absl::StrCat(stem, "e"));
  std::vector<std::string> same, other;
  for (index::TermDf& form : forms) {
    if (form.df == 0) continue;
    const absl::string_view word = text::FormOf(form.term);
    if (text::AreInflections(typed, word)) {
      same.push_back(std::move(form.term));
    } else {
      if (resolution.other_words.size() < kMaxFormsShown) {
        resolution.other_words.emplace_back(word);
      }
      other.push_back(std::move(form.term));
    }
  }
  // Nothing else under the stem, or only words that are the typed one:
  // nothing to tell apart.
  if (other.empty() && unmarked_same) return resolution;
  resolution.typed_word_found = !same.empty() || unmarked_same;
  // Only the stem's own word matched ("neurall": papers write "neural"):
  // it is the word to name.
  if (!unmarked_same && resolution.other_words.empty()) {
    resolution.other_words.push_back(stem);
  }
  node->split_forms = true;
  node->same_forms = std::move(same);
  node->other_forms = std::move(other);
  node->unmarked_same = unmarked_same;
  return resolution;
}

}  // namespace paperdb::search
