#include "paperdb/storage/record_fields.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/wire_format_lite.h"

namespace paperdb::storage {
namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

// PaperRecord's field numbers (records.proto).
constexpr uint32_t kPaperField = 1;
constexpr uint32_t kDocLengthField = 2;
constexpr uint32_t kTokenSpansField = 3;

absl::Status NotParsed() {
  return absl::DataLossError("paper record does not parse");
}

// Appends to `*kept` the wire bytes (tag and value) of each field of the
// serialized Paper `paper` whose number is in `wanted`.
bool KeepPaperFields(absl::string_view paper, const std::vector<int>& wanted,
                     std::string* kept) {
  CodedInputStream input(reinterpret_cast<const uint8_t*>(paper.data()),
                         static_cast<int>(paper.size()));
  while (true) {
    const int start = input.CurrentPosition();
    const uint32_t tag = input.ReadTag();
    if (tag == 0)
      return input.CurrentPosition() == static_cast<int>(paper.size());
    if (!WireFormatLite::SkipField(&input, tag)) return false;
    const int number = static_cast<int>(WireFormatLite::GetTagFieldNumber(tag));
    if (std::find(wanted.begin(), wanted.end(), number) != wanted.end()) {
      kept->append(paper.data() + start,
                   static_cast<size_t>(input.CurrentPosition() - start));
    }
  }
}

}  // namespace

absl::Status ParseRecordFields(absl::string_view bytes,
                               const RecordFields& fields,
                               v1::PaperRecord* record) {
  record->Clear();
  if (fields.all) {
    if (!record->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      return NotParsed();
    }
    return absl::OkStatus();
  }
  CodedInputStream input(reinterpret_cast<const uint8_t*>(bytes.data()),
                         static_cast<int>(bytes.size()));
  std::string kept;
  while (true) {
    const uint32_t tag = input.ReadTag();
    if (tag == 0) break;
    const uint32_t number = WireFormatLite::GetTagFieldNumber(tag);
    const auto wire_type = WireFormatLite::GetTagWireType(tag);
    if (number == kPaperField &&
        wire_type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      uint32_t length = 0;
      if (!input.ReadVarint32(&length)) return NotParsed();
      const int at = input.CurrentPosition();
      if (length > bytes.size() - static_cast<size_t>(at) ||
          !KeepPaperFields(bytes.substr(static_cast<size_t>(at), length),
                           fields.paper_fields, &kept) ||
          !input.Skip(static_cast<int>(length))) {
        return NotParsed();
      }
    } else if (number == kDocLengthField &&
               wire_type == WireFormatLite::WIRETYPE_VARINT) {
      uint32_t value = 0;
      if (!input.ReadVarint32(&value)) return NotParsed();
      record->set_doc_length_terms(value);
    } else if (number == kTokenSpansField && fields.token_spans &&
               wire_type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      if (!WireFormatLite::ReadBytes(&input, record->mutable_token_spans())) {
        return NotParsed();
      }
    } else if (!WireFormatLite::SkipField(&input, tag)) {
      return NotParsed();
    }
  }
  if (input.CurrentPosition() != static_cast<int>(bytes.size()) ||
      !record->mutable_paper()->ParseFromString(kept)) {
    return NotParsed();
  }
  return absl::OkStatus();
}

}  // namespace paperdb::storage
