#include "paperdb/search/word_form_expander.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/terms_cache.h"
#include "paperdb/search/spelling_corrector.h"
#include "paperdb/semantic/concept_lexicon.h"
#include "paperdb/text/english_words.h"
#include "paperdb/text/word_forms.h"

namespace paperdb::search {

namespace {

// How a rewrite names the words folded to `stem` or to it plus "e", which
// the index does not name: the English one ("reinforce" for "reinforc"),
// else the stem.
std::string UnmarkedWord(const std::string& stem) {
  const std::string with_e = absl::StrCat(stem, "e");
  if (text::IsEnglishWord(with_e) && !text::IsEnglishWord(stem)) return with_e;
  return stem;
}

}  // namespace

absl::StatusOr<WordFormResolution> ResolveWordForms(const storage::Store& store,
                                                    QueryNode* node,
                                                    uint32_t stem_df) {
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
  bool unmarked_same = !text::HasFormTerm(typed, stem) ||
                       text::HasUnmarkedInflection(typed, stem) ||
                       text::AreInflections(typed, stem) ||
                       text::AreInflections(typed, absl::StrCat(stem, "e"));
  // A typed word that no paper holds, not English nor of a one-word term
  // of the thesaurus ("recommender" is no typo of "recommend"), may be a
  // typo of one of the stem's words: the most frequent one within reach
  // stands for it.
  std::string typo_of;
  if (!unmarked_same && !text::IsEnglishWord(typed) &&
      !semantic::ConceptLexicon::Default().IsOneWordTerm(typed, stem)) {
    bool typed_held = false;
    for (const index::TermDf& form : forms) {
      typed_held |=
          form.df > 0 && text::AreInflections(typed, text::FormOf(form.term));
    }
    for (const index::TermDf& form : forms) {
      if (typed_held || form.df == 0) break;
      if (IsTypoOf(typed, text::FormOf(form.term))) {
        typo_of = std::string(text::FormOf(form.term));
        break;
      }
    }
    // Or of the word folded to the stem itself ("neurall": "neural").
    if (!typed_held && typo_of.empty() && IsTypoOf(typed, UnmarkedWord(stem))) {
      typo_of = UnmarkedWord(stem);
      unmarked_same = true;
    }
  }
  std::vector<std::string> same, other;
  uint64_t same_df = 0, other_df = 0;
  for (index::TermDf& form : forms) {
    if (form.df == 0) continue;
    const absl::string_view word = text::FormOf(form.term);
    if (text::AreInflections(typed, word) ||
        (!typo_of.empty() && text::AreInflections(typo_of, word))) {
      same_df += form.df;
      same.push_back(std::move(form.term));
    } else {
      if (resolution.other_words.size() < kMaxFormsShown) {
        resolution.other_words.emplace_back(word);
      }
      other_df += form.df;
      other.push_back(std::move(form.term));
    }
  }
  resolution.corrected = std::move(typo_of);
  // Words folded to the stem (or it plus "e") hold papers of their own
  // only where the stem has more papers than the typed word's forms.
  const bool unmarked_other = !unmarked_same && stem_df > same_df;
  // Nothing else under the stem, or only words that are the typed one:
  // nothing to tell apart.
  if (other.empty() && !unmarked_other) return resolution;
  resolution.typed_word_found = !same.empty() || unmarked_same;
  // Only the stem's own word matched ("neurall": papers write "neural"):
  // it is the word to name.
  if (unmarked_other && resolution.other_words.empty()) {
    resolution.other_words.push_back(UnmarkedWord(stem));
  } else if (unmarked_other && stem_df > same_df + other_df &&
             text::IsEnglishWord(UnmarkedWord(stem))) {
    // Some papers hold only the stem's own word ("general" under
    // "generalization"): it is named beside the others, after the
    // kMaxFormsShown of them.
    resolution.other_words.push_back(UnmarkedWord(stem));
  }
  node->split_forms = true;
  node->same_forms = std::move(same);
  node->other_forms = std::move(other);
  node->unmarked_same = unmarked_same;
  return resolution;
}

}  // namespace paperdb::search
