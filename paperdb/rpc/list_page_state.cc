#include "paperdb/rpc/list_page_state.h"

#include "absl/status/status.h"
#include "paperdb/common/error_details.h"

namespace paperdb::rpc {

absl::StatusOr<storage::v1::ListPageState> DecodeListPageState(
    absl::string_view bytes) {
  storage::v1::ListPageState state;
  if (!state.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) ||
      state.first_total_size() < 0) {
    return WithReason(
        WithField(absl::InvalidArgumentError(
                      "page_token: not a token issued by this service (its "
                      "state does not parse); start again from the first page"),
                  "page_token"),
        "INVALID_PAGE_TOKEN");
  }
  return state;
}

}  // namespace paperdb::rpc
