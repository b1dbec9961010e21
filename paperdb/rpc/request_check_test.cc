#include "paperdb/rpc/request_check.h"

#include <string>

#include "gmock/gmock.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpc/byte_buffer.h"
#include "grpc/slice.h"
#include "gtest/gtest.h"
#include "paperdb/v1/query_service.pb.h"

namespace paperdb::rpc {
namespace {

using ::testing::HasSubstr;

grpc::Status Parse(const std::string& bytes,
                   google::protobuf::Message* message) {
  grpc_slice slice = grpc_slice_from_copied_buffer(bytes.data(), bytes.size());
  grpc_byte_buffer* buffer = grpc_raw_byte_buffer_create(&slice, 1);
  grpc_slice_unref(slice);
  return ParseCheckedRequest(buffer, message);  // Frees `buffer`.
}

TEST(RequestCheckTest, AWellFormedRequestParses) {
  v1::SearchPapersRequest request;
  request.set_query("caf\xC3\xA9");
  request.set_page_size(3);
  v1::SearchPapersRequest parsed;
  EXPECT_TRUE(Parse(request.SerializeAsString(), &parsed).ok());
  EXPECT_EQ(parsed.query(), "caf\xC3\xA9");
  EXPECT_EQ(parsed.page_size(), 3);
}

TEST(RequestCheckTest, InvalidUtf8NamesTheFieldAndByteWithDetails) {
  v1::SearchPapersRequest parsed;
  const grpc::Status status =
      Parse(std::string("\x10\x05\x0a\x02z\xC0", 6), &parsed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(),
            "request is not a valid SearchPapersRequest: query (field 1) is "
            "not valid UTF-8: byte 0xC0 at byte 5 of the request");
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(status.error_details()));
  ASSERT_GE(details.details_size(), 2);
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(details.details(0).UnpackTo(&info));
  EXPECT_EQ(info.reason(), "MALFORMED_REQUEST");
  EXPECT_EQ(info.metadata().at("byte"), "5");
  google::rpc::BadRequest bad;
  ASSERT_TRUE(details.details(1).UnpackTo(&bad));
  EXPECT_EQ(bad.field_violations(0).field(), "query");
}

TEST(RequestCheckTest, NestedStringsAreChecked) {
  // read_mask (field 10 of SearchPapersRequest? checked by name below) is
  // a FieldMask whose paths are strings.
  const google::protobuf::FieldDescriptor* mask =
      v1::SearchPapersRequest::descriptor()->FindFieldByName("read_mask");
  ASSERT_NE(mask, nullptr);
  std::string bytes;
  bytes.push_back(static_cast<char>((mask->number() << 3) | 2));
  bytes += std::string("\x03\x0a\x01\xFF", 4);
  v1::SearchPapersRequest parsed;
  const grpc::Status status = Parse(bytes, &parsed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(),
              HasSubstr("read_mask.paths (field 1) is not valid UTF-8"));
}

TEST(RequestCheckTest, ATruncatedLengthIsNamed) {
  v1::SearchPapersRequest parsed;
  const grpc::Status status = Parse(std::string("\x0a\x7f"
                                                "ab",
                                                4),
                                    &parsed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(),
              HasSubstr("query at byte 0 runs past the end of the request"));
}

}  // namespace
}  // namespace paperdb::rpc
