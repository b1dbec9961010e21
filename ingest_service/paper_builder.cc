#include "ingest_service/paper_builder.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "ingest_service/url_extractor.h"
#include "paperdb/common/hash.h"
#include "paperdb/text/analyzer.h"

namespace paperdb::ingest {

std::string PaperId(absl::string_view venue, int year,
                    absl::string_view abstract) {
  std::string id;
  for (char c : venue) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(c))) {
      id.push_back(absl::ascii_tolower(static_cast<unsigned char>(c)));
    }
  }
  if (year != 0) absl::StrAppend(&id, year);
  const std::string folded = text::Analyzer::Fold(abstract);
  std::string normalized;
  for (absl::string_view word : absl::StrSplit(
           folded, absl::ByAnyChar(" \t\r\n\f\v"), absl::SkipEmpty())) {
    if (!normalized.empty()) normalized.push_back(' ');
    absl::StrAppend(&normalized, word);
  }
  absl::StrAppend(&id, id.empty() ? "" : "-", Hash64Hex(normalized));
  return id;
}

v1::Paper BuildPaper(const ParsedAbstract& abstract,
                     absl::string_view file_name) {
  v1::Paper paper;
  paper.set_id(PaperId(abstract.venue, abstract.year, abstract.text));
  paper.set_name(absl::StrCat("papers/", paper.id()));
  paper.set_venue(abstract.venue);
  paper.set_year(abstract.year);
  paper.set_abstract(abstract.text);
  v1::Source* source = paper.add_sources();
  source->set_file_name(std::string(file_name));
  source->set_paragraph_ordinal(abstract.paragraph_ordinal);
  source->set_line_number(abstract.line_number);
  source->set_byte_offset(abstract.byte_offset);
  for (std::string& url : ExtractUrls(abstract.text)) {
    const std::string host = UrlHost(url);
    if (IsCodeHost(host)) {
      v1::CodeUrl* code = paper.add_code_urls();
      code->set_url(url);
      code->set_host(host);
    }
    paper.add_urls(std::move(url));
  }
  paper.set_word_count(static_cast<uint32_t>(
      std::vector<absl::string_view>(
          absl::StrSplit(abstract.text, ' ', absl::SkipEmpty()))
          .size()));
  paper.set_content_hash(Hash128Hex(abstract.text));
  return paper;
}

}  // namespace paperdb::ingest
