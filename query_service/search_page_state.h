// The state a SearchPapers page token carries (paperdb.storage.v1.
// SearchPageState): the keyset cursor after which the next page starts, the
// ScoringPin its first page matched and scored with, and the query it
// searched after expansion. Tokens hold no server state, so they do not
// expire and work on any replica of the store.

#ifndef PAPERDB_QUERY_SERVICE_SEARCH_PAGE_STATE_H_
#define PAPERDB_QUERY_SERVICE_SEARCH_PAGE_STATE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/search/query.h"
#include "paperdb/search/searcher.h"

namespace paperdb::query {

// At most this many document frequencies are pinned in a token (the
// rarest, whose idf moves most as the store changes); a query reading more
// terms (several wide prefixes) scores the rest with their current ones.
inline constexpr size_t kMaxPinnedTerms = 1024;
// The expanded query is pinned if its state takes at most this many bytes;
// a larger one is expanded again on each page.
inline constexpr size_t kMaxPinnedQueryBytes = 32 << 10;

struct SearchPageState {
  search::ResultKey after;  // The last result of the previous page.
  search::ScoringPin pin;   // What the first page scored with.
  uint64_t first_total_size = 0;
  bool first_total_size_estimated = false;
  // The query the first page searched, expanded; none if too large.
  std::optional<search::QueryNode> query;
};

// The token state of `state`, serialized.
std::string EncodeSearchPageState(const SearchPageState& state);

// The state serialized in `bytes`. INVALID_ARGUMENT naming page_token (reason
// INVALID_PAGE_TOKEN) if they are not one EncodeSearchPageState() made.
absl::StatusOr<SearchPageState> DecodeSearchPageState(absl::string_view bytes);

}  // namespace paperdb::query

#endif  // PAPERDB_QUERY_SERVICE_SEARCH_PAGE_STATE_H_
