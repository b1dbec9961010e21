// Fills the API's SearchResult for one hit: the paper, its score, highlight
// spans and snippet, with every span given in UTF-8 bytes, code points and
// UTF-16 code units.

#ifndef PAPERDB_QUERY_SERVICE_SEARCH_RESULT_BUILDER_H_
#define PAPERDB_QUERY_SERVICE_SEARCH_RESULT_BUILDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "paperdb/search/query.h"
#include "paperdb/v1/paper.pb.h"
#include "paperdb/v1/query_service.pb.h"

namespace paperdb::query {

// A method: or dataset: filter of a query: its field and NameKey().
struct NameFilter {
  std::string field;
  std::string key;
};

// The method: and dataset: filters of `node` that are not excluded.
std::vector<NameFilter> NameFiltersOf(const search::QueryNode& node);

// Fills `result` for `paper`, which matched a query with BM25 `score`;
// `units` are the query's highlightable terms and phrases
// (search::CollectMatchUnits()), and the mentions (Paper.methods,
// Paper.datasets) that `name_filters` match are highlighted too;
// `snippet_code_points` is the snippet length.
void BuildSearchResult(v1::Paper paper, double score,
                       const std::vector<search::MatchUnit>& units,
                       const std::vector<NameFilter>& name_filters,
                       uint32_t snippet_code_points, v1::SearchResult* result);

}  // namespace paperdb::query

#endif  // PAPERDB_QUERY_SERVICE_SEARCH_RESULT_BUILDER_H_
