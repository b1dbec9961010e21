// The state a ListPapers or ListSources page token carries
// (paperdb.storage.v1.ListPageState): the first page's total_size, and for
// ListSources the file name the next page starts after.

#ifndef PAPERDB_RPC_LIST_PAGE_STATE_H_
#define PAPERDB_RPC_LIST_PAGE_STATE_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/storage/v1/page_state.pb.h"

namespace paperdb::rpc {

// The state serialized in `bytes` (empty bytes: a default state, as tokens
// without state carry). INVALID_ARGUMENT naming page_token (reason
// INVALID_PAGE_TOKEN) if they do not parse.
absl::StatusOr<storage::v1::ListPageState> DecodeListPageState(
    absl::string_view bytes);

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_LIST_PAGE_STATE_H_
