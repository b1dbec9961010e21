// libFuzzer target for ParseQuery (paperdb/search/query_parser.h) and the text
// analysis under it (paperdb/text: Tokenize and Analyzer).
//
// The input is a query string. Besides ASan and UBSan findings, the target
// traps when a documented contract does not hold:
//  - ParseQuery: a failure is INVALID_ARGUMENT, and a query over
//    kMaxQueryBytes or not valid UTF-8 always fails. A parsed query has at
//    most kMaxClauses clauses, no two alike, at increasing code point
//    positions inside the query; a term clause has one term, a phrase 2 to
//    kMaxPhraseTerms; terms are non-empty valid UTF-8. Parsing again gives
//    the same query (the analyzer's caches change nothing).
//  - Tokenize (any bytes): tokens are non-empty, in order, apart, valid
//    UTF-8; in valid UTF-8 they are maximal runs of letters, digits and
//    combining marks (L*, N*, Mn, Mc) and the joiners tokenizer.h lists.
//  - Analyzer::Analyze (any bytes): tokens are tokenizer spans in order, with
//    increasing positions and non-empty valid UTF-8 terms; in valid UTF-8,
//    OffsetConverter turns their offsets into the right code point and UTF-16
//    counts.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "paperdb/search/query.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/text/tokenizer.h"
#include "paperdb/text/utf8.h"
#include "unicode/uchar.h"
#include "unicode/utf8.h"

#define FUZZ_CHECK(condition)                                               \
  do {                                                                      \
    if (!(condition)) {                                                     \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                   #condition);                                             \
      __builtin_trap();                                                     \
    }                                                                       \
  } while (false)

namespace {

using ::paperdb::search::kMaxClauses;
using ::paperdb::search::kMaxPhraseTerms;
using ::paperdb::search::kMaxQueryBytes;
using ::paperdb::search::kMaxSlop;
using ::paperdb::search::ParseQuery;
using ::paperdb::search::Query;
using ::paperdb::search::QueryNode;
using ::paperdb::text::AnalyzedToken;
using ::paperdb::text::FindInvalidUtf8;
using ::paperdb::text::OffsetConverter;
using ::paperdb::text::TextOffset;
using ::paperdb::text::ThreadLocalAnalyzer;
using ::paperdb::text::Tokenize;
using ::paperdb::text::TokenSpan;

bool SameNode(const QueryNode& a, const QueryNode& b) {
  if (a.kind != b.kind || a.excluded != b.excluded || a.terms != b.terms ||
      a.position != b.position || a.slop != b.slop || a.field != b.field ||
      a.value != b.value || a.children.size() != b.children.size()) {
    return false;
  }
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (!SameNode(a.children[i], b.children[i])) return false;
  }
  return true;
}

bool IsContinuationByte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Code points in valid UTF-8 `text`.
size_t CodePoints(absl::string_view text) {
  size_t n = 0;
  for (char c : text) n += IsContinuationByte(c) ? 0 : 1;
  return n;
}

// Checks the invariants of a parsed node; returns its number of leaves.
size_t CheckNode(const QueryNode& node, size_t code_points, bool root) {
  FUZZ_CHECK(node.position <= code_points);
  FUZZ_CHECK(!(root && node.excluded));
  for (const std::string& term : node.terms) {
    FUZZ_CHECK(!term.empty());
    FUZZ_CHECK(!FindInvalidUtf8(term).has_value());
  }
  switch (node.kind) {
    case QueryNode::Kind::kTerm:
      FUZZ_CHECK(node.terms.size() == 1);
      return 1;
    case QueryNode::Kind::kPhrase:
      FUZZ_CHECK(node.terms.size() >= 2);
      FUZZ_CHECK(node.terms.size() <= kMaxPhraseTerms);
      FUZZ_CHECK(node.slop <= kMaxSlop);
      return 1;
    case QueryNode::Kind::kPrefix:
      FUZZ_CHECK(node.terms.size() == 1 || node.terms.size() == 2);
      return 1;
    case QueryNode::Kind::kField:
      FUZZ_CHECK(!node.field.empty() && !node.value.empty());
      return 1;
    case QueryNode::Kind::kAnd:
    case QueryNode::Kind::kOr: {
      FUZZ_CHECK(root || !node.children.empty());
      size_t leaves = 0;
      bool required = false;
      for (const QueryNode& child : node.children) {
        FUZZ_CHECK(node.kind == QueryNode::Kind::kAnd || !child.excluded);
        required |= !child.excluded;
        leaves += CheckNode(child, code_points, false);
      }
      // A nested conjunction of exclusions only is flattened or refused.
      FUZZ_CHECK(root || required);
      return leaves;
    }
  }
  FUZZ_CHECK(false);
  return 0;
}

