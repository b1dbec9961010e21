#include "paperdb/index/field_keys.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "paperdb/text/analyzer.h"

namespace paperdb::index {
namespace {

// Replaces NUL, the field-term separators and other control characters by
// spaces, collapses runs of spaces and trims.
std::string CollapseSpaces(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool space = false;
  for (char c : text) {
    const bool blank = static_cast<unsigned char>(c) <= 0x20 || c == '\x7f';
    if (blank) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::string FieldKey(absl::string_view value) {
  return CollapseSpaces(text::Analyzer::Fold(CollapseSpaces(value)));
}

std::string NameKey(absl::string_view name) {
  // U+2010 HYPHEN and U+2011 NON-BREAKING HYPHEN are hyphens too.
  std::string key = absl::StrReplaceAll(
      FieldKey(name), {{"\xE2\x80\x90", ""}, {"\xE2\x80\x91", ""}});
  std::erase_if(key, [](char c) {
    return c == ' ' || c == '-' || c == '_' || c == '.' || c == '/';
  });
  return key;
}

std::string FieldPrefix(absl::string_view field) {
  return absl::StrCat("\x01", field, ":");
}

std::string FieldTermPrefix(absl::string_view field, absl::string_view key) {
  return absl::StrCat("\x01", field, ":", key, "\x1f");
}

std::string FieldTerm(absl::string_view field, absl::string_view display,
                      absl::string_view key) {
  const std::string shown = CollapseSpaces(display);
  return absl::StrCat(FieldTermPrefix(field, key.empty() ? FieldKey(shown)
                                                         : CollapseSpaces(key)),
                      shown);
}

bool ParseFieldTerm(absl::string_view term, FieldTermParts* parts) {
  if (!IsFieldTerm(term)) return false;
  term.remove_prefix(1);
  const size_t colon = term.find(':');
  const size_t unit = term.find('\x1f');
  if (colon == absl::string_view::npos || unit == absl::string_view::npos ||
      unit < colon) {
    return false;
  }
  parts->field = term.substr(0, colon);
  parts->key = term.substr(colon + 1, unit - colon - 1);
  parts->display = term.substr(unit + 1);
  return true;
}

}  // namespace paperdb::index
