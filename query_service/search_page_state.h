// The state a SearchPapers page token carries (paperdb.storage.v1.
// SearchPageState): the keyset cursor after which the next page starts, and
// the ScoringPin its first page matched and scored with. Tokens hold no
// server state, so they do not expire and work on any replica of the store.

#ifndef PAPERDB_QUERY_SERVICE_SEARCH_PAGE_STATE_H_
#define PAPERDB_QUERY_SERVICE_SEARCH_PAGE_STATE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/search/searcher.h"

namespace paperdb::query {

// At most this many document frequencies are pinned in a token (the
// rarest, whose idf moves most as the store changes); a query reading more
// terms (a wide prefix) scores the rest with their current ones.
inline constexpr size_t kMaxPinnedTerms = 256;

struct SearchPageState {
  search::ResultKey after;  // The last result of the previous page.
  search::ScoringPin pin;   // What the first page scored with.
  uint64_t first_total_size = 0;
  bool first_total_size_estimated = false;
};

// The token state of `state`, serialized.
std::string EncodeSearchPageState(const SearchPageState& state);

// The state serialized in `bytes`. INVALID_ARGUMENT naming page_token (reason
// INVALID_PAGE_TOKEN) if they are not one EncodeSearchPageState() made.
absl::StatusOr<SearchPageState> DecodeSearchPageState(absl::string_view bytes);

}  // namespace paperdb::query

#endif  // PAPERDB_QUERY_SERVICE_SEARCH_PAGE_STATE_H_
