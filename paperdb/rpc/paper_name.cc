#include "paperdb/rpc/paper_name.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/error_details.h"
#include "paperdb/text/utf8.h"

namespace paperdb::rpc {

namespace {

absl::StatusOr<std::string> ParseName(absl::string_view name) {
  if (name.size() > kMaxNameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("name of ", name.size(),
                     " bytes is longer than the limit of ", kMaxNameBytes));
  }
  absl::string_view id = name;
  // A whole name copied in upper case ("PAPERS/ICLR2024-...") names the
  // same paper, as does its id alone.
  if (absl::StartsWithIgnoreCase(id, "papers/")) id.remove_prefix(7);
  if (name.empty()) {
    return absl::InvalidArgumentError("name is required, as \"papers/{id}\"");
  }
  if (id.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "name '", name, "' has no paper id: expected \"papers/{id}\""));
  }
  if (text::FindInvalidUtf8(name).has_value() ||
      text::ContainsControlCharacter(name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "name '", absl::CHexEscape(name),
        "' is malformed: it holds a control character or invalid UTF-8"));
  }
  if (absl::StrContains(id, '/')) {
    return absl::InvalidArgumentError(absl::StrCat(
        "name '", name, "' is malformed: expected \"papers/{id}\""));
  }
  // Ids are lower case (ingest_service/paper_builder.h): an id copied in
  // upper case names the same paper.
  return absl::AsciiStrToLower(id);
}

}  // namespace

absl::StatusOr<std::string> PaperIdFromName(absl::string_view name) {
  absl::StatusOr<std::string> id = ParseName(name);
  if (!id.ok()) return WithField(id.status(), "name");
  return id;
}

}  // namespace paperdb::rpc
