#include "paperdb/rpc/grpc_status.h"

#include <string>

#include "gmock/gmock.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"

namespace paperdb::rpc {
namespace {

TEST(GrpcStatusTest, KeepsTheCodeAndAShortMessage) {
  const grpc::Status status =
      ToGrpcStatus(absl::InvalidArgumentError("bad page_size"));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), "bad page_size");
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(status.error_details()));
  EXPECT_EQ(details.message(), "bad page_size");
}

TEST(GrpcStatusTest, CutsALongMessageAtACharacterBoundary) {
  // 1,023 ASCII bytes, then 2-byte characters: byte 1,024 is inside one.
  std::string message(1023, 'x');
  for (int i = 0; i < 1000; ++i) message += "\xC3\xA9";
  const grpc::Status status = ToGrpcStatus(absl::InvalidArgumentError(message));

  EXPECT_EQ(status.error_message(), std::string(1023, 'x') + "...");
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(status.error_details()));
  EXPECT_EQ(details.message(), status.error_message());
}

}  // namespace
}  // namespace paperdb::rpc