void CheckQuery(absl::string_view text) {
  const absl::StatusOr<Query> query = ParseQuery(text);
  const bool valid_utf8 = !FindInvalidUtf8(text).has_value();
  if (!query.ok()) {
    FUZZ_CHECK(query.status().code() == absl::StatusCode::kInvalidArgument);
    FUZZ_CHECK(absl::StartsWith(query.status().message(), "query: "));
    return;
  }
  FUZZ_CHECK(text.size() <= kMaxQueryBytes);
  FUZZ_CHECK(valid_utf8);
  FUZZ_CHECK(query->root.kind == QueryNode::Kind::kAnd);
  FUZZ_CHECK(CheckNode(query->root, CodePoints(text), true) <= kMaxClauses);
  const absl::StatusOr<Query> again = ParseQuery(text);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(SameNode(again->root, query->root));
}

// tokenizer.h: a token is a run of letters, digits and combining marks.
bool IsWordChar(UChar32 c) {
  if (c < 0) return false;
  const uint32_t category = U_MASK(u_charType(c));
  return (category &
          (U_GC_L_MASK | U_GC_N_MASK | U_GC_MN_MASK | U_GC_MC_MASK)) != 0;
}

// tokenizer.h: inside a run, these join `left` and `right` into one token:
// an apostrophe between two letters, '.' or ',' (or their full-width
// forms) between two digits, and an
// invisible soft hyphen, zero-width space, (non-)joiner, word joiner or
// zero-width no-break space inside a word.
bool Joins(UChar32 left, UChar32 joiner, UChar32 right) {
  // A Han or Kana character is a token of its own.
  if (paperdb::text::IsUnspacedScript(left) ||
      paperdb::text::IsUnspacedScript(right)) {
    return false;
  }
  switch (joiner) {
    case 0x27:
    case 0x2019:
      return u_isalpha(left) && u_isalpha(right);
    case '.':
    case ',':
    case 0xFF0C:  // Full-width comma and full stop.
    case 0xFF0E:
      return u_isdigit(left) && u_isdigit(right);
    case 0x00AD:
    case 0x200B:
    case 0x200C:
    case 0x200D:
    case 0x2060:
    case 0xFEFF:
      return IsWordChar(left) && IsWordChar(right);
    default:
      return false;
  }
}

// The code point before / at byte `i` of valid UTF-8 `s`, or -1 at the ends.
UChar32 Before(const uint8_t* s, int32_t i) {
  if (i <= 0) return -1;
  UChar32 c;
  U8_PREV(s, 0, i, c);
  return c;
}
UChar32 At(const uint8_t* s, int32_t length, int32_t i) {
  if (i >= length) return -1;
  UChar32 c;
  U8_NEXT(s, i, length, c);
  return c;
}

// tokenizer.h: one to three asterisks between two letters are markdown
// emphasis inside a word. For the run of asterisks starting at byte `at`
// after the letter `left`: the byte after the run if it joins, else -1.
int32_t EmphasisEnd(const uint8_t* s, int32_t length, UChar32 left,
                    int32_t at) {
  if (left < 0 || !u_isalpha(left) || paperdb::text::IsUnspacedScript(left)) {
    return -1;
  }
  int32_t end = at;
  while (end < length && end - at < 3 && s[end] == '*') ++end;
  if (end == at) return -1;
  const UChar32 right = At(s, length, end);
  return right >= 0 && u_isalpha(right) &&
                 !paperdb::text::IsUnspacedScript(right)
             ? end
             : -1;
}

std::vector<TokenSpan> CheckTokenize(absl::string_view text, bool valid_utf8) {
  const std::vector<TokenSpan> spans = Tokenize(text);
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const int32_t length = static_cast<int32_t>(text.size());
  for (size_t i = 0; i < spans.size(); ++i) {
    const TokenSpan& span = spans[i];
    FUZZ_CHECK(span.start_byte < span.end_byte);
    FUZZ_CHECK(span.end_byte <= text.size());
    // Apart, unless a Han or Kana character stands next to its neighbour.
    if (i > 0) FUZZ_CHECK(span.start_byte >= spans[i - 1].end_byte);
    const absl::string_view token =
        text.substr(span.start_byte, span.end_byte - span.start_byte);
    FUZZ_CHECK(!FindInvalidUtf8(token).has_value());
    if (!valid_utf8) continue;  // Sequences decode alike either way in it.

    // A run: word characters, and joiners between the right neighbours;
    // or one Han or Kana character alone.
    const int32_t start = static_cast<int32_t>(span.start_byte);
    const int32_t end = static_cast<int32_t>(span.end_byte);
    const UChar32 first = At(s, length, start);
    if (paperdb::text::IsUnspacedScript(first)) {
      FUZZ_CHECK(end == start + static_cast<int32_t>(U8_LENGTH(first)));
      continue;
    }
    if (i > 0 && span.start_byte == spans[i - 1].end_byte) {
      FUZZ_CHECK(paperdb::text::IsUnspacedScript(Before(s, start)));
    }
    UChar32 previous = -1;
    for (int32_t at = start; at < end;) {
      const UChar32 c = At(s, length, at);
      if (c == '*') {
        const int32_t after = EmphasisEnd(s, length, previous, at);
        FUZZ_CHECK(after > at && after < end);
        at = after;
        continue;
      }
      U8_FWD_1(s, at, length);
      FUZZ_CHECK(!paperdb::text::IsUnspacedScript(c));
      if (!IsWordChar(c)) {
        FUZZ_CHECK(previous >= 0 && at < end);
        FUZZ_CHECK(Joins(previous, c, At(s, length, at)));
      }
      previous = c;
    }
    FUZZ_CHECK(IsWordChar(At(s, length, start)));
    FUZZ_CHECK(IsWordChar(Before(s, end)));

    // Maximal: neither a word character nor a joiner that would join with
    // the token lies on either side of it.
    const UChar32 left = Before(s, start);
    FUZZ_CHECK(!IsWordChar(left) || paperdb::text::IsUnspacedScript(left));
    if (left == '*') {
      // No letter before a run of at most three asterisks ending here.
      int32_t run = start;
      while (run > 0 && start - run < 4 && s[run - 1] == '*') --run;
      FUZZ_CHECK(start - run > 3 ||
                 EmphasisEnd(s, length, Before(s, run), run) != start);
    } else if (left >= 0) {
      const int32_t left_start = start - U8_LENGTH(left);
      FUZZ_CHECK(!Joins(Before(s, left_start), left, At(s, length, start)));
    }
    const UChar32 right = At(s, length, end);
    FUZZ_CHECK(!IsWordChar(right) || paperdb::text::IsUnspacedScript(right));
    if (right == '*') {
      FUZZ_CHECK(EmphasisEnd(s, length, Before(s, end), end) < 0);
    } else if (right >= 0) {
      FUZZ_CHECK(
          !Joins(Before(s, end), right, At(s, length, end + U8_LENGTH(right))));
    }
  }
  return spans;
}

