#include "paperdb/storage/keys.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace paperdb::storage {
namespace {

void AppendBigEndian32(uint32_t value, std::string* out) {
  out->push_back(static_cast<char>(value >> 24));
  out->push_back(static_cast<char>(value >> 16));
  out->push_back(static_cast<char>(value >> 8));
  out->push_back(static_cast<char>(value));
}

uint32_t ReadBigEndian32(absl::string_view bytes) {
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) |
         (uint32_t{b[2]} << 8) | uint32_t{b[3]};
}

}  // namespace

const char* ColumnName(Column column) {
  switch (column) {
    case Column::kMeta:
      return "meta";
    case Column::kPapers:
      return "papers";
    case Column::kPaperIds:
      return "paper_ids";
    case Column::kPostings:
      return "postings";
    case Column::kTerms:
      return "terms";
    case Column::kSources:
      return "sources";
  }
  return "unknown";
}

std::string PaperKey(uint32_t doc_id) {
  std::string key;
  AppendBigEndian32(doc_id, &key);
  return key;
}

absl::StatusOr<uint32_t> DocIdFromPaperKey(absl::string_view key) {
  if (key.size() != 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("paper key has ", key.size(), " bytes, want 4"));
  }
  return ReadBigEndian32(key);
}

std::string PostingPrefix(absl::string_view term) {
  std::string prefix(term);
  prefix.push_back('\0');
  return prefix;
}

std::string PostingKey(absl::string_view term, uint32_t first_doc) {
  std::string key = PostingPrefix(term);
  AppendBigEndian32(first_doc, &key);
  return key;
}

absl::StatusOr<uint32_t> FirstDocFromPostingKey(absl::string_view key) {
  if (key.size() < 5 || key[key.size() - 5] != '\0') {
    return absl::InvalidArgumentError("malformed posting key");
  }
  return ReadBigEndian32(key.substr(key.size() - 4));
}

}  // namespace paperdb::storage
