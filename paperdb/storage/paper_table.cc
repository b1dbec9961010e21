#include "paperdb/storage/paper_table.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/storage/keys.h"
#include "paperdb/storage/record_fields.h"

namespace paperdb::storage {

absl::StatusOr<uint32_t> PaperTable::FindDocId(
    absl::string_view paper_id) const {
  absl::StatusOr<std::string> key = store_->Get(Column::kPaperIds, paper_id);
  if (absl::IsNotFound(key.status())) {
    return absl::NotFoundError(absl::StrCat("paper ", paper_id, " not found"));
  }
  if (!key.ok()) return key.status();
  return DocIdFromPaperKey(*key);
}

absl::StatusOr<v1::PaperRecord> PaperTable::Get(
    uint32_t doc_id, const RecordFields& fields) const {
  absl::StatusOr<std::string> value =
      store_->Get(Column::kPapers, PaperKey(doc_id));
  if (!value.ok()) return value.status();
  v1::PaperRecord record;
  if (!ParseRecordFields(*value, fields, &record).ok()) {
    return absl::DataLossError(
        absl::StrCat("paper record ", doc_id, " does not parse"));
  }
  return record;
}

absl::StatusOr<std::vector<v1::PaperRecord>> PaperTable::GetMany(
    const std::vector<uint32_t>& doc_ids, const RecordFields& fields) const {
  std::vector<std::string> keys;
  keys.reserve(doc_ids.size());
  for (const uint32_t doc_id : doc_ids) keys.push_back(PaperKey(doc_id));
  std::vector<v1::PaperRecord> records(doc_ids.size());
  PAPERDB_RETURN_IF_ERROR(store_->MultiGet(
      Column::kPapers, keys, [&](size_t i, absl::string_view value) {
        if (!ParseRecordFields(value, fields, &records[i]).ok()) {
          return absl::DataLossError(
              absl::StrCat("paper record ", doc_ids[i], " does not parse"));
        }
        return absl::OkStatus();
      }));
  return records;
}

absl::StatusOr<std::vector<std::pair<uint32_t, v1::PaperRecord>>>
PaperTable::List(uint32_t start_doc, size_t limit,
                 const RecordFields& fields) const {
  std::vector<std::pair<uint32_t, v1::PaperRecord>> out;
  std::unique_ptr<StoreIterator> it = store_->NewIterator(Column::kPapers);
  for (it->Seek(PaperKey(start_doc)); it->Valid() && out.size() < limit;
       it->Next()) {
    PAPERDB_ASSIGN_OR_RETURN(const uint32_t doc_id,
                             DocIdFromPaperKey(it->key()));
    v1::PaperRecord record;
    if (!ParseRecordFields(it->value(), fields, &record).ok()) {
      return absl::DataLossError(
          absl::StrCat("paper record ", doc_id, " does not parse"));
    }
    out.emplace_back(doc_id, std::move(record));
  }
  PAPERDB_RETURN_IF_ERROR(it->status());
  return out;
}

absl::StatusOr<v1::SourceRecord> PaperTable::GetSource(
    absl::string_view file_name) const {
  absl::StatusOr<std::string> value = store_->Get(Column::kSources, file_name);
  if (absl::IsNotFound(value.status())) {
    return absl::NotFoundError(
        absl::StrCat("file \"", absl::CHexEscape(file_name), "\" not found"));
  }
  if (!value.ok()) return value.status();
  v1::SourceRecord record;
  if (!record.ParseFromString(*value)) {
    return absl::DataLossError(absl::StrCat(
        "source record \"", absl::CHexEscape(file_name), "\" does not parse"));
  }
  return record;
}

absl::StatusOr<std::vector<paperdb::v1::SourceFile>> PaperTable::ListSources(
    absl::string_view after, size_t limit, size_t* total) const {
  std::vector<paperdb::v1::SourceFile> out;
  size_t seen = 0;
  std::unique_ptr<StoreIterator> it = store_->NewIterator(Column::kSources);
  for (it->Seek(""); it->Valid(); it->Next(), ++seen) {
    if ((!after.empty() && it->key() <= after) || out.size() >= limit) {
      continue;
    }
    v1::SourceRecord record;
    if (!record.ParseFromArray(it->value().data(),
                               static_cast<int>(it->value().size()))) {
      return absl::DataLossError(absl::StrCat("source record \"",
                                              absl::CHexEscape(it->key()),
                                              "\" does not parse"));
    }
    out.push_back(std::move(*record.mutable_source()));
  }
  PAPERDB_RETURN_IF_ERROR(it->status());
  *total = seen;
  return out;
}

absl::StatusOr<v1::CorpusStats> PaperTable::Stats() const {
  absl::StatusOr<std::string> value = store_->Get(Column::kMeta, kStatsKey);
  v1::CorpusStats stats;
  if (absl::IsNotFound(value.status())) return stats;
  if (!value.ok()) return value.status();
  if (!stats.ParseFromString(*value)) {
    return absl::DataLossError("corpus statistics do not parse");
  }
  return stats;
}

}  // namespace paperdb::storage
