#include "ingest_service/paper_builder.h"

#include <algorithm>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/hash.h"
#include "paperdb/extract/acronyms.h"
#include "paperdb/extract/code_links.h"
#include "paperdb/extract/datasets.h"
#include "paperdb/extract/markup.h"
#include "paperdb/extract/methods.h"
#include "paperdb/extract/urls.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/text/utf8.h"

namespace paperdb::ingest {
namespace {

// Converts byte spans of one text to v1::TextSpan (bytes, code points,
// UTF-16) in one sweep over the text: Add() every span's offsets, then
// Fill().
class SpanConverter {
 public:
  explicit SpanConverter(absl::string_view text) : text_(text) {}

  void Add(extract::Span span) {
    offsets_.push_back(span.begin);
    offsets_.push_back(span.end);
  }

  void Fill(extract::Span span, v1::TextSpan* out) {
    if (!converted_) Convert();
    const text::TextOffset& start = Find(span.begin);
    const text::TextOffset& end = Find(span.end);
    out->set_start_byte(start.byte);
    out->set_end_byte(end.byte);
    out->set_start_code_point(start.code_point);
    out->set_end_code_point(end.code_point);
    out->set_start_utf16(start.utf16);
    out->set_end_utf16(end.utf16);
  }

 private:
  void Convert() {
    std::sort(offsets_.begin(), offsets_.end());
    offsets_.erase(std::unique(offsets_.begin(), offsets_.end()),
                   offsets_.end());
    text::OffsetConverter converter(text_);
    for (const uint32_t offset : offsets_) {
      converted_offsets_.push_back(converter.Convert(offset));
    }
    converted_ = true;
  }

  // REQUIRES: `byte` was added.
  const text::TextOffset& Find(uint32_t byte) const {
    const size_t i = static_cast<size_t>(
        std::lower_bound(offsets_.begin(), offsets_.end(), byte) -
        offsets_.begin());
    return converted_offsets_[i];
  }

  absl::string_view text_;
  std::vector<uint32_t> offsets_;
  std::vector<text::TextOffset> converted_offsets_;
  bool converted_ = false;
};

v1::CodeUrlKind ToProto(extract::CodeLinkKind kind) {
  switch (kind) {
    case extract::CodeLinkKind::kRepository:
      return v1::CODE_URL_KIND_REPOSITORY;
    case extract::CodeLinkKind::kProjectPage:
      return v1::CODE_URL_KIND_PROJECT_PAGE;
    case extract::CodeLinkKind::kAnonymousReview:
      return v1::CODE_URL_KIND_ANONYMOUS_REVIEW;
    case extract::CodeLinkKind::kOther:
      break;
  }
  return v1::CODE_URL_KIND_UNSPECIFIED;
}

// Fills code_urls, has_code, methods, datasets and acronyms.
void AddExtractions(absl::string_view text, v1::Paper* paper) {
  for (const extract::CodeLink& link : extract::FindCodeLinks(text)) {
    if (link.kind == extract::CodeLinkKind::kOther) continue;
    v1::CodeUrl* code = paper->add_code_urls();
    code->set_url(link.url);
    code->set_host(link.host);
    code->set_repository(link.repository);
    code->set_kind(ToProto(link.kind));
    if (link.kind == extract::CodeLinkKind::kRepository ||
        link.kind == extract::CodeLinkKind::kAnonymousReview) {
      paper->set_has_code(true);
    }
  }
  const extract::PlainText plain = extract::StripMarkup(text);
  const std::vector<extract::Acronym> acronyms = extract::FindAcronyms(plain);
  const std::vector<extract::Mention> methods = extract::FindMethods(plain);
  const std::vector<extract::Mention> datasets =
      extract::FindDatasets(plain, acronyms);
  SpanConverter spans(text);
  for (const extract::Acronym& a : acronyms) {
    spans.Add(a.acronym_span);
    spans.Add(a.expansion_span);
  }
  for (const extract::Mention& m : methods) spans.Add(m.span);
  for (const extract::Mention& m : datasets) spans.Add(m.span);
  for (const extract::Mention& m : methods) {
    v1::Mention* mention = paper->add_methods();
    mention->set_name(m.name);
    spans.Fill(m.span, mention->mutable_span());
  }
  for (const extract::Mention& m : datasets) {
    v1::Mention* mention = paper->add_datasets();
    mention->set_name(m.name);
    spans.Fill(m.span, mention->mutable_span());
  }
  for (const extract::Acronym& a : acronyms) {
    v1::AcronymDefinition* definition = paper->add_acronyms();
    definition->set_acronym(a.acronym);
    definition->set_expansion(a.expansion);
    spans.Fill(a.acronym_span, definition->mutable_acronym_span());
    spans.Fill(a.expansion_span, definition->mutable_expansion_span());
  }
}

}  // namespace

std::string PaperId(absl::string_view venue, int year,
                    absl::string_view abstract) {
  // A venue is named by the ASCII letters and digits of its folded form
  // (NFKC, case: "ＩＣＬＲ" is "iclr"); one folding to anything else is also
  // hashed with the abstract below.
  auto all_alnum = [](absl::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) {
      return absl::ascii_isalnum(static_cast<unsigned char>(c));
    });
  };
  const std::string folded_venue = all_alnum(venue)
                                       ? absl::AsciiStrToLower(venue)
                                       : text::Analyzer::Fold(venue);
  const bool plain_venue = all_alnum(folded_venue);
  std::string id;
  for (const char c : folded_venue) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(c))) id.push_back(c);
  }
  if (year != 0) absl::StrAppend(&id, year);
  // The folded words, joined by single spaces: runs of ASCII white space
  // become one space, and none is kept at either end. (An ASCII abstract's
  // folded form is its lower case, made here in the same pass.)
  const bool ascii = text::IsAscii(abstract);
  std::string normalized =
      ascii ? std::string(abstract) : text::Analyzer::Fold(abstract);
  size_t out = 0;
  bool pending_space = false;
  for (const char c : normalized) {
    if (absl::ascii_isspace(static_cast<unsigned char>(c))) {
      pending_space = out > 0;
      continue;
    }
    if (pending_space) normalized[out++] = ' ';
    pending_space = false;
    normalized[out++] =
        ascii ? absl::ascii_tolower(static_cast<unsigned char>(c)) : c;
  }
  normalized.resize(out);
  // The letters and digits above do not tell every venue apart ("Neur IPS"
  // and "NeurIPS", "计算机学报" and "软件学报"): a venue of other characters
  // is hashed too, folded, before a line break no normalized abstract holds.
  if (!plain_venue) normalized.insert(0, absl::StrCat(folded_venue, "\n"));
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
  for (std::string& url : extract::ExtractUrls(abstract.text)) {
    paper.add_urls(std::move(url));
  }
  AddExtractions(abstract.text, &paper);
  // Runs of bytes other than ' '.
  uint32_t words = 0;
  char previous = ' ';
  for (const char c : abstract.text) {
    words += c != ' ' && previous == ' ';
    previous = c;
  }
  paper.set_word_count(words);
  paper.set_content_hash(Hash128Hex(abstract.text));
  return paper;
}

}  // namespace paperdb::ingest
