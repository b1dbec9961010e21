#include "paperdb/rpc/grpc_status.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "paperdb/common/error_details.h"
#include "paperdb/text/utf8.h"

namespace paperdb::rpc {
namespace {

std::string BoundedMessage(absl::string_view message) {
  if (message.size() <= kMaxErrorMessageBytes) return std::string(message);
  return absl::StrCat(text::Utf8Prefix(message, kMaxErrorMessageBytes), "...");
}

}  // namespace

grpc::Status ToGrpcStatus(const absl::Status& status) {
  static_assert(static_cast<int>(absl::StatusCode::kNotFound) ==
                static_cast<int>(grpc::StatusCode::NOT_FOUND));
  static_assert(static_cast<int>(absl::StatusCode::kUnauthenticated) ==
                static_cast<int>(grpc::StatusCode::UNAUTHENTICATED));
  if (status.ok()) return grpc::Status::OK;
  const std::string message = BoundedMessage(status.message());
  google::rpc::Status details;
  details.set_code(static_cast<int>(status.code()));
  details.set_message(message);
  google::rpc::ErrorInfo info;
  std::string reason = ReasonOf(status);
  info.set_reason(reason.empty() ? absl::StatusCodeToString(status.code())
                                 : reason);
  info.set_domain(std::string(kErrorDomain));
  for (auto& [key, value] : MetadataOf(status)) {
    (*info.mutable_metadata())[key] = value;
  }
  details.add_details()->PackFrom(info);
  if (const std::string field = FieldOf(status); !field.empty()) {
    google::rpc::BadRequest bad_request;
    google::rpc::BadRequest::FieldViolation* violation =
        bad_request.add_field_violations();
    violation->set_field(field);
    violation->set_description(message);
    details.add_details()->PackFrom(bad_request);
  }
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()), message,
                      details.SerializeAsString());
}

}  // namespace paperdb::rpc
