#include "paperdb/search/query_lexer.h"

#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/text/utf8.h"
#include "unicode/uchar.h"
#include "unicode/utf8.h"

namespace paperdb::search::internal {

size_t QuoteAt(absl::string_view text, size_t i) {
  if (i >= text.size()) return 0;
  if (text[i] == '"') return 1;
  const absl::string_view rest = text.substr(i);
  if (absl::StartsWith(rest, kLeftQuote) || absl::StartsWith(rest, kRightQuote))
    return 3;
  return 0;
}

size_t SpaceAt(absl::string_view text, size_t i) {
  if (i >= text.size()) return 0;
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  int32_t next = static_cast<int32_t>(i);
  UChar32 c;
  U8_NEXT(s, next, static_cast<int32_t>(text.size()), c);
  return c >= 0 && u_isUWhiteSpace(c) ? static_cast<size_t>(next) - i : 0;
}

size_t MinusAt(absl::string_view text, size_t i) {
  if (i >= text.size()) return 0;
  if (text[i] == '-') return 1;
  return absl::StartsWith(text.substr(i), "\xE2\x88\x92") ? 3 : 0;
}

std::string SyntaxForm(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const int32_t length = static_cast<int32_t>(text.size());
  for (int32_t i = 0; i < length;) {
    const int32_t start = i;
    UChar32 c;
    U8_NEXT(s, i, length, c);
    if (c >= 0xFF01 && c <= 0xFF5E) {
      out.push_back(static_cast<char>(c - 0xFF01 + 0x21));
    } else if (c == 0x201E || (c >= 0x300C && c <= 0x300F)) {
      out.push_back('"');
    } else {
      out.append(text.data() + start, static_cast<size_t>(i - start));
    }
  }
  return out;
}

bool LooksPasted(absl::string_view text) {
  size_t words = 0;
  bool in_word = false;
  for (size_t i = 0; i < text.size();) {
    const size_t space = SpaceAt(text, i);
    if (space > 0) {
      in_word = false;
      i += space;
      continue;
    }
    if (!in_word) ++words;
    in_word = true;
    i += text::Utf8SequenceLength(static_cast<unsigned char>(text[i]));
  }
  return words >= kPastedWords;
}

std::string AsPlainWords(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (const size_t q = QuoteAt(text, i); q > 0) {
      out.push_back(' ');
      i += q;
    } else if (const size_t m = MinusAt(text, i); m > 0) {
      out.push_back(' ');
      i += m;
    } else if (absl::string_view("()*:~").find(text[i]) !=
               absl::string_view::npos) {
      out.push_back(' ');
      ++i;
    } else {
      out.push_back(text[i]);
      ++i;
    }
  }
  for (const std::string op : {"OR", "AND", "NOT"}) {
    for (size_t at = out.find(op); at != std::string::npos;
         at = out.find(op, at + op.size())) {
      for (size_t k = 0; k < op.size(); ++k) {
        out[at + k] = absl::ascii_tolower(out[at + k]);
      }
    }
  }
  return out;
}

}  // namespace paperdb::search::internal
