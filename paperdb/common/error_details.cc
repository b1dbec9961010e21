#include "paperdb/common/error_details.h"

#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/types/optional.h"

namespace paperdb {
namespace {

constexpr absl::string_view kFieldKey = "paperdb.dev/field";
constexpr absl::string_view kReasonKey = "paperdb.dev/reason";
constexpr absl::string_view kMetadataPrefix = "paperdb.dev/metadata/";

std::string Payload(const absl::Status& status, absl::string_view key) {
  absl::optional<absl::Cord> value = status.GetPayload(key);
  return value ? std::string(*value) : std::string();
}

}  // namespace

absl::Status WithField(absl::Status status, absl::string_view field) {
  status.SetPayload(kFieldKey, absl::Cord(field));
  return status;
}

absl::Status WithReason(
    absl::Status status, absl::string_view reason,
    std::initializer_list<std::pair<absl::string_view, std::string>> metadata) {
  status.SetPayload(kReasonKey, absl::Cord(reason));
  for (const auto& [key, value] : metadata) {
    status.SetPayload(absl::StrCat(kMetadataPrefix, key), absl::Cord(value));
  }
  return status;
}

std::string FieldOf(const absl::Status& status) {
  return Payload(status, kFieldKey);
}

std::string ReasonOf(const absl::Status& status) {
  return Payload(status, kReasonKey);
}

std::vector<std::pair<std::string, std::string>> MetadataOf(
    const absl::Status& status) {
  std::vector<std::pair<std::string, std::string>> metadata;
  status.ForEachPayload([&](absl::string_view key, const absl::Cord& value) {
    if (absl::StartsWith(key, kMetadataPrefix)) {
      metadata.emplace_back(key.substr(kMetadataPrefix.size()),
                            std::string(value));
    }
  });
  return metadata;
}

}  // namespace paperdb
