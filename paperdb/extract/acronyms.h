// Acronym definitions in an abstract: "reinforcement learning (RL)" and
// "STanHop-Net (Sparse Tandem Hopfield Network)".
//
// Algorithm: A. S. Schwartz and M. A. Hearst, "A Simple Algorithm for
// Identifying Abbreviation Definitions in Biomedical Text", Pacific Symposium
// on Biocomputing 8:451-462 (2003). Adapted to ML abstracts: markup is
// stripped first (so "(**A**UEL)" is "AUEL"), a short form needs two
// capitals ("RL", "DoG", "GPs"; not "(a)" or "(i.e., linear)"), a plural
// 's' may be unmatched ("Multi-Layer Perceptron (MLPs)"), "(or URFs)" counts,
// and the long-form window stops at sentence ends and other parentheses.

#ifndef PAPERDB_EXTRACT_ACRONYMS_H_
#define PAPERDB_EXTRACT_ACRONYMS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "paperdb/extract/markup.h"
#include "paperdb/extract/span.h"

namespace paperdb::extract {

// One definition. Strings are without markup; spans are of the text as
// written, from the first to the last character of the name: markup inside
// is included ("A**UEL" for "(**A**UEL)"), markup around it is not.
struct Acronym {
  std::string acronym;    // "RL", "LLMs".
  std::string expansion;  // "reinforcement learning".
  Span acronym_span;      // Bytes of the acronym.
  Span expansion_span;    // Bytes of the long form.
};

// Every acronym defined in `text`, in order; an acronym defined twice is
// reported once (its first definition). "(RL)" with no matching long form
// before it gives nothing.
std::vector<Acronym> FindAcronyms(absl::string_view text);

// As FindAcronyms(), on a text already stripped with StripMarkup().
std::vector<Acronym> FindAcronyms(const PlainText& plain);

namespace internal {

// Schwartz & Hearst's findBestLongForm: the offset in `candidate` where the
// long form for `short_form` starts, or npos. Every letter and digit of
// `short_form` must match a character of `candidate`, right to left, case
// insensitively, and its first one must match at the start of a word. With
// `capitals_start_words`, each capital of a short form that mixes cases
// must also match at the start of a word or hyphen part ("ToT" is "Tree of
// Thoughts", not the letters T, o, t of "Thoughts").
size_t BestLongFormStart(absl::string_view short_form,
                         absl::string_view candidate,
                         bool capitals_start_words = false);

}  // namespace internal
}  // namespace paperdb::extract

#endif  // PAPERDB_EXTRACT_ACRONYMS_H_
