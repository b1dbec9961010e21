// Parser for paper-list files, the input format of paperdb:
//
//   ICLR 2024 论文列表            <- header: venue, year, "论文列表" or "paper
//   list"
//                                <- one or more blank lines
//   First abstract, usually one long line ...
//
//   Second abstract, possibly wrapped
//   over several lines ...
//
// UTF-8 only. A UTF-8 BOM, CRLF or CR-only line endings, trailing whitespace
// and a missing final newline are tolerated; control characters other than
// tab and line breaks (C0, DEL, C1) are read as spaces. Lines of one paragraph
// are joined with single spaces, each stripped of surrounding whitespace. A
// header line standing alone later in the file starts another list (files
// joined with cat), whose abstracts take its venue and year.

#ifndef PAPERDB_INGEST_SERVICE_ABSTRACT_LIST_PARSER_H_
#define PAPERDB_INGEST_SERVICE_ABSTRACT_LIST_PARSER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace paperdb::ingest {

// One abstract as found in the file.
struct ParsedAbstract {
  std::string text;                // The paragraph, lines joined by ' '.
  uint32_t paragraph_ordinal = 0;  // 1-based, among the file's abstracts.
  uint32_t line_number = 0;  // 1-based line of the paragraph's first line.
  uint64_t byte_offset = 0;  // File offset of the paragraph's first byte.
  std::string venue;         // From the header above the paragraph.
  int year = 0;              // Likewise; 0 if it names none.
};

// Longest venue a header may name, in bytes: a paper's name holds it, and
// names stay well under the API's 512-byte limit (paperdb/rpc/paper_name.h).
inline constexpr size_t kMaxVenueBytes = 128;

// A parsed file.
struct ParsedAbstractList {
  std::string venue;  // Of the first header, e.g. "ICLR"; may hold spaces.
  int year = 0;       // 0 if the first header names no year.
  std::vector<ParsedAbstract> abstracts;
};

// Parses `content`, the bytes of file `file_name` (used only in messages).
// INVALID_ARGUMENT, naming the file, 1-based line and 0-based byte offset, if
// the content is not valid UTF-8, contains a NUL byte, its first non-blank
// line is not a header "<venue> [<year>] 论文列表|paper list", or a header
// names a venue longer than kMaxVenueBytes.
absl::StatusOr<ParsedAbstractList> ParseAbstractList(
    absl::string_view file_name, absl::string_view content);

}  // namespace paperdb::ingest

#endif  // PAPERDB_INGEST_SERVICE_ABSTRACT_LIST_PARSER_H_
