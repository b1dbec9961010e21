// libFuzzer target for ParseAbstractList
// (ingest_service/abstract_list_parser.h).
//
// The input is the content of a file "fuzz.txt". Besides ASan and UBSan
// findings, the target traps when a documented contract does not hold:
//  - A failure is INVALID_ARGUMENT naming the file and line; content that is
//    not valid UTF-8 or holds a NUL byte always fails, and valid content fails
//    only for want of a header.
//  - A parsed list has a venue and a year of 0 or 1900..2200, and so has each
//    abstract. Abstracts are numbered 1, 2, ... in file order; their byte
//    offsets and 1-based line numbers increase and agree with each other and
//    with the content ("\n", "\r\n" and "\r" each end a line).
//  - An abstract's text is non-empty valid UTF-8 without NULs, line breaks,
//    control characters but tab, or surrounding white space, and starts with
//    its first line as found at its byte offset, which is that line's first
//    non-white-space character; control characters (C0 but tab and line
//    breaks, DEL, C1) count as spaces, byte for byte.
//  - A one-line paragraph is never a header (a header line standing alone
//    starts another list), and an abstract whose venue or year differs from
//    the one before it has a header line naming them in between.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "ingest_service/abstract_list_parser.h"
#include "paperdb/text/utf8.h"

#define FUZZ_CHECK(condition)                                               \
  do {                                                                      \
    if (!(condition)) {                                                     \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                   #condition);                                             \
      __builtin_trap();                                                     \
    }                                                                       \
  } while (false)

