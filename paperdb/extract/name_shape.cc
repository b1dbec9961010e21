#include "paperdb/extract/name_shape.h"

#include "absl/strings/ascii.h"

namespace paperdb::extract {
namespace {

bool IsDigit(char c) {
  return absl::ascii_isdigit(static_cast<unsigned char>(c));
}
bool IsUpper(char c) {
  return absl::ascii_isupper(static_cast<unsigned char>(c));
}
bool IsLower(char c) {
  return absl::ascii_islower(static_cast<unsigned char>(c));
}
bool IsAlpha(char c) {
  return absl::ascii_isalpha(static_cast<unsigned char>(c));
}

// Capitalized words that start sentences or noun phrases, never names.
bool IsFunctionWord(absl::string_view token) {
  static constexpr absl::string_view kWords[] = {
      "A",    "An",   "The",   "This",  "That", "These", "Those", "Our",
      "We",   "It",   "Its",   "In",    "On",   "For",   "To",    "With",
      "By",   "From", "As",    "And",   "Or",   "But",   "Here",  "There",
      "Non",  "New",  "Novel", "First", "Code", "Codes", "Both",  "Each",
      "Such", "Some", "All",   "Any",   "One",  "Two",   "Three", "Data"};
  for (absl::string_view word : kWords) {
    if (token == word) return true;
  }
  return false;
}

}  // namespace

bool IsNameChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' ||
         c == '_' || c == '+';
}

Span NameTokenAt(absl::string_view text, size_t pos) {
  size_t end = pos;
  while (end < text.size()) {
    if (IsNameChar(text[end])) {
      ++end;
    } else if (text[end] == '.' && end > pos && IsDigit(text[end - 1]) &&
               end + 1 < text.size() && IsDigit(text[end + 1])) {
      ++end;
    } else {
      break;
    }
  }
  while (end > pos && (text[end - 1] == '-' || text[end - 1] == '_' ||
                       text[end - 1] == '+')) {
    --end;
  }
  return {static_cast<uint32_t>(pos), static_cast<uint32_t>(end)};
}

NameShape ClassifyName(absl::string_view token) {
  if (token.size() < 2 || !IsAlpha(token[0])) return NameShape::kNone;
  int upper = 0;
  bool digit = false;
  bool lower_then_upper = false;
  for (size_t i = 0; i < token.size(); ++i) {
    if (IsUpper(token[i])) {
      ++upper;
      if (i > 0 && IsLower(token[i - 1])) lower_then_upper = true;
    }
    if (IsDigit(token[i])) digit = true;
  }
  if (upper >= 2 || lower_then_upper || (digit && upper >= 1)) {
    return NameShape::kName;
  }
  if (upper == 1 && IsUpper(token[0]) && !digit && !IsFunctionWord(token)) {
    return NameShape::kCapitalized;
  }
  return NameShape::kNone;
}

}  // namespace paperdb::extract
