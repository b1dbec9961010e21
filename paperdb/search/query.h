// The parsed form of a search query (see query_parser.h for the syntax).

#ifndef PAPERDB_SEARCH_QUERY_H_
#define PAPERDB_SEARCH_QUERY_H_

#include <cstdint>
#include <string>
#include <vector>

namespace paperdb::search {

// One clause: a term or a phrase, required or excluded.
struct QueryClause {
  enum class Kind { kTerm, kPhrase };
  Kind kind = Kind::kTerm;
  // Analyzed terms (analyzer.h): one for a kTerm; consecutive terms, in
  // order, for a kPhrase (stopwords included, since phrases match exactly).
  std::vector<std::string> terms;
  // The paper must not match the clause.
  bool excluded = false;
  // Code point offset of the clause in the query text (for error messages).
  uint32_t position = 0;
};

// Every non-excluded clause must match (implicit AND).
struct Query {
  std::vector<QueryClause> clauses;

  // True if no clause is required (empty, only stopwords, or only
  // exclusions): such a query matches nothing.
  bool MatchesNothing() const {
    for (const QueryClause& c : clauses) {
      if (!c.excluded) return false;
    }
    return true;
  }
};

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_QUERY_H_
