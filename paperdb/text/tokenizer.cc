#include "paperdb/text/tokenizer.h"

#include "absl/strings/ascii.h"
#include "paperdb/text/utf8.h"
#include "unicode/uchar.h"
#include "unicode/utf8.h"

namespace paperdb::text {
namespace {

bool IsWordChar(UChar32 c) {
  if (c < 0x80) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
  }
  // Not u_isalnum(), which takes only decimal digits (Nd) for numbers: the
  // other numbers (No, Nl: "x²", "CO₂", "½", "Ⅻ") are word characters too,
  // which NFKC folding then turns into plain digits and letters.
  return (U_GET_GC_MASK(c) &
          (U_GC_L_MASK | U_GC_N_MASK | U_GC_MN_MASK | U_GC_MC_MASK)) != 0;
}

// IsWordChar() for a byte below 0x80; false for the bytes of longer
// sequences.
bool IsAsciiWordByte(uint8_t b) { return absl::ascii_isalnum(b); }

bool IsApostrophe(UChar32 c) { return c == 0x27 || c == 0x2019; }

bool IsDigit(UChar32 c) { return u_isdigit(c); }

// '.' and ',', and their full-width forms (U+FF0E, U+FF0C), which NFKC folds
// to them: "９５．３" is the number 95.3.
bool IsDecimalMark(UChar32 c) {
  return c == '.' || c == ',' || c == 0xFF0E || c == 0xFF0C;
}

// Soft hyphen, zero-width space, non-joiner and joiner, word joiner and
// zero-width no-break space: invisible inside a word (and removed by NFKC
// case folding), so they must not split it.
bool IsInvisibleJoiner(UChar32 c) {
  return c == 0x00AD || (c >= 0x200B && c <= 0x200D) || c == 0x2060 ||
         c == 0xFEFF;
}

// Markdown emphasis is one to three asterisks (italic, bold, both).
constexpr int32_t kMaxEmphasisMarks = 3;

// The hyphens that join the parts of a compound word (see tokenizer.h for
// why dashes do not).
bool IsHyphen(UChar32 c) { return c == '-' || c == 0x2010 || c == 0x2011; }

// Decodes the code point at byte `i`; returns -1 past the end or for an
// ill-formed sequence. Sets `next` to the byte after it.
UChar32 DecodeAt(const uint8_t* s, int32_t length, int32_t i, int32_t* next) {
  if (i >= length) {
    *next = i;
    return -1;
  }
  UChar32 c;
  U8_NEXT(s, i, length, c);
  *next = i;
  return c;
}

}  // namespace

std::vector<TokenSpan> Tokenize(absl::string_view text) {
  std::vector<TokenSpan> tokens;
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const int32_t length = static_cast<int32_t>(text.size());
  int32_t i = 0;
  int32_t token_start = -1;
  UChar32 prev = -1;  // Last code point of the current token.
  // True while the text since the end of the last token is one hyphen.
  bool hyphen_gap = false;
  bool after_hyphen = false;    // Of the current token.
  bool inner_emphasis = false;  // Of the current token.
  // Ends the current token, if any, at byte `end`.
  auto end_token = [&](int32_t end) {
    if (token_start < 0) return;
    tokens.push_back({static_cast<uint32_t>(token_start),
                      static_cast<uint32_t>(end), after_hyphen,
                      inner_emphasis});
    token_start = -1;
    inner_emphasis = false;
  };
  while (i < length) {
    if (IsAsciiWordByte(s[i])) {
      // The common case: a run of ASCII letters and digits, read bytewise.
      if (token_start < 0) {
        token_start = i;
        after_hyphen = hyphen_gap;
      }
      int32_t end = i + 1;
      while (end < length && IsAsciiWordByte(s[end])) ++end;
      prev = s[end - 1];
      i = end;
      continue;
    }
    int32_t next;
    const UChar32 c = DecodeAt(s, length, i, &next);
    if (c >= 0 && IsWordChar(c) && IsUnspacedScript(c)) {
      end_token(i);
      tokens.push_back({static_cast<uint32_t>(i), static_cast<uint32_t>(next),
                        false, false});
      hyphen_gap = false;
      i = next;
      continue;
    }
    if (c >= 0 && IsWordChar(c)) {
      if (token_start < 0) {
        token_start = i;
        after_hyphen = hyphen_gap;
      }
      prev = c;
      i = next;
      continue;
    }
    if (token_start >= 0 && c >= 0) {
      // A joiner is kept only between two characters of the right kind.
      int32_t after;
      const UChar32 following = DecodeAt(s, length, next, &after);
      // A Han or Kana character is a token of its own: nothing joins it.
      const bool joins =
          following >= 0 && !IsUnspacedScript(following) &&
          ((IsApostrophe(c) && u_isalpha(prev) && u_isalpha(following)) ||
           (IsDecimalMark(c) && IsDigit(prev) && IsDigit(following)) ||
           (IsInvisibleJoiner(c) && IsWordChar(following)));
      if (joins) {
        prev = following;
        i = after;
        continue;
      }
      // Markdown emphasis inside a word ("**S**parse", "**Hop**field"):
      // up to three asterisks between two letters.
      if (c == '*' && u_isalpha(prev)) {
        int32_t j = i;
        while (j < length && j - i < kMaxEmphasisMarks && s[j] == '*') ++j;
        const UChar32 letter = DecodeAt(s, length, j, &after);
        if (letter >= 0 && u_isalpha(letter) && !IsUnspacedScript(letter)) {
          inner_emphasis = true;
          prev = letter;
          i = after;
          continue;
        }
      }
    }
    // The first separator after a token may be a hyphen; any second one
    // (or an invalid byte) means the next token is not joined to it.
    hyphen_gap = token_start >= 0 && c >= 0 && IsHyphen(c);
    end_token(i);
    i = next;
  }
  end_token(length);
  return tokens;
}

}  // namespace paperdb::text
