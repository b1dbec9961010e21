// gMock matchers for absl::Status and absl::StatusOr<T>. Debian's Abseil
// (20220623) ships none, so paperdb keeps these two.

#ifndef PAPERDB_TESTS_TESTING_STATUS_MATCHERS_H_
#define PAPERDB_TESTS_TESTING_STATUS_MATCHERS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"

namespace paperdb::testing {

inline const absl::Status& GetStatus(const absl::Status& status) {
  return status;
}
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

MATCHER(IsOk, "is OK") {
  const absl::Status& status = GetStatus(arg);
  *result_listener << "status is " << status;
  return status.ok();
}

MATCHER_P(StatusIs, code, "has code " + absl::StatusCodeToString(code)) {
  const absl::Status& status = GetStatus(arg);
  *result_listener << "status is " << status;
  return status.code() == code;
}

}  // namespace paperdb::testing

#endif  // PAPERDB_TESTS_TESTING_STATUS_MATCHERS_H_
