// Limits on QueryService request fields (AIP-158 page sizes, snippet
// length), shared by the RPCs' implementations.

#ifndef PAPERDB_QUERY_SERVICE_REQUEST_LIMITS_H_
#define PAPERDB_QUERY_SERVICE_REQUEST_LIMITS_H_

#include "absl/status/statusor.h"

namespace paperdb::query {

inline constexpr int kDefaultSearchPageSize = 10;
inline constexpr int kMaxSearchPageSize = 100;
inline constexpr int kDefaultListPageSize = 50;
inline constexpr int kMaxListPageSize = 1000;
inline constexpr int kMaxBatchGet = 1000;
inline constexpr int kDefaultSnippetCodePoints = 240;
inline constexpr int kMaxSnippetCodePoints = 4000;

// AIP-158: a negative `requested` is INVALID_ARGUMENT naming page_size, 0
// means `default_size`, above `max_size` is coerced to it.
absl::StatusOr<int> PageSize(int requested, int default_size, int max_size);

}  // namespace paperdb::query

#endif  // PAPERDB_QUERY_SERVICE_REQUEST_LIMITS_H_
