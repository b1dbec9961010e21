#include "ingest_service/abstract_list_parser.h"

#include <algorithm>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "paperdb/common/error_details.h"
#include "paperdb/text/digits.h"
#include "paperdb/text/utf8.h"

namespace paperdb::ingest {
namespace {

constexpr absl::string_view kBom = "\xEF\xBB\xBF";
constexpr absl::string_view kChineseSuffix = "论文列表";

// A line of the file without its terminator.
struct Line {
  absl::string_view text;
  uint64_t offset;  // Of the line's first byte in the file.
  uint32_t number;  // 1-based.
};

// The lines of a file, one at a time (a file of millions of blank lines
// costs no memory per line). Splits on "\n", "\r\n" or a lone "\r".
class LineReader {
 public:
  LineReader(absl::string_view content, uint64_t base)
      : content_(content), base_(base) {
    Advance();
  }

  // The current line, or null past the last one.
  const Line* Peek() const { return has_line_ ? &line_ : nullptr; }

  void Advance() {
    has_line_ = start_ < content_.size();
    if (!has_line_) return;
    size_t end = start_;
    while (end < content_.size() && content_[end] != '\n' &&
           content_[end] != '\r') {
      ++end;
    }
    line_ = {content_.substr(start_, end - start_), base_ + start_, number_++};
    if (end < content_.size() && content_[end] == '\r' &&
        end + 1 < content_.size() && content_[end + 1] == '\n') {
      ++end;
    }
    start_ = end + 1;
  }

