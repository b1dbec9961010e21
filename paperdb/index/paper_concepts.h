// The concepts of the thesaurus (semantic/concept_lexicon.h) an abstract
// names, as indexing records them: ConceptLexicon::MatchTokens(), with the
// abstract's own acronym definitions deciding what its acronyms mean. An
// abstract that defines "binary neural networks (BNN)" does not name the
// concept "Bayesian neural network" each time it writes "BNN": an
// acronym's mentions count for a concept only if the abstract's definition
// of it names that concept too, as the query side reads an acronym by the
// corpus's definitions (search/semantic_query.h).

#ifndef PAPERDB_INDEX_PAPER_CONCEPTS_H_
#define PAPERDB_INDEX_PAPER_CONCEPTS_H_

#include <vector>

#include "absl/types/span.h"
#include "paperdb/semantic/concept_lexicon.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/v1/paper.pb.h"

namespace paperdb::index {

// The concept mentions of `paper`'s abstract, analyzed as `tokens`, in
// position order: those of ConceptLexicon::Default().MatchTokens(), less
// each one-word mention written as an acronym the abstract defines (in
// paper.acronyms(), compared case-folded with a plural "s" dropped:
// "BNNs" is "BNN") whose concept no mention inside that definition's
// expansion span names.
std::vector<semantic::ConceptMention> PaperConcepts(
    const v1::Paper& paper, absl::Span<const text::AnalyzedToken> tokens);

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_PAPER_CONCEPTS_H_