namespace {

using ::paperdb::ingest::ParseAbstractList;
using ::paperdb::ingest::ParsedAbstract;
using ::paperdb::ingest::ParsedAbstractList;
using ::paperdb::text::FindInvalidUtf8;
using ::paperdb::text::StripUnicodeWhitespace;

constexpr absl::string_view kFileName = "fuzz.txt";
constexpr absl::string_view kBom = "\xEF\xBB\xBF";
constexpr absl::string_view kLineBreaks = "\r\n";

// `content` with each control character but tab and line breaks replaced
// by a space per byte: what the parser reads.
std::string Spaced(absl::string_view content) {
  std::string out(content);
  for (size_t i = 0; i < out.size(); ++i) {
    const auto byte = static_cast<unsigned char>(out[i]);
    if ((byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r') ||
        byte == 0x7F) {
      out[i] = ' ';
    } else if (byte == 0xC2 && i + 1 < out.size() &&
               (static_cast<unsigned char>(out[i + 1]) & 0xE0) == 0x80) {
      out[i] = out[i + 1] = ' ';
    }
  }
  return out;
}

bool ValidYear(int year) { return year == 0 || (year >= 1900 && year <= 2200); }

// Byte offset just past the line ending that starts at `at` ("\r\n" is one).
size_t SkipLineEnding(absl::string_view content, size_t at) {
  if (content[at] == '\r' && at + 1 < content.size() &&
      content[at + 1] == '\n') {
    return at + 2;
  }
  return at + 1;
}

// The line of `content` starting at byte `start`, without its line ending.
absl::string_view LineAt(absl::string_view content, size_t start) {
  const size_t end = content.find_first_of(kLineBreaks, start);
  return content.substr(start, end == absl::string_view::npos
                                   ? absl::string_view::npos
                                   : end - start);
}

// True if `line`, standing alone after the first line of a file, is taken for
// a header naming `venue` and `year`. The leading "\n" keeps the file's own
// BOM handling out of the way: the line is parsed as a later line would be.
bool IsHeaderFor(absl::string_view line, absl::string_view venue, int year) {
  for (absl::string_view form : {line, StripUnicodeWhitespace(line)}) {
    const absl::StatusOr<ParsedAbstractList> alone =
        ParseAbstractList(kFileName, absl::StrCat("\n", form));
    if (alone.ok() && alone->venue == venue && alone->year == year) return true;
  }
  return false;
}

// True if a line that starts in content[from, to) is a header naming `venue`
// and `year`.
bool HeaderBetween(absl::string_view content, size_t from, size_t to,
                   absl::string_view venue, int year) {
  size_t start = content.find_last_of(kLineBreaks, from);
  start = start == absl::string_view::npos ? 0 : start + 1;
  while (start < to) {
    const absl::string_view line = LineAt(content, start);
    if (IsHeaderFor(line, venue, year)) return true;
    const size_t end = start + line.size();
    if (end >= content.size()) break;
    start = SkipLineEnding(content, end);
  }
  return false;
}

void CheckFailure(absl::string_view content, const absl::Status& status) {
  FUZZ_CHECK(status.code() == absl::StatusCode::kInvalidArgument);
  FUZZ_CHECK(
      absl::StartsWith(status.message(), absl::StrCat(kFileName, ": line ")));
  absl::string_view body = content;
  if (absl::StartsWith(body, kBom)) body.remove_prefix(kBom.size());
  if (!FindInvalidUtf8(body).has_value() &&
      body.find('\0') == absl::string_view::npos) {
    FUZZ_CHECK(absl::StrContains(status.message(), "header"));
  }
}

void CheckList(absl::string_view content, const ParsedAbstractList& list) {
  absl::string_view body = content;
  if (absl::StartsWith(body, kBom)) body.remove_prefix(kBom.size());
  FUZZ_CHECK(!FindInvalidUtf8(body).has_value());
  FUZZ_CHECK(body.find('\0') == absl::string_view::npos);
  FUZZ_CHECK(!list.venue.empty());
  FUZZ_CHECK(ValidYear(list.year));

  // Line counting runs from one abstract to the next, keeping the check
  // linear in the size of the content.
  size_t counted_to = 0;
  uint64_t line_number = 1;
  const ParsedAbstract* previous = nullptr;
  for (size_t k = 0; k < list.abstracts.size(); ++k) {
    const ParsedAbstract& abstract = list.abstracts[k];
    FUZZ_CHECK(abstract.paragraph_ordinal == k + 1);
    FUZZ_CHECK(!abstract.venue.empty());
    FUZZ_CHECK(ValidYear(abstract.year));

    // The text.
    const std::string& text = abstract.text;
    FUZZ_CHECK(!text.empty());
    FUZZ_CHECK(!FindInvalidUtf8(text).has_value());
    FUZZ_CHECK(absl::string_view(text).find_first_of(
                   absl::string_view("\r\n\0", 3)) == absl::string_view::npos);
    FUZZ_CHECK(StripUnicodeWhitespace(text).size() == text.size());
    FUZZ_CHECK(Spaced(text) == text);
    FUZZ_CHECK(text.size() <= content.size());

    // Byte offset and line number.
    const size_t offset = abstract.byte_offset;
    FUZZ_CHECK(offset < content.size());
    FUZZ_CHECK(previous == nullptr || offset > previous->byte_offset);
    for (; counted_to < offset; ++counted_to) {
      const char c = content[counted_to];
      if (c == '\n' || (c == '\r' && (counted_to + 1 >= content.size() ||
                                      content[counted_to + 1] != '\n'))) {
        ++line_number;
      }
    }
    FUZZ_CHECK(abstract.line_number == line_number);
    FUZZ_CHECK(abstract.line_number >= 2);  // Line 1 is blank or the header.
    FUZZ_CHECK(previous == nullptr ||
               abstract.line_number > previous->line_number);

    // The first line: white space (and a byte order mark) up to
    // byte_offset, then the text's start.
    const size_t line_start = content.find_last_of(kLineBreaks, offset);
    FUZZ_CHECK(line_start != absl::string_view::npos);
    absl::string_view lead = StripUnicodeWhitespace(
        content.substr(line_start + 1, offset - line_start - 1));
    if (absl::ConsumePrefix(&lead, kBom)) lead = StripUnicodeWhitespace(lead);
    FUZZ_CHECK(lead.empty());
    const absl::string_view first_line = LineAt(content, offset);
    const absl::string_view first = StripUnicodeWhitespace(first_line);
    FUZZ_CHECK(!first.empty() && first.data() == first_line.data());
    FUZZ_CHECK(text == first ||
               absl::StartsWith(text, absl::StrCat(first, " ")));

    // A paragraph of one line would have been a header if it were one
    // naming a year (a later header without one is text).
    const size_t line_end = offset + first_line.size();
    const bool one_line =
        line_end >= content.size() ||
        StripUnicodeWhitespace(
            LineAt(content, SkipLineEnding(content, line_end)))
            .empty();
    if (one_line) {
      FUZZ_CHECK(text == first);
      const absl::StatusOr<ParsedAbstractList> as_header =
          ParseAbstractList(kFileName, absl::StrCat("\n", text));
      FUZZ_CHECK(!as_header.ok() || as_header->year == 0);
    }

    // A change of venue or year comes from a header above the abstract.
    const absl::string_view venue =
        previous == nullptr ? list.venue : previous->venue;
    const int year = previous == nullptr ? list.year : previous->year;
    if (abstract.venue != venue || abstract.year != year) {
      FUZZ_CHECK(HeaderBetween(content,
                               previous == nullptr ? 0 : previous->byte_offset,
                               offset, abstract.venue, abstract.year));
    }
    previous = &abstract;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view content(reinterpret_cast<const char*>(data), size);
  const absl::StatusOr<ParsedAbstractList> list =
      ParseAbstractList(kFileName, content);
  if (list.ok()) {
    CheckList(Spaced(content), *list);
  } else {
    CheckFailure(content, list.status());
  }
  return 0;
}