void CheckAnalyze(absl::string_view text, bool valid_utf8,
                  const std::vector<TokenSpan>& spans) {
  const std::vector<AnalyzedToken> tokens = ThreadLocalAnalyzer().Analyze(text);
  size_t next_span = 0;
  OffsetConverter converter(text);
  size_t counted_to = 0;
  TextOffset expected;
  size_t words = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const AnalyzedToken& token = tokens[i];
    if (token.compound) {
      // Right after its first part: same start and position, longer span
      // ending where a later word ends.
      FUZZ_CHECK(i > 0 && !tokens[i - 1].compound);
      FUZZ_CHECK(token.start_byte == tokens[i - 1].start_byte);
      FUZZ_CHECK(token.position == tokens[i - 1].position);
      FUZZ_CHECK(token.end_byte > tokens[i - 1].end_byte);
      FUZZ_CHECK(token.term != tokens[i - 1].term);
      FUZZ_CHECK(!token.term.empty());
      FUZZ_CHECK(!FindInvalidUtf8(token.term).has_value());
      continue;
    }
    const AnalyzedToken* previous_word = nullptr;
    for (size_t j = i; j-- > 0;) {
      if (!tokens[j].compound) {
        previous_word = &tokens[j];
        break;
      }
    }
    while (next_span < spans.size() &&
           spans[next_span].end_byte <= token.start_byte) {
      ++next_span;
    }
    FUZZ_CHECK(next_span < spans.size());
    // A word's span is a tokenizer span, or a part of one where letters
    // meet digits ("wikitext2" -> "wikitext", "2"): an ASCII run.
    const TokenSpan& span = spans[next_span];
    FUZZ_CHECK(span.start_byte <= token.start_byte);
    FUZZ_CHECK(token.end_byte <= span.end_byte);
    if (span.start_byte != token.start_byte ||
        span.end_byte != token.end_byte) {
      for (uint32_t b = span.start_byte; b < span.end_byte; ++b) {
        FUZZ_CHECK(static_cast<unsigned char>(text[b]) < 0x80);
      }
    }
    if (token.end_byte == span.end_byte) ++next_span;
    FUZZ_CHECK(!token.term.empty());
    FUZZ_CHECK(!FindInvalidUtf8(token.term).has_value());
    FUZZ_CHECK(token.position >= words++);
    if (previous_word != nullptr) {
      FUZZ_CHECK(token.position > previous_word->position);
    }
    if (!valid_utf8) continue;
    for (uint32_t offset : {token.start_byte, token.end_byte}) {
      for (; counted_to < offset; ++counted_to) {
        const unsigned char c = static_cast<unsigned char>(text[counted_to]);
        if (IsContinuationByte(static_cast<char>(c))) continue;
        ++expected.code_point;
        expected.utf16 += c >= 0xF0 ? 2 : 1;
      }
      expected.byte = offset;
      const TextOffset converted = converter.Convert(offset);
      FUZZ_CHECK(converted.byte == expected.byte);
      FUZZ_CHECK(converted.code_point == expected.code_point);
      FUZZ_CHECK(converted.utf16 == expected.utf16);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  CheckQuery(text);
  const bool valid_utf8 = !FindInvalidUtf8(text).has_value();
  const std::vector<TokenSpan> spans = CheckTokenize(text, valid_utf8);
  CheckAnalyze(text, valid_utf8, spans);
  return 0;
}
