// The any-term fallback of a conjunction: the query a search falls back to
// when no paper matches all of it, and whose matches follow a few full
// matches (searcher.h).

#ifndef PAPERDB_SEARCH_ANY_TERMS_QUERY_H_
#define PAPERDB_SEARCH_ANY_TERMS_QUERY_H_

#include "paperdb/search/query.h"

namespace paperdb::search {

// The fallback of a conjunction `root` that matched nothing: any of its
// scored children, with its filters and exclusions still required. Returns
// false if there is nothing to fall back to (fewer than two scored words or
// phrases).
bool AnyTermsQuery(const QueryNode& root, QueryNode* out);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_ANY_TERMS_QUERY_H_
