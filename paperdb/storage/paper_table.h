// PaperTable: typed access to the stored paper records, source files and
// corpus statistics.
//
// Thread safety: const methods may run concurrently (they only read the
// Store). Holds a pointer to a Store it does not own.

#ifndef PAPERDB_STORAGE_PAPER_TABLE_H_
#define PAPERDB_STORAGE_PAPER_TABLE_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/storage/record_fields.h"
#include "paperdb/storage/store.h"
#include "paperdb/storage/v1/records.pb.h"

namespace paperdb::storage {

class PaperTable {
 public:
  // `store` must outlive this object.
  explicit PaperTable(const Store* store) : store_(store) {}

  // The internal doc id of external paper id `paper_id`. NOT_FOUND if no
  // such paper is stored.
  absl::StatusOr<uint32_t> FindDocId(absl::string_view paper_id) const;

  // The record of `doc_id`, only `fields` of it parsed (ParseRecordFields()).
  // NOT_FOUND if absent; DATA_LOSS if it does not parse.
  absl::StatusOr<v1::PaperRecord> Get(uint32_t doc_id,
                                      const RecordFields& fields = {}) const;

  // The records of `doc_ids`, in order, read in one batch (a page of
  // results), only `fields` of each parsed. Errors as Get(), for the first
  // doc id that fails.
  absl::StatusOr<std::vector<v1::PaperRecord>> GetMany(
      const std::vector<uint32_t>& doc_ids,
      const RecordFields& fields = {}) const;

  // Up to `limit` records with doc id >= `start_doc`, in doc id order, only
  // `fields` of each parsed.
  absl::StatusOr<std::vector<std::pair<uint32_t, v1::PaperRecord>>> List(
      uint32_t start_doc, size_t limit, const RecordFields& fields = {}) const;

  // The record of source file `file_name`. NOT_FOUND if no such file is
  // stored; DATA_LOSS if it does not parse.
  absl::StatusOr<v1::SourceRecord> GetSource(absl::string_view file_name) const;

  // Source files in file name order: up to `limit` whose names sort after
  // `after` (all, for ""). Sets `*total` to the number of files stored.
  // DATA_LOSS if a record does not parse.
  absl::StatusOr<std::vector<paperdb::v1::SourceFile>> ListSources(
      absl::string_view after, size_t limit, size_t* total) const;

  // The stored corpus statistics; all zero for an empty store. DATA_LOSS if
  // they do not parse.
  absl::StatusOr<v1::CorpusStats> Stats() const;

 private:
  const Store* store_;  // Not owned.
};

}  // namespace paperdb::storage

#endif  // PAPERDB_STORAGE_PAPER_TABLE_H_
