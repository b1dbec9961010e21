// The semantic side of a search (paperdb/semantic/concept_lexicon.h): the
// concepts a query names, searched as concept terms, in the papers that
// name them in any of the thesaurus' words.
//
// Beside the words (SEMANTIC_MODE_ON), a run of a conjunction's words that
// names a concept ("brain scans") becomes a dismax of the words and the
// concept's term, the concept scored kConceptWeight times its BM25: the
// score is BM25 over the words plus that weight times BM25 over the
// concepts matched instead of them (a convex combination per concept),
// and a paper writing "fMRI" can match where one writing "brain scans"
// does. Alone (SEMANTIC_MODE_ONLY), the concepts are the whole query.

#ifndef PAPERDB_SEARCH_SEMANTIC_QUERY_H_
#define PAPERDB_SEARCH_SEMANTIC_QUERY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "paperdb/search/query.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/storage/store.h"

namespace paperdb::search {

// A concept's weight against its words' (the words weigh one concept,
// searcher.h): 1, a concept counting as much as the words naming it. On
// the tuning split's 51 paraphrases, 0.5 gave 0.838 nDCG@10, 1.0 0.873,
// 1.6 0.894; a weight above 1 would rank a paper naming the concept in
// other words above one writing the query's words, and is not used.
inline constexpr double kConceptWeight = 1.0;

struct ConceptQuery {
  // An AND whose one child is the OR (summed) of the concept terms named,
  // each a kTerm; an empty AND (MatchesNothing()) if none is.
  Query query;
  std::vector<std::string> concept_ids;  // In query order, distinct.
  // The concepts' terms as analyzed: what a result is highlighted with.
  std::vector<MatchUnit> units;
};

// The concepts of ConceptLexicon::Default() named by `parsed` (a parsed
// query, before expansion): in runs of its words and phrases that are not
// excluded (an OR, a filter or an exclusion ends a run). Papers match any
// of them, or, with `require_all`, every one (SearchPapers requires all, and
// the searcher's partial matches add papers naming some).
ConceptQuery ConceptQueryOf(const Query& parsed, bool require_all = false);

// Adds the concepts named by runs of plain words (kTerm children, not
// excluded) of `query`'s top conjunction and of each conjunction or word an
// OR holds (not under an exclusion), a parsed query before expansion,
// as alternatives to those words, as described above: longest runs first,
// none overlapping; not words that spell an acronym's expansion the store
// defines (the expander's acronym rule takes those), nor, for a word the
// store defines as an acronym, concepts none of whose terms is one of its
// expansions there (the corpus's meaning of an acronym wins). Appends one
// rewrite (kConcept) per run to *rewrites, in query order, its replacements the
// concepts' first terms as the thesaurus writes them, and the concepts'
// analyzed terms to *units (for highlights). Returns the concept ids added, in
// query order. Store errors.
absl::StatusOr<std::vector<std::string>> ExpandConcepts(
    const storage::Store& store, Query* query, std::vector<MatchUnit>* units,
    std::vector<QueryRewrite>* rewrites);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_SEMANTIC_QUERY_H_
