#include "paperdb/index/field_terms.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "paperdb/text/analyzer.h"

namespace paperdb::index {
namespace {

void AddUnique(std::string term, std::vector<std::string>* terms) {
  if (std::find(terms->begin(), terms->end(), term) == terms->end()) {
    terms->push_back(std::move(term));
  }
}

}  // namespace

std::vector<std::string> FieldTermsOf(const v1::Paper& paper) {
  std::vector<std::string> terms;
  if (!FieldKey(paper.venue()).empty()) {
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
