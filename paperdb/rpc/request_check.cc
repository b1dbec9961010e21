#include "paperdb/rpc/request_check.h"

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "grpc/byte_buffer_reader.h"
#include "grpc/slice.h"
#include "paperdb/common/error_details.h"
#include "paperdb/rpc/grpc_status.h"
#include "paperdb/text/utf8.h"

namespace paperdb::rpc {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

// Nested messages checked at most this deep (protobuf's default recursion
// limit is 100; paperdb's requests nest two levels).
constexpr int kMaxDepth = 32;

class WireChecker {
 public:
  explicit WireChecker(absl::string_view bytes) : bytes_(bytes) {}

  // Checks bytes_[begin, end) as a `type`, whose path in the request is
  // `path` ("" at the top).
  absl::Status Check(const Descriptor& type, const std::string& path,
                     size_t begin, size_t end, int depth) {
    if (depth > kMaxDepth) {
      problem_byte = begin;
      return Invalid(absl::StrCat("nests messages deeper than ", kMaxDepth,
                                  " levels at byte ", begin));
    }
    size_t at = begin;
    while (at < end) {
      const size_t tag_at = at;
      uint64_t tag;
      if (!ReadVarint(&at, end, &tag) || (tag >> 3) == 0 ||
          (tag >> 3) > 0x1FFFFFFF) {
        problem_byte = tag_at;
        return Invalid(absl::StrCat("has a malformed field tag at byte ",
                                    tag_at, " (truncated, or not a ",
                                    type_name_, ")"));
      }
      const uint32_t number = static_cast<uint32_t>(tag >> 3);
      const FieldDescriptor* field = type.FindFieldByNumber(number);
      const std::string name =
          field == nullptr
              ? absl::StrCat(path, path.empty() ? "" : ".", "field ", number)
              : absl::StrCat(path, path.empty() ? "" : ".", field->name());
      uint64_t skip = 0;
      switch (tag & 7) {
        case 0: {  // varint
          uint64_t value;
          if (!ReadVarint(&at, end, &value)) return Truncated(name, tag_at);
          continue;
        }
        case 1:
          skip = 8;
          break;
        case 5:
          skip = 4;
          break;
        case 2: {  // length-delimited
          uint64_t length;
          if (!ReadVarint(&at, end, &length) || length > end - at) {
            return Truncated(name, tag_at);
          }
          const size_t value_end = at + static_cast<size_t>(length);
          if (field != nullptr && !field->is_packed()) {
            if (field->type() == FieldDescriptor::TYPE_STRING) {
              const absl::string_view value = bytes_.substr(at, length);
              if (const std::optional<size_t> bad =
                      text::FindInvalidUtf8(value)) {
                const size_t valid = *bad;
                problem_field = name;
                problem_byte = at + valid;
                return Invalid(absl::StrFormat(
                    "%s (field %d) is not valid UTF-8: byte 0x%02X at byte "
                    "%d of the request",
                    name, number, static_cast<unsigned char>(value[valid]),
                    at + valid));
              }
            } else if (field->type() == FieldDescriptor::TYPE_MESSAGE) {
              if (absl::Status s = Check(*field->message_type(), name, at,
                                         value_end, depth + 1);
                  !s.ok()) {
                return s;
              }
            }
          }
          at = value_end;
          continue;
        }
        default:  // Groups (3, 4) and 6, 7: not in paperdb's messages.
          problem_field = name;
          problem_byte = tag_at;
          return Invalid(absl::StrCat(name, " at byte ", tag_at,
                                      " has wire type ", tag & 7,
                                      ", which no paperdb request uses"));
      }
      if (skip > end - at) return Truncated(name, tag_at);
      at += static_cast<size_t>(skip);
    }
    return absl::OkStatus();
  }

  void set_type_name(std::string name) { type_name_ = std::move(name); }

 private:
  bool ReadVarint(size_t* at, size_t end, uint64_t* value) const {
    *value = 0;
    for (int shift = 0; shift < 64 && *at < end; shift += 7) {
      const auto byte = static_cast<unsigned char>(bytes_[(*at)++]);
      *value |= static_cast<uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return false;
  }
  absl::Status Truncated(const std::string& field, size_t tag_at) {
    problem_field = field;
    problem_byte = tag_at;
    return Invalid(absl::StrCat(field, " at byte ", tag_at,
                                " runs past the end of the request (",
                                bytes_.size(), " bytes): truncated?"));
  }
  absl::Status Invalid(absl::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("request is not a valid ", type_name_, ": ", what));
  }

 public:
  // The field and byte of the last problem found, for error details.
  std::string problem_field;
  size_t problem_byte = 0;

 private:
  absl::string_view bytes_;
  std::string type_name_;
};

}  // namespace

absl::Status CheckRequestBytes(const Descriptor& type,
                               absl::string_view bytes) {
  WireChecker checker(bytes);
  checker.set_type_name(type.name());
  absl::Status status = checker.Check(type, "", 0, bytes.size(), 0);
  if (status.ok()) return status;
  status = WithReason(std::move(status), "MALFORMED_REQUEST",
                      {{"byte", absl::StrCat(checker.problem_byte)}});
  if (!checker.problem_field.empty()) {
    status = WithField(std::move(status), checker.problem_field);
  }
  return status;
}

grpc::Status ParseCheckedRequest(grpc_byte_buffer* request,
                                 google::protobuf::Message* message) {
  // No payload: the client went away (or its deadline passed) before
  // sending the request. gRPC's own handlers answer "No payload" too, which
  // the metrics count as the client saw it (metrics.h).
  if (request == nullptr) {
    return grpc::Status(grpc::StatusCode::INTERNAL, "No payload");
  }
  grpc_byte_buffer_reader reader;
  if (!grpc_byte_buffer_reader_init(&reader, request)) {
    grpc_byte_buffer_destroy(request);
    return ToGrpcStatus(WithReason(
        absl::InvalidArgumentError(absl::StrCat(
            "request is not a readable ", message->GetDescriptor()->name(),
            " (compressed in a way this server cannot read?)")),
        "MALFORMED_REQUEST", {}));
  }
  grpc_slice slice = grpc_byte_buffer_reader_readall(&reader);
  grpc_byte_buffer_reader_destroy(&reader);
  grpc_byte_buffer_destroy(request);  // Ours to free, as gRPC's own do.
  request = nullptr;
  const std::string bytes(
      reinterpret_cast<const char*>(GRPC_SLICE_START_PTR(slice)),
      GRPC_SLICE_LENGTH(slice));
  grpc_slice_unref(slice);
  if (const absl::Status checked =
          CheckRequestBytes(*message->GetDescriptor(), bytes);
      !checked.ok()) {
    return ToGrpcStatus(checked);
  }
  if (!message->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return ToGrpcStatus(WithReason(
        absl::InvalidArgumentError(absl::StrCat(
            "request is not a valid ", message->GetDescriptor()->name(), " (",
            bytes.size(), " bytes)")),
        "MALFORMED_REQUEST", {}));
  }
  return grpc::Status::OK;
}

}  // namespace paperdb::rpc
