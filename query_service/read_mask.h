// read_mask (AIP-157 partial responses): checking a FieldMask against the
// message it trims, and trimming Papers (GetPaper, BatchGetPapers,
// ListPapers) from a plan made once per request.

#ifndef PAPERDB_QUERY_SERVICE_READ_MASK_H_
#define PAPERDB_QUERY_SERVICE_READ_MASK_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/field_mask.pb.h"
#include "paperdb/storage/record_fields.h"
#include "paperdb/v1/paper.pb.h"

namespace paperdb::query {

// No paths, or "*" alone: every field.
bool IsFullMask(const google::protobuf::FieldMask& mask);

// The field names of `type`, in declaration order, comma separated.
std::string FieldNamesOf(const google::protobuf::Descriptor* type);

// OK if every path of `mask` names a field of `type` (a path may go into a
// singular message field: "paper.venue"), or the mask is "*" alone.
// INVALID_ARGUMENT for "*" beside other paths, or naming (up to 100 bytes
// of) the first path that is empty, has an empty component or names no
// field (or goes on past a repeated one): `read_mask path "x" is not a
// field of Paper, ... (fields: name, ...; <hint>)`.
absl::Status CheckReadMask(const google::protobuf::Descriptor* type,
                           const google::protobuf::FieldMask& mask,
                           absl::string_view hint);

// Clears the fields of Papers that a read_mask does not name.
class PaperTrimmer {
 public:
  // REQUIRES: CheckReadMask(Paper, mask) is OK. `mask` must outlive the
  // trimmer.
  explicit PaperTrimmer(const google::protobuf::FieldMask& mask);

  // Clears every field of `paper` the mask does not name; a no-op for a
  // mask of every field.
  void Trim(v1::Paper* paper) const;

 private:
  const google::protobuf::FieldMask& mask_;
  bool all_ = true;    // No mask, or "*".
  bool deep_ = false;  // A path under a field: FieldMaskUtil::TrimMessage().
  std::vector<const google::protobuf::FieldDescriptor*> clear_;
};

// The parts of a stored record a read_mask of Paper fields reads: the
// fields it names (a path under a field reads that field whole); all of it
// for a full mask. REQUIRES: CheckReadMask(Paper, mask) is OK.
storage::RecordFields PaperRecordFields(
    const google::protobuf::FieldMask& mask);

// Adds to `fields` the Paper field a path relative to Paper starts with
// ("title", "sources.file": sources). False if Paper has no such field.
bool AddPaperField(absl::string_view path, storage::RecordFields* fields);

// CheckReadMask() of a request's read_mask on Paper, with the hint for
// Paper's paths. Errors carry field "read_mask".
absl::Status CheckPaperMask(const google::protobuf::FieldMask& mask);

}  // namespace paperdb::query

#endif  // PAPERDB_QUERY_SERVICE_READ_MASK_H_
