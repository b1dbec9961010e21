#include "ingest_service/abstract_list_parser.h"

#include <optional>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "paperdb/text/utf8.h"

namespace paperdb::ingest {
namespace {

constexpr absl::string_view kBom = "\xEF\xBB\xBF";
constexpr absl::string_view kChineseSuffix = "论文列表";
constexpr absl::string_view kEnglishSuffix = "paper list";

// A line of the file without its terminator.
struct Line {
  absl::string_view text;
  uint64_t offset;  // Of the line's first byte in the file.
  uint32_t number;  // 1-based.
};

// Splits on "\n", "\r\n" or a lone "\r".
std::vector<Line> SplitLines(absl::string_view content, uint64_t base) {
  std::vector<Line> lines;
  uint32_t number = 1;
  size_t start = 0;
  for (size_t i = 0; i < content.size(); ++i) {
    if (content[i] != '\n' && content[i] != '\r') continue;
    lines.push_back({content.substr(start, i - start), base + start, number++});
    if (content[i] == '\r' && i + 1 < content.size() && content[i + 1] == '\n')
      ++i;
    start = i + 1;
  }
  if (start < content.size()) {
    lines.push_back({content.substr(start), base + start, number});
  }
  return lines;
}

// Line number (1-based) of byte `offset` of `content`, counting any of the
// three line endings.
uint32_t LineOf(absl::string_view content, size_t offset) {
  uint32_t line = 1;
  for (size_t i = 0; i < offset && i < content.size(); ++i) {
    if (content[i] == '\n' ||
        (content[i] == '\r' &&
         (i + 1 >= content.size() || content[i + 1] != '\n'))) {
      ++line;
    }
  }
  return line;
}

absl::Status InputError(absl::string_view file_name, uint32_t line,
                        uint64_t byte, absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat(file_name, ": line ", line, ", byte ", byte, ": ", what));
}

// Parses "<venue> [<year>] <suffix>"; false if the line is not a header.
bool ParseHeader(absl::string_view line, ParsedAbstractList* out) {
  absl::string_view rest = text::StripUnicodeWhitespace(line);
  if (absl::EndsWith(rest, kChineseSuffix)) {
    rest.remove_suffix(kChineseSuffix.size());
  } else if (absl::EndsWithIgnoreCase(rest, kEnglishSuffix)) {
    rest.remove_suffix(kEnglishSuffix.size());
  } else {
    return false;
  }
  rest = text::StripUnicodeWhitespace(rest);
  std::vector<absl::string_view> words =
      absl::StrSplit(rest, absl::ByAnyChar(" \t"), absl::SkipEmpty());
  int year = 0;
  if (!words.empty() && words.back().size() >= 4 &&
      absl::SimpleAtoi(words.back().substr(words.back().size() - 4), &year) &&
      year >= 1900 && year <= 2200 &&
      (words.back().size() == 4 ||
       !absl::ascii_isdigit(words.back()[words.back().size() - 5]))) {
    // "2024" alone, or glued to the venue as in "ICLR2024".
    words.back().remove_suffix(4);
    if (words.back().empty()) words.pop_back();
  } else {
    year = 0;
  }
  if (words.empty()) return false;
  out->venue = absl::StrJoin(words, " ");
  out->year = year;
  return true;
}

}  // namespace

absl::StatusOr<ParsedAbstractList> ParseAbstractList(
    absl::string_view file_name, absl::string_view content) {
  uint64_t base = 0;
  if (absl::StartsWith(content, kBom)) {
    content.remove_prefix(kBom.size());
    base = kBom.size();
  }
  if (const std::optional<size_t> bad = text::FindInvalidUtf8(content)) {
    return InputError(file_name, LineOf(content, *bad), base + *bad,
                      "not valid UTF-8");
  }
  if (const size_t nul = content.find('\0'); nul != absl::string_view::npos) {
    return InputError(file_name, LineOf(content, nul), base + nul,
                      "contains a NUL byte");
  }
  const std::vector<Line> lines = SplitLines(content, base);
  ParsedAbstractList list;
  size_t i = 0;
  while (i < lines.size() &&
         text::StripUnicodeWhitespace(lines[i].text).empty())
    ++i;
  if (i == lines.size()) {
    return InputError(
        file_name, 1, base,
        "empty file: expected a header like 'ICLR 2024 论文列表'");
  }
  if (!ParseHeader(lines[i].text, &list)) {
    return InputError(file_name, lines[i].number, lines[i].offset,
                      "no header: expected '<venue> <year> 论文列表' or "
                      "'<venue> <year> paper list' as the first line");
  }
  ++i;
  ParsedAbstract* current = nullptr;
  for (; i < lines.size(); ++i) {
    const absl::string_view stripped =
        text::StripUnicodeWhitespace(lines[i].text);
    if (stripped.empty()) {
      current = nullptr;
      continue;
    }
    if (current == nullptr) {
      current = &list.abstracts.emplace_back();
      current->paragraph_ordinal = static_cast<uint32_t>(list.abstracts.size());
      current->line_number = lines[i].number;
      current->byte_offset =
          lines[i].offset + (stripped.data() - lines[i].text.data());
    } else {
      current->text.push_back(' ');
    }
    absl::StrAppend(&current->text, stripped);
  }
  return list;
}

}  // namespace paperdb::ingest
