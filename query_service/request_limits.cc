#include "query_service/request_limits.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/error_details.h"

namespace paperdb::query {

absl::StatusOr<int> PageSize(int requested, int default_size, int max_size) {
  if (requested < 0) {
    return WithField(absl::InvalidArgumentError(absl::StrCat(
                         "page_size must not be negative, got ", requested)),
                     "page_size");
  }
  if (requested == 0) return default_size;
  return std::min(requested, max_size);
}

}  // namespace paperdb::query
