// Building query trees (query.h) as the parser reads them: siblings
// deduplicated, nested nodes flattened, single-child nodes simplified.
// Internal to the query parser.

#ifndef PAPERDB_SEARCH_QUERY_TREE_H_
#define PAPERDB_SEARCH_QUERY_TREE_H_

#include "paperdb/search/query.h"

namespace paperdb::search::internal {

// Whether `a` and `b` are the same node: same kind, terms, field, slop,
// exclusion and children.
bool SameNode(const QueryNode& a, const QueryNode& b);

// Adds `child` to the kAnd or kOr `parent` unless it repeats a sibling;
// nested nodes of the same kind are flattened.
void AddChild(QueryNode child, QueryNode* parent);

// A kAnd or kOr with one child that is not excluded is that child.
QueryNode Simplify(QueryNode node);

// A node that matches nothing and is dropped by its parent.
QueryNode EmptyNode();

}  // namespace paperdb::search::internal

#endif  // PAPERDB_SEARCH_QUERY_TREE_H_