 private:
  absl::string_view content_;
  uint64_t base_;
  size_t start_ = 0;
  uint32_t number_ = 1;
  bool has_line_ = false;
  Line line_;
};

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
  return WithReason(
      WithField(absl::InvalidArgumentError(absl::StrCat(
                    file_name, ": line ", line, ", byte ", byte, ": ", what)),
                "content"),
      "MALFORMED_FILE",
      {{"file_name", std::string(file_name)},
       {"line", absl::StrCat(line)},
       {"byte", absl::StrCat(byte)}});
}

// Splits on Unicode white space.
std::vector<absl::string_view> Words(absl::string_view line) {
  std::vector<absl::string_view> words;
  while (true) {
    line = text::StripUnicodeWhitespace(line);
    if (line.empty()) return words;
    size_t end = 0;
    while (end < line.size() &&
           text::StripUnicodeWhitespace(
               line.substr(end, text::Utf8SequenceLength(line[end])))
                   .size() != 0) {
      end += text::Utf8SequenceLength(static_cast<unsigned char>(line[end]));
    }
    words.push_back(line.substr(0, end));
    line.remove_prefix(end);
  }
}

// Parses "<venue> [<year>] 论文列表|paper list"; false, leaving `venue` and
// `year` as they were, if `line` is not a header. Tolerates a BOM (files
// concatenated with cat), any white space, "2024年", a year in full-width
// or other scripts' digits, and a year glued to the venue ("ICLR2024",
// "ICLR-2024").
bool ParseHeader(absl::string_view line, std::string* venue, int* year) {
  if (absl::StartsWith(line, kBom)) line.remove_prefix(kBom.size());
  // Every line of every file is asked: most are abstracts, which fail this
  // test of the last word without being split into words.
  const absl::string_view trimmed = text::StripUnicodeWhitespace(line);
  if (!absl::EndsWith(trimmed, kChineseSuffix) &&
      !absl::EndsWithIgnoreCase(trimmed, "list")) {
    return false;
  }
  std::vector<absl::string_view> words = Words(line);
  if (words.empty()) return false;
  if (absl::EndsWith(words.back(), kChineseSuffix)) {
    words.back().remove_suffix(kChineseSuffix.size());
    if (words.back().empty()) words.pop_back();
  } else if (words.size() >= 2 &&
             absl::EqualsIgnoreCase(words.back(), "list") &&
             absl::EqualsIgnoreCase(words[words.size() - 2], "paper")) {
    words.resize(words.size() - 2);
  } else {
    return false;
  }
  int header_year = 0;
  std::string last_word;  // words.back() with every script's digits as ASCII.
  if (!words.empty()) {
    last_word = text::AsciiDigits(words.back());
    absl::string_view last = last_word;
    if (absl::EndsWith(last, "年"))
      last.remove_suffix(std::string_view("年").size());
    int parsed = 0;
    if (last.size() >= 4 &&
        absl::SimpleAtoi(last.substr(last.size() - 4), &parsed) &&
        parsed >= 1900 && parsed <= 2200 &&
        (last.size() == 4 || !absl::ascii_isdigit(last[last.size() - 5]))) {
      header_year = parsed;
      last.remove_suffix(4);
      while (!last.empty() && (last.back() == '-' || last.back() == '_')) {
        last.remove_suffix(1);
      }
      if (last.empty()) {
        words.pop_back();
      } else {
        words.back() = last;
      }
    }
  }
  if (words.empty() || words.size() > 8) return false;
  *venue = absl::StrJoin(words, " ");
  *year = header_year;
  return true;
}

// `content` with each control character but tab and the line breaks (C0,
// DEL, and C1 as its two bytes) replaced by as many spaces as it has bytes,
// so that every offset stays the file's; empty if it has none.
std::string SpacedControls(absl::string_view content) {
  std::string spaced;
  for (size_t i = 0; i < content.size(); ++i) {
    const auto byte = static_cast<unsigned char>(content[i]);
    const bool c0 =
        (byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r') ||
        byte == 0x7F;
    const bool c1 = byte == 0xC2 && i + 1 < content.size() &&
                    static_cast<unsigned char>(content[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(content[i + 1]) <= 0x9F;
    if (!c0 && !c1) continue;
    if (spaced.empty()) spaced.assign(content.data(), content.size());
    spaced[i] = ' ';
    if (c1) spaced[++i] = ' ';
  }
  return spaced;
}

// The UTF-16 or UTF-32 encoding `content` starts in, as iconv names it,
// or "": a byte order mark, or (no mark) NUL bytes at only even or only odd
// offsets of its first 64 bytes, at least a quarter of them (ASCII and
// Latin text beside CJK). UTF-8 text holds no NUL, so never matches.
absl::string_view WideEncoding(absl::string_view content) {
  if (absl::StartsWith(content, absl::string_view("\xFF\xFE\0\0", 4))) {
    return "UTF-32LE";
  }
  if (absl::StartsWith(content, absl::string_view("\0\0\xFE\xFF", 4))) {
    return "UTF-32BE";
  }
  if (absl::StartsWith(content, "\xFF\xFE")) return "UTF-16LE";
  if (absl::StartsWith(content, "\xFE\xFF")) return "UTF-16BE";
  const size_t pairs = std::min<size_t>(content.size() / 2, 32);
  size_t even = 0, odd = 0;
  for (size_t i = 0; i < pairs; ++i) {
    even += content[2 * i] == '\0';
    odd += content[2 * i + 1] == '\0';
  }
  if (pairs < 2 || (even > 0) == (odd > 0) || 4 * (even + odd) < pairs) {
    return "";
  }
  return odd > 0 ? "UTF-16LE" : "UTF-16BE";
}

}  // namespace

absl::StatusOr<ParsedAbstractList> ParseAbstractList(
    absl::string_view file_name, absl::string_view content) {
  uint64_t base = 0;
  if (absl::StartsWith(content, kBom)) {
    content.remove_prefix(kBom.size());
    base = kBom.size();
  }
  if (const absl::string_view wide = base == 0 ? WideEncoding(content) : "";
      !wide.empty()) {
    return InputError(file_name, 1, 0,
                      absl::StrCat("the file is ", wide,
                                   ", not UTF-8; convert it with `iconv -f ",
                                   wide, " -t UTF-8`"));
  }
  if (const std::optional<size_t> bad = text::FindInvalidUtf8(content)) {
    return InputError(file_name, LineOf(content, *bad), base + *bad,
                      "not valid UTF-8");
  }
  if (const size_t nul = content.find('\0'); nul != absl::string_view::npos) {
    return InputError(file_name, LineOf(content, nul), base + nul,
                      "contains a NUL byte");
  }
  // Control characters are read as spaces: an abstract never holds one
  // (a terminal or a JSON client would show it, or choke on it).
  const absl::string_view raw = content;
  const std::string spaced = SpacedControls(content);
  if (!spaced.empty()) content = spaced;
  LineReader lines(content, base);
  ParsedAbstractList list;
  while (lines.Peek() != nullptr &&
         text::StripUnicodeWhitespace(lines.Peek()->text).empty()) {
    lines.Advance();
  }
  if (lines.Peek() == nullptr) {
    return InputError(
        file_name, 1, base,
        "file is empty but for white space; expected a header line such as "
        "\"ICLR 2024 paper list\"");
  }
  const Line header = *lines.Peek();
  if (!ParseHeader(header.text, &list.venue, &list.year)) {
    // The line as read (up to 60 bytes, cut at a character boundary), and
    // what it lacks.
    const absl::string_view line = text::StripUnicodeWhitespace(header.text);
    const absl::string_view quoted = text::Utf8Prefix(line, 60);
    std::string venue;
    int year = 0;
    const bool no_venue =
        ParseHeader(absl::StrCat("X ", line), &venue, &year) && venue == "X";
    return InputError(
        file_name, header.number, header.offset,
        absl::StrCat("no header: the first line \"", quoted,
                     quoted.size() < line.size() ? "...\"" : "\"",
                     no_venue ? " names no venue" : "",
                     "; expected '<venue> [<year>] 论文列表' or '<venue> "
                     "[<year>] paper list', e.g. \"ICLR 2024 paper list\""));
  }
  // A venue over the limit, or ending in a number of 3 or more digits that
  // is not a year ("ICLR 20245": a typo of the year, not part of a name).
  auto header_error = [&](const Line& line, absl::string_view venue,
                          int year) -> absl::Status {
    if (venue.size() > kMaxVenueBytes) {
      return InputError(
          file_name, line.number, line.offset,
          absl::StrCat("the header's venue is ", venue.size(),
                       " bytes, longer than the limit of ", kMaxVenueBytes));
    }
    // A venue is a label shown to people: no control, bidirectional
    // formatting or invisible characters (as in file names). Control
    // characters are read as spaces above, so the line as written is
    // searched for them (a tab is white space).
    absl::string_view written =
        raw.substr(line.offset - base, line.text.size());
    while (const auto control = text::FindControlCharacter(written)) {
      const uint32_t c = control->code_point;
      if (c != '\t' && (c < 0x20 || (c >= 0x7F && c <= 0x9F))) {
        return InputError(
            file_name, line.number,
            base + (written.data() - raw.data()) + control->byte,
            absl::StrFormat("the header holds U+%04X, %s", control->code_point,
                            text::HiddenCharacterKind(control->code_point)));
      }
      written.remove_prefix(control->byte + 1);
    }
    if (const auto hidden = text::FindControlCharacter(venue)) {
      return InputError(
          file_name, line.number, line.offset,
          absl::StrFormat("the header's venue holds U+%04X, %s",
                          hidden->code_point,
                          text::HiddenCharacterKind(hidden->code_point)));
    }
    // Digits of any script, as ParseHeader() reads a year.
    const std::string last_word =
        text::AsciiDigits(venue.substr(venue.rfind(' ') + 1));
    absl::string_view last = last_word;
    absl::ConsumeSuffix(&last, "年");
    if (last.size() >= 3 &&
        std::all_of(last.begin(), last.end(), absl::ascii_isdigit)) {
      int value = 0;
      if (last.size() == 4 && absl::SimpleAtoi(last, &value) && value >= 1900 &&
          value <= 2200) {
        return InputError(
            file_name, line.number, line.offset,
            absl::StrCat("the header names two years, '", last, "' and '", year,
                         "': name the list's one year"));
      }
      return InputError(file_name, line.number, line.offset,
                        absl::StrCat("the header's year '", last,
                                     "' is not a year from 1900 to 2200"));
    }
    // A year glued to the venue's last word is a year ("ICLR2024 paper
    // list" is ICLR's 2024 list), so one beside another year is two years.
    int glued = 0;
    if (year != 0 && last.size() > 4 &&
        absl::SimpleAtoi(last.substr(last.size() - 4), &glued) &&
        glued >= 1900 && glued <= 2200 &&
        !absl::ascii_isdigit(last[last.size() - 5])) {
      return InputError(
          file_name, line.number, line.offset,
          absl::StrCat("the header names two years, '", last, "' and '", year,
                       "': name the list's one year"));
    }
    return absl::OkStatus();
  };
  if (absl::Status bad = header_error(header, list.venue, list.year);
      !bad.ok()) {
    return bad;
  }
  lines.Advance();
  std::string venue = list.venue;
  int year = list.year;
  ParsedAbstract* current = nullptr;
  while (lines.Peek() != nullptr) {
    const Line line = *lines.Peek();
    lines.Advance();
    absl::string_view stripped = text::StripUnicodeWhitespace(line.text);
    if (stripped.empty()) {
      current = nullptr;
      continue;
    }
    // A header line naming a year starts a new list where it stands alone,
    // opens a paragraph (a list's header directly above its first abstract)
    // or closes one (under the last line of the list before it, when the
    // file before had no blank line at its end): files joined with cat keep
    // each list's venue and year. Without a year, a line such as "See our
    // full paper list" is text, not the venue of every later abstract.
    const bool closes =
        lines.Peek() == nullptr ||
        text::StripUnicodeWhitespace(lines.Peek()->text).empty();
    const bool opens = current == nullptr;
    std::string next_venue;
    int next_year = 0;
    // One standing alone that is a header mistyped (a year out of range, a
    // venue over the limit) is refused as headers are.
    if ((opens || closes) && ParseHeader(stripped, &next_venue, &next_year) &&
        (next_year != 0 || (opens && closes))) {
      if (absl::Status bad = header_error(line, next_venue, next_year);
          !bad.ok()) {
        return bad;
      }
      if (next_year != 0) {
        venue = std::move(next_venue);
        year = next_year;
        current = nullptr;
        continue;
      }
    }
    // A byte order mark starting a line (a file joined on with cat) is no
    // part of the abstract; a header line reads its own (ParseHeader()).
    if (absl::ConsumePrefix(&stripped, kBom)) {
      stripped = text::StripUnicodeWhitespace(stripped);
      if (stripped.empty()) continue;
    }
    if (current == nullptr) {
      current = &list.abstracts.emplace_back();
      current->venue = venue;
      current->year = year;
      current->paragraph_ordinal = static_cast<uint32_t>(list.abstracts.size());
      current->line_number = line.number;
      current->byte_offset = line.offset + (stripped.data() - line.text.data());
    } else {
      current->text.push_back(' ');
    }
    absl::StrAppend(&current->text, stripped);
  }
  return list;
}

}  // namespace paperdb::ingest
