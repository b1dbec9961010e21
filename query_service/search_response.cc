#include "query_service/search_response.h"

#include "absl/strings/str_cat.h"
#include "paperdb/semantic/concept_lexicon.h"

namespace paperdb::query {

v1::QueryRewrite::Kind RewriteKind(search::QueryRewrite::Kind kind) {
  switch (kind) {
    case search::QueryRewrite::Kind::kSpelling:
      return v1::QueryRewrite::KIND_SPELLING_CORRECTION;
    case search::QueryRewrite::Kind::kAcronym:
      return v1::QueryRewrite::KIND_ACRONYM_EXPANSION;
    case search::QueryRewrite::Kind::kPrefix:
      return v1::QueryRewrite::KIND_PREFIX_EXPANSION;
    case search::QueryRewrite::Kind::kDropped:
      return v1::QueryRewrite::KIND_TERMS_DROPPED;
    case search::QueryRewrite::Kind::kStem:
      return v1::QueryRewrite::KIND_STEM_MATCHES;
    case search::QueryRewrite::Kind::kStemOnly:
      return v1::QueryRewrite::KIND_STEM_MATCHES_ONLY;
    case search::QueryRewrite::Kind::kConcept:
      return v1::QueryRewrite::KIND_CONCEPT;
    case search::QueryRewrite::Kind::kJoined:
      return v1::QueryRewrite::KIND_JOINED_WORDS;
  }
  return v1::QueryRewrite::KIND_UNSPECIFIED;
}

void AddExplanation(const std::vector<search::TermContribution>& terms,
                    v1::SearchResult* result) {
  for (const search::TermContribution& t : terms) {
    v1::TermScore* score = result->add_explanation();
    score->set_term(semantic::IsConceptTerm(t.term)
                        ? absl::StrCat("concept:", t.term.substr(1))
                        : t.term);
    score->set_score(t.score);
    score->set_term_frequency(t.tf);
    score->set_document_frequency(t.df);
    score->set_idf(t.idf);
    score->set_document_length(t.doc_length);
    score->set_stem_only(t.stem_only);
    score->set_outscored(t.outscored);
  }
}

v1::MatchSource MatchSourceOf(
    const std::vector<search::TermContribution>& terms) {
  bool words = false, concepts = false;
  for (const search::TermContribution& t : terms) {
    (semantic::IsConceptTerm(t.term) ? concepts : words) = true;
  }
  return words && concepts ? v1::MATCH_SOURCE_WORDS_AND_CONCEPTS
         : concepts        ? v1::MATCH_SOURCE_CONCEPTS
                           : v1::MATCH_SOURCE_WORDS;
}

}  // namespace paperdb::query
