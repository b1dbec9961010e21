// The request frame of a query written as a request for papers: "papers
// on", "show me work about", "find", "I need articles on" before the topic,
// "papers" after it ("federated learning papers"). Its words name the
// request, not the topic: a paper about federated learning is a full match
// for "paper on federated learning" without the word "paper".
//
// Thread safety: a pure function.

#ifndef PAPERDB_SEARCH_REQUEST_FRAME_H_
#define PAPERDB_SEARCH_REQUEST_FRAME_H_

#include <string>
#include <vector>

#include "paperdb/search/query.h"

namespace paperdb::search {

// Removes from `root`, a conjunction of the query's top level, the leading
// run of bare words that are all function or request words
// (text/stopwords.h) and hold an asking verb or a publication ("find",
// "show", "papers", "studies"; not "search" or "work" alone: "search
// engines", "work stealing"), and a trailing bare word
// naming publications ("papers", "articles", "literature"); only when a
// word, phrase or concept the run does not hold is left to search. Returns
// the removed words in query order, as runs of adjacent words (the
// leading run, the trailing word), each run's nodes as they were; empty if
// `root` is not a conjunction or nothing is removed.
std::vector<std::vector<QueryNode>> DropRequestFrame(QueryNode* root);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_REQUEST_FRAME_H_
