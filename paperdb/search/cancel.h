// How a caller stops a search it no longer wants (a deadline passed, the
// client left): every long-running step of a search asks a CancelFn now and
// then and returns SearchCancelledError() once it says so.

#ifndef PAPERDB_SEARCH_CANCEL_H_
#define PAPERDB_SEARCH_CANCEL_H_

#include <functional>

#include "absl/status/status.h"

namespace paperdb::search {

// Returns true once the caller no longer wants the answer. May be empty
// (never cancelled). Called from the searching thread only.
using CancelFn = std::function<bool()>;

// Whether `cancelled` is set and says so.
inline bool IsCancelRequested(const CancelFn& cancelled) {
  return cancelled && cancelled();
}

// The status of a search stopped by its CancelFn: CANCELLED.
inline absl::Status SearchCancelledError() {
  return absl::CancelledError(
      "search cancelled (deadline passed or client left)");
}

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_CANCEL_H_
