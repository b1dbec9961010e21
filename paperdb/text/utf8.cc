#include "paperdb/text/utf8.h"

#include <algorithm>
#include <cstring>

#include "unicode/uchar.h"
#include "unicode/uscript.h"
#include "unicode/utf8.h"

namespace paperdb::text {
namespace {

// Unicode's White_Space property of the ASCII byte `b` (U+0009..U+000D and
// U+0020, as u_isUWhiteSpace() says), without a call into ICU.
inline bool IsAsciiWhiteSpace(uint8_t b) {
  return b == ' ' || (b >= '\t' && b <= '\r');
}

}  // namespace

std::optional<size_t> FindInvalidUtf8(absl::string_view bytes) {
  const auto* s = reinterpret_cast<const uint8_t*>(bytes.data());
  const int32_t length = static_cast<int32_t>(bytes.size());
  int32_t i = 0;
  while (i < length) {
    // ASCII fast path, eight bytes at a time.
    uint64_t word;
    if (i + 8 <= length &&
        (std::memcpy(&word, s + i, 8), (word & 0x8080808080808080ull) == 0)) {
      i += 8;
      continue;
    }
    if (s[i] < 0x80) {
      ++i;
      continue;
    }
    const int32_t start = i;
    UChar32 c;
    U8_NEXT(s, i, length, c);
    if (c < 0) return static_cast<size_t>(start);
  }
  return std::nullopt;
}

bool IsUnspacedScript(int32_t code_point) {
  if (code_point < 0x2E80) return false;  // Below the CJK blocks.
  UErrorCode error = U_ZERO_ERROR;
  const UScriptCode script = uscript_getScript(code_point, &error);
  return U_SUCCESS(error) &&
         (script == USCRIPT_HAN || script == USCRIPT_HIRAGANA ||
          script == USCRIPT_KATAKANA);
}

ByteSpan LongestWord(absl::string_view text) {
  ByteSpan longest;
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const int32_t length = static_cast<int32_t>(text.size());
  int32_t run_start = 0;
  for (int32_t i = 0; i < length;) {
    const int32_t at = i;
    if (s[i] < 0x80) {  // ASCII fast path.
      if (!IsAsciiWhiteSpace(s[i++])) continue;
    } else {
      UChar32 c;
      U8_NEXT(s, i, length, c);
      if (c >= 0 && IsUnspacedScript(c)) {
        // A word of its own: ends the run before it and starts one after.
        if (static_cast<size_t>(at - run_start) > longest.length) {
          longest = {static_cast<size_t>(run_start),
                     static_cast<size_t>(at - run_start)};
        }
        if (static_cast<size_t>(i - at) > longest.length) {
          longest = {static_cast<size_t>(at), static_cast<size_t>(i - at)};
        }
        run_start = i;
        continue;
      }
      if (c >= 0 && !u_isUWhiteSpace(c)) continue;
    }
    if (static_cast<size_t>(at - run_start) > longest.length) {
      longest = {static_cast<size_t>(run_start),
                 static_cast<size_t>(at - run_start)};
    }
    run_start = i;
  }
  if (static_cast<size_t>(length - run_start) > longest.length) {
    longest = {static_cast<size_t>(run_start),
               static_cast<size_t>(length - run_start)};
  }
  return longest;
}

namespace {

bool IsControl(UChar32 c) { return c < 0x20 || (c >= 0x7F && c <= 0x9F); }

bool IsBidiFormatting(UChar32 c) {
  return c == 0x061C || c == 0x200E || c == 0x200F ||
         (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

bool IsVariationSelector(UChar32 c) {
  return (c >= 0xFE00 && c <= 0xFE0F) || (c >= 0xE0100 && c <= 0xE01EF) ||
         (c >= 0x180B && c <= 0x180D) || c == 0x180F;
}

// Unicode's Default_Ignorable_Code_Point characters, which render as
// nothing (soft hyphen, zero-width space, word joiner, tags, Hangul
// fillers, ...), but for the joiners and the variation selectors, which
// scripts and emoji need.
bool IsInvisible(UChar32 c) {
  return c != 0x200C && c != 0x200D && !IsVariationSelector(c) &&
         u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT);
}

// True if a variation selector after `c` picks one of its glyphs: an
// emoji (but ASCII digits, '#' and '*', emoji only in keycap sequences),
// an ideograph or a Mongolian letter.
bool TakesVariationSelector(UChar32 c) {
  if (c < 0x80) return false;
  if (u_hasBinaryProperty(c, UCHAR_EMOJI) ||
      u_hasBinaryProperty(c, UCHAR_IDEOGRAPHIC)) {
    return true;
  }
  UErrorCode error = U_ZERO_ERROR;
  return uscript_getScript(c, &error) == USCRIPT_MONGOLIAN && U_SUCCESS(error);
}

}  // namespace

std::optional<CodePointAt> FindControlCharacter(absl::string_view name) {
  const auto* s = reinterpret_cast<const uint8_t*>(name.data());
  const int32_t length = static_cast<int32_t>(name.size());
  UChar32 previous = -1;
  for (int32_t i = 0; i < length;) {
    const int32_t at = i;
    UChar32 c;
    U8_NEXT(s, i, length, c);
    // A variation selector picks a glyph of an emoji or ideograph before it
    // (a Mongolian one, of a Mongolian letter); after anything else it
    // changes no glyph, only bytes.
    const bool idle_selector =
        IsVariationSelector(c) && !TakesVariationSelector(previous);
    if (IsControl(c) || IsBidiFormatting(c) || IsInvisible(c) ||
        idle_selector) {
      return CodePointAt{static_cast<size_t>(at), static_cast<uint32_t>(c)};
    }
    previous = c;
  }
  return std::nullopt;
}

absl::string_view HiddenCharacterKind(uint32_t code_point) {
  const auto c = static_cast<UChar32>(code_point);
  if (IsBidiFormatting(c)) return "a bidirectional formatting character";
  if (IsInvisible(c) || IsVariationSelector(c)) {
    return "an invisible character";
  }
  return "a control character";
}

bool ContainsControlCharacter(absl::string_view name) {
  return FindControlCharacter(name).has_value();
}

absl::string_view Utf8Prefix(absl::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
    --cut;
  }
  return text.substr(0, cut);
}

absl::string_view StripUnicodeWhitespace(absl::string_view text) {
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  int32_t start = 0;
  int32_t end = static_cast<int32_t>(text.size());
  while (start < end) {
    if (s[start] < 0x80) {  // ASCII fast path.
      if (!IsAsciiWhiteSpace(s[start])) break;
      ++start;
      continue;
    }
    int32_t next = start;
    UChar32 c;
    U8_NEXT(s, next, end, c);
    if (c < 0 || !u_isUWhiteSpace(c)) break;
    start = next;
  }
  while (end > start) {
    if (s[end - 1] < 0x80) {  // ASCII fast path.
      if (!IsAsciiWhiteSpace(s[end - 1])) break;
      --end;
      continue;
    }
    int32_t prev = end;
    UChar32 c;
    U8_PREV(s, start, prev, c);
    if (c < 0 || !u_isUWhiteSpace(c)) break;
    end = prev;
  }
  return text.substr(start, end - start);
}

bool ContainsLetter(absl::string_view text) {
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const int32_t length = static_cast<int32_t>(text.size());
  for (int32_t i = 0; i < length;) {
    UChar32 c;
    U8_NEXT(s, i, length, c);
    if (c >= 0 && u_isalpha(c)) return true;
  }
  return false;
}

int Utf8SequenceLength(unsigned char lead) {
  if (lead < 0xC0) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  if (lead < 0xF8) return 4;
  return 1;
}

uint32_t CountCodePoints(absl::string_view text) {
  uint32_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

size_t ByteOffsetOfCodePoint(absl::string_view text, uint32_t index) {
  size_t at = 0;
  for (uint32_t i = 0; i < index && at < text.size(); ++i) {
    at += static_cast<size_t>(
        Utf8SequenceLength(static_cast<unsigned char>(text[at])));
  }
  return std::min(at, text.size());
}

bool IsAscii(absl::string_view text) {
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    if ((word & 0x8080808080808080ull) != 0) return false;
  }
  for (; i < text.size(); ++i) {
    if (static_cast<unsigned char>(text[i]) >= 0x80) return false;
  }
  return true;
}

TextOffset OffsetConverter::Convert(uint32_t byte_offset) {
  const uint32_t limit =
      std::min(byte_offset, static_cast<uint32_t>(text_.size()));
  while (at_.byte < limit) {
    // Runs of ASCII eight bytes at a time: one code point and one UTF-16
    // unit a byte.
    uint64_t word;
    if (at_.byte + 8 <= limit &&
        (std::memcpy(&word, text_.data() + at_.byte, 8),
         (word & 0x8080808080808080ull) == 0)) {
      at_.byte += 8;
      at_.code_point += 8;
      at_.utf16 += 8;
      continue;
    }
    const int n =
        Utf8SequenceLength(static_cast<unsigned char>(text_[at_.byte]));
    at_.byte += n;
    at_.code_point += 1;
    at_.utf16 += (n == 4) ? 2 : 1;
  }
  return at_;
}

}  // namespace paperdb::text
