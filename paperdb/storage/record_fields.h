// Reading part of a stored paper record: a read_mask that asks for a few
// fields of a Paper (a results page's name, venue and year) parses only
// those, and the rest of the record's bytes are skipped unparsed.

#ifndef PAPERDB_STORAGE_RECORD_FIELDS_H_
#define PAPERDB_STORAGE_RECORD_FIELDS_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "paperdb/storage/v1/records.pb.h"

namespace paperdb::storage {

// The parts of a PaperRecord a reader needs.
struct RecordFields {
  bool all = true;  // The whole record; the fields below are then unused.
  // Field numbers of paperdb.v1.Paper to parse (any order, repeats allowed).
  std::vector<int> paper_fields;
  bool token_spans = false;  // PaperRecord.token_spans.
};

// Parses the serialized PaperRecord `bytes` into `*record` (cleared first):
// all of it for `fields.all`, else doc_length_terms, the Paper fields named
// by `fields.paper_fields` and, if asked, token_spans. A field not asked
// for is skipped at the wire level (its bytes are neither copied nor
// parsed). DATA_LOSS if the bytes, or a field asked for, do not parse.
absl::Status ParseRecordFields(absl::string_view bytes,
                               const RecordFields& fields,
                               v1::PaperRecord* record);

}  // namespace paperdb::storage

#endif  // PAPERDB_STORAGE_RECORD_FIELDS_H_
