// The parts of a SearchPapers response made from the searcher's output:
// rewrites, explanations and match sources as the API names them.

#ifndef PAPERDB_QUERY_SERVICE_SEARCH_RESPONSE_H_
#define PAPERDB_QUERY_SERVICE_SEARCH_RESPONSE_H_

#include <vector>

#include "paperdb/search/doc_iterator.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/search/searcher.h"
#include "paperdb/v1/query_service.pb.h"

namespace paperdb::query {

// Which side found a result, from its explanation: concept terms, word
// terms or both.
v1::MatchSource MatchSourceOf(
    const std::vector<search::TermContribution>& terms);

// The API's kind of a rewrite.
v1::QueryRewrite::Kind RewriteKind(search::QueryRewrite::Kind kind);

// Appends `terms` to result->explanation, a concept term named
// "concept:<id>".
void AddExplanation(const std::vector<search::TermContribution>& terms,
                    v1::SearchResult* result);

}  // namespace paperdb::query

#endif  // PAPERDB_QUERY_SERVICE_SEARCH_RESPONSE_H_
