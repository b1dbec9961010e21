// gMock matchers for absl::Status and absl::StatusOr<T>. Debian's Abseil
// (20220623) ships none, so paperdb keeps its own.

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

// Matches a status with code `code` whose message matches `message_matcher`,
// e.g. StatusIs(absl::StatusCode::kNotFound, HasSubstr("paper p1")).
MATCHER_P2(StatusIs, code, message_matcher,
           "has code " + absl::StatusCodeToString(code) +
               " and a message that " +
               ::testing::DescribeMatcher<std::string>(message_matcher)) {
  const absl::Status& status = GetStatus(arg);
  *result_listener << "status is " << status;
  return status.code() == code &&
         ::testing::Matches(message_matcher)(std::string(status.message()));
}

}  // namespace paperdb::testing

#endif  // PAPERDB_TESTS_TESTING_STATUS_MATCHERS_H_
