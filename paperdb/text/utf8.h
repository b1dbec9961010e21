// UTF-8 validation and offset conversion. paperdb's canonical offsets are
// UTF-8 byte offsets; the API also reports code points and UTF-16 code units.

#ifndef PAPERDB_TEXT_UTF8_H_
#define PAPERDB_TEXT_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"

namespace paperdb::text {

// Returns the byte offset of the first byte of `bytes` that does not begin a
// well-formed UTF-8 sequence (RFC 3629: no overlongs, surrogates or code
// points above U+10FFFF), or nullopt if all of `bytes` is valid.
std::optional<size_t> FindInvalidUtf8(absl::string_view bytes);

// True if every byte of `text` is ASCII (below 0x80).
bool IsAscii(absl::string_view text);

// Length in bytes of the UTF-8 sequence that starts with `lead`; 1 for a
// byte that cannot start one.
int Utf8SequenceLength(unsigned char lead);

// Number of code points in `text`: the bytes that do not continue a
// sequence (not 10xxxxxx). REQUIRES: `text` is valid UTF-8.
uint32_t CountCodePoints(absl::string_view text);

// The byte offset where code point `index` of `text` starts, or text.size()
// if `text` has no more than `index` code points. REQUIRES: `text` is
// valid UTF-8.
size_t ByteOffsetOfCodePoint(absl::string_view text, uint32_t index);

// The longest prefix of `text` of at most `max_bytes` bytes that ends at a
// character boundary (never inside a UTF-8 sequence): for quoting input in
// bounded messages. `text` itself if it is no longer than `max_bytes`.
absl::string_view Utf8Prefix(absl::string_view text, size_t max_bytes);

// `text` without leading and trailing Unicode white space (the White_Space
// property: ASCII spaces and tabs, NBSP, U+3000 IDEOGRAPHIC SPACE, ...).
// REQUIRES: `text` is valid UTF-8.
absl::string_view StripUnicodeWhitespace(absl::string_view text);

// True if `code_point` is of a script written without spaces between
// words (Han, Hiragana, Katakana): each such character is a word.
bool IsUnspacedScript(int32_t code_point);

// The longest word in `text` for size limits: a run of characters that are
// not Unicode white space, where each Han or Kana character is a word of
// its own (IsUnspacedScript()). Its start and length, in bytes; {0, 0} for
// empty or all-space text. REQUIRES: `text` is valid UTF-8.
struct ByteSpan {
  size_t start = 0;
  size_t length = 0;
};
ByteSpan LongestWord(absl::string_view text);

// True if `name` holds a character that must not appear in a label shown
// to people: a control character (C0, DEL, C1), a bidirectional
// formatting character (U+061C, U+200E, U+200F, U+202A..U+202E,
// U+2066..U+2069), which could reorder what a terminal shows, or an
// invisible one (Unicode's Default_Ignorable_Code_Point: U+00AD, U+200B,
// U+2060..U+2064, U+FEFF, tags, Hangul fillers, ...), which makes two
// labels that look alike differ. Zero-width (non-)joiners stay: words of
// several scripts need them; so does a variation selector after an emoji,
// an ideograph or a Mongolian letter (it picks their glyph), but not one
// after anything else. REQUIRES: valid UTF-8.
bool ContainsControlCharacter(absl::string_view name);

// The first such character of `name`: its byte offset and code point, or
// nullopt. REQUIRES: valid UTF-8.
struct CodePointAt {
  size_t byte = 0;
  uint32_t code_point = 0;
};
std::optional<CodePointAt> FindControlCharacter(absl::string_view name);

// What such a character is, for an error message: "a control character",
// "a bidirectional formatting character" or "an invisible character".
absl::string_view HiddenCharacterKind(uint32_t code_point);

// True if `text` holds at least one letter (Unicode general category L*).
bool ContainsLetter(absl::string_view text);

// Offsets of one position in a UTF-8 string, in the three units of the API.
struct TextOffset {
  uint32_t byte = 0;        // UTF-8 bytes.
  uint32_t code_point = 0;  // Unicode code points.
  uint32_t utf16 = 0;  // UTF-16 code units (2 per supplementary character).
};

// Converts byte offsets of one string to TextOffset. Offsets must be given in
// non-decreasing order, so a sweep over a string costs O(length) in all.
// Holds a view of `text`: the bytes must outlive the converter.
// Not thread-safe.
class OffsetConverter {
 public:
  explicit OffsetConverter(absl::string_view text) : text_(text) {}

  // REQUIRES: byte_offset >= every offset passed before, <= text.size(), and
  // at a character boundary.
  TextOffset Convert(uint32_t byte_offset);

 private:
  absl::string_view text_;
  TextOffset at_;
};

}  // namespace paperdb::text

#endif  // PAPERDB_TEXT_UTF8_H_
