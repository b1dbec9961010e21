// paperdb_extract_report FILE...: runs the extractors over every abstract of
// paper-list files (header line, then one abstract per blank-line-separated
// paragraph) and prints what each finds, then totals. A review tool: its
// output is read by people judging precision, not parsed.

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "paperdb/extract/acronyms.h"
#include "paperdb/extract/code_links.h"
#include "paperdb/extract/datasets.h"
#include "paperdb/extract/markup.h"
#include "paperdb/extract/methods.h"

namespace {

using paperdb::extract::CodeLinkKind;

// The abstracts of one paper-list file: paragraphs after the header line,
// wrapped lines joined with single spaces.
std::vector<std::string> ReadAbstracts(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::vector<std::string> abstracts;
  std::string current;
  bool header = true;
  for (absl::string_view line : absl::StrSplit(buffer.str(), '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) {
      if (!current.empty()) abstracts.push_back(std::move(current));
      current.clear();
      continue;
    }
    if (header) {
      header = false;
      continue;
    }
    if (!current.empty()) current.push_back(' ');
    current.append(line.data(), line.size());
  }
  if (!current.empty()) abstracts.push_back(std::move(current));
  return abstracts;
}

const char* KindName(CodeLinkKind kind) {
  switch (kind) {
    case CodeLinkKind::kRepository:
      return "REPOSITORY";
    case CodeLinkKind::kProjectPage:
      return "PROJECT_PAGE";
    case CodeLinkKind::kAnonymousReview:
      return "ANONYMOUS_REVIEW";
    case CodeLinkKind::kOther:
      break;
  }
  return "OTHER";
}

}  // namespace

int main(int argc, char** argv) {
  size_t papers = 0, links = 0, methods = 0, acronyms = 0, datasets = 0;
  for (int i = 1; i < argc; ++i) {
    for (const std::string& text : ReadAbstracts(argv[i])) {
      ++papers;
      const paperdb::extract::PlainText plain =
          paperdb::extract::StripMarkup(text);
      std::cout << "== " << argv[i] << " #" << papers << ": "
                << text.substr(0, 70) << "\n";
      for (const auto& link : paperdb::extract::FindCodeLinks(text)) {
        ++links;
        std::cout << "  link    " << KindName(link.kind) << " " << link.host
                  << " " << link.repository << " " << link.url << "\n";
      }
      std::vector<std::string> names;
      for (const auto& m : paperdb::extract::FindMethods(plain)) {
        names.push_back(m.name);
      }
      methods += names.size();
      if (!names.empty()) {
        std::cout << "  methods " << absl::StrJoin(names, " | ") << "\n";
      }
      const auto found = paperdb::extract::FindAcronyms(plain);
      acronyms += found.size();
      for (const auto& a : found) {
        std::cout << "  acronym " << a.acronym << " = " << a.expansion << "\n";
      }
      names.clear();
      for (const auto& d : paperdb::extract::FindDatasets(plain, found)) {
        names.push_back(d.name + " [" +
                        text.substr(d.span.begin, d.span.size()) + "]");
      }
      datasets += names.size();
      if (!names.empty()) {
        std::cout << "  datasets " << absl::StrJoin(names, " | ") << "\n";
      }
    }
  }
  std::cout << "total: " << papers << " abstracts, " << links << " links, "
            << methods << " methods, " << acronyms << " acronyms, " << datasets
            << " datasets\n";
  return 0;
}
