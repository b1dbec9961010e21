#include "paperdb/index/field_terms.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
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

void AddUnique(std::string term, std::vector<std::string>* terms) {
  if (std::find(terms->begin(), terms->end(), term) == terms->end()) {
    terms->push_back(std::move(term));
  }
}

}  // namespace

std::string FieldKey(absl::string_view value) {
  return CollapseSpaces(text::Analyzer::Fold(CollapseSpaces(value)));
}

std::string NameKey(absl::string_view name) {
  std::string key = FieldKey(name);
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

std::vector<std::string> FieldTermsOf(const v1::Paper& paper) {
  std::vector<std::string> terms;
  if (!CollapseSpaces(paper.venue()).empty()) {
    AddUnique(FieldTerm(kVenueField, paper.venue()), &terms);
  }
  if (paper.year() > 0 && paper.year() <= 9999) {
    AddUnique(FieldTerm(kYearField, absl::StrFormat("%04d", paper.year())),
              &terms);
  }
  if (paper.has_code()) AddUnique(FieldTerm(kHasField, "code"), &terms);
  for (const v1::CodeUrl& code : paper.code_urls()) {
    if (!code.host().empty()) {
      AddUnique(FieldTerm(kHostField, code.host()), &terms);
    }
  }
  for (const v1::Mention& method : paper.methods()) {
    const std::string key = NameKey(method.name());
    if (!key.empty()) {
      AddUnique(FieldTerm(kMethodField, method.name(), key), &terms);
    }
  }
  for (const v1::Mention& dataset : paper.datasets()) {
    const std::string key = NameKey(dataset.name());
    if (!key.empty()) {
      AddUnique(FieldTerm(kDatasetField, dataset.name(), key), &terms);
    }
  }
  for (const v1::AcronymDefinition& acronym : paper.acronyms()) {
    // The acronym's key is its analyzed term ("LLMs" -> "llm"), so a query
    // word meets it however it is inflected.
    const std::vector<text::AnalyzedToken> acronym_tokens =
        text::ThreadLocalAnalyzer().Analyze(acronym.acronym());
    if (acronym_tokens.size() != 1) continue;
    const std::string& short_form = acronym_tokens[0].term;
    std::string long_form;
    for (const text::AnalyzedToken& token :
         text::ThreadLocalAnalyzer().Analyze(acronym.expansion())) {
      if (token.stopword || token.compound) continue;
      if (!long_form.empty()) long_form += ' ';
      long_form += token.term;
    }
    if (short_form.empty() || long_form.empty() || long_form == short_form) {
      continue;
    }
    AddUnique(FieldTerm(kAcronymField, acronym.expansion(), short_form),
              &terms);
    AddUnique(FieldTerm(kExpansionField, acronym.acronym(), long_form), &terms);
  }
  return terms;
}

}  // namespace paperdb::index
