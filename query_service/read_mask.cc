#include "query_service/read_mask.h"

#include <algorithm>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/util/field_mask_util.h"
#include "paperdb/common/error_details.h"
#include "paperdb/text/utf8.h"

namespace paperdb::query {

bool IsFullMask(const google::protobuf::FieldMask& mask) {
  return mask.paths().empty() ||
         (mask.paths_size() == 1 && mask.paths(0) == "*");
}

std::string FieldNamesOf(const google::protobuf::Descriptor* type) {
  std::string names;
  for (int i = 0; i < type->field_count(); ++i) {
    if (i > 0) names += ", ";
    names += type->field(i)->name();
  }
  return names;
}

absl::Status CheckReadMask(const google::protobuf::Descriptor* type,
                           const google::protobuf::FieldMask& mask,
                           absl::string_view hint) {
  if (IsFullMask(mask)) return absl::OkStatus();
  for (const std::string& path : mask.paths()) {
    if (path == "*") {
      return absl::InvalidArgumentError(
          "read_mask path \"*\" (every field) must be the mask's only path");
    }
    // Empty components ("", ".", "paper..name") name no field, though
    // FieldMaskUtil accepts some of them.
    const bool empty_part = path.empty() || path.front() == '.' ||
                            path.back() == '.' || absl::StrContains(path, "..");
    if (!empty_part &&
        google::protobuf::util::FieldMaskUtil::GetFieldDescriptors(type, path,
                                                                   nullptr)) {
      continue;
    }
    // At most 100 bytes of the path (cut at a character boundary), so that
    // the error fits in the response's metadata.
    const absl::string_view quoted = text::Utf8Prefix(path, 100);
    return absl::InvalidArgumentError(absl::StrCat(
        "read_mask path \"", quoted,
        quoted.size() < path.size() ? "...\"" : "\"", " is not a field of ",
        type->name(), ", or goes on past a repeated one (fields: ",
        FieldNamesOf(type), "; ", hint, ")"));
  }
  return absl::OkStatus();
}

absl::Status CheckPaperMask(const google::protobuf::FieldMask& mask) {
  return WithField(
      CheckReadMask(v1::Paper::descriptor(), mask,
                    "a repeated field such as sources is named whole; \"*\" "
                    "alone for all; in JSON lowerCamelCase, e.g. codeUrls"),
      "read_mask");
}

storage::RecordFields PaperRecordFields(
    const google::protobuf::FieldMask& mask) {
  storage::RecordFields fields;
  if (IsFullMask(mask)) return fields;
  fields.all = false;
  for (const std::string& path : mask.paths()) {
    if (!AddPaperField(path, &fields)) return storage::RecordFields{};
  }
  return fields;
}

bool AddPaperField(absl::string_view path, storage::RecordFields* fields) {
  const google::protobuf::FieldDescriptor* field =
      v1::Paper::descriptor()->FindFieldByName(
          std::string(path.substr(0, path.find('.'))));
  if (field == nullptr) return false;
  fields->paper_fields.push_back(field->number());
  return true;
}

PaperTrimmer::PaperTrimmer(const google::protobuf::FieldMask& mask)
    : mask_(mask), all_(IsFullMask(mask)) {
  if (all_) return;
  absl::flat_hash_set<absl::string_view> named;
  for (const std::string& path : mask.paths()) {
    if (absl::StrContains(path, '.')) {
      deep_ = true;
      return;
    }
    named.insert(path);
  }
  const google::protobuf::Descriptor* paper = v1::Paper::descriptor();
  for (int i = 0; i < paper->field_count(); ++i) {
    if (!named.contains(paper->field(i)->name())) {
      clear_.push_back(paper->field(i));
    }
  }
}

void PaperTrimmer::Trim(v1::Paper* paper) const {
  if (all_) return;
  if (deep_) {
    google::protobuf::util::FieldMaskUtil::TrimMessage(mask_, paper);
    return;
  }
  const google::protobuf::Reflection* reflection = paper->GetReflection();
  for (const google::protobuf::FieldDescriptor* field : clear_) {
    reflection->ClearField(paper, field);
  }
}

}  // namespace paperdb::query
