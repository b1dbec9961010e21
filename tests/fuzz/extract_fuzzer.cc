// libFuzzer target for the extractors of paperdb/extract (markup, urls,
// code links, acronyms, methods, datasets) on arbitrary bytes.
//
// Besides ASan and UBSan findings, the target traps when a documented
// contract does not hold:
//  - StripMarkup: `source` has one more entry than `text`, strictly
//    increasing, ending at the input's size; bold spans are non-empty and
//    inside `text`.
//  - Every span an extractor returns is non-empty and inside the input; in
//    valid UTF-8 it starts and ends at character boundaries.
//  - FindUrls spans start with "http"; names and acronyms are non-empty;
//    FindCodeLinks urls are distinct.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "paperdb/extract/acronyms.h"
#include "paperdb/extract/code_links.h"
#include "paperdb/extract/datasets.h"
#include "paperdb/extract/markup.h"
#include "paperdb/extract/methods.h"
#include "paperdb/extract/urls.h"
#include "paperdb/text/utf8.h"

namespace {

using paperdb::extract::Span;

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "extract_fuzzer: contract broken: %s\n", what);
    std::abort();
  }
}

bool IsContinuation(absl::string_view text, uint32_t i) {
  return i < text.size() &&
         (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80;
}

void CheckSpan(absl::string_view text, bool valid_utf8, Span span,
               const char* what) {
  Check(span.begin < span.end && span.end <= text.size(), what);
  if (valid_utf8) {
    Check(!IsContinuation(text, span.begin) && !IsContinuation(text, span.end),
          what);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  const bool valid = !paperdb::text::FindInvalidUtf8(text).has_value();

  const paperdb::extract::PlainText plain = paperdb::extract::StripMarkup(text);
  Check(plain.source.size() == plain.text.size() + 1, "source size");
  Check(plain.source.back() == text.size(), "source end");
  for (size_t i = 1; i < plain.source.size(); ++i) {
    Check(plain.source[i - 1] < plain.source[i], "source increasing");
  }
  for (const Span bold : plain.bold) {
    Check(bold.begin < bold.end && bold.end <= plain.text.size(), "bold");
  }

  for (const Span url : paperdb::extract::FindUrls(text)) {
    CheckSpan(text, valid, url, "url span");
    Check(absl::StartsWithIgnoreCase(text.substr(url.begin), "http"),
          "url starts with http");
  }
  std::set<std::string> urls;
  for (const auto& link : paperdb::extract::FindCodeLinks(text)) {
    CheckSpan(text, valid, link.span, "code link span");
    Check(urls.insert(link.url).second, "code links distinct");
  }
  const auto acronyms = paperdb::extract::FindAcronyms(plain);
  for (const auto& a : acronyms) {
    Check(!a.acronym.empty() && !a.expansion.empty(), "acronym non-empty");
    CheckSpan(text, valid, a.acronym_span, "acronym span");
    CheckSpan(text, valid, a.expansion_span, "expansion span");
  }
  for (const auto& m : paperdb::extract::FindMethods(plain)) {
    Check(!m.name.empty(), "method name");
    CheckSpan(text, valid, m.span, "method span");
  }
  for (const auto& d : paperdb::extract::FindDatasets(plain, acronyms)) {
    Check(!d.name.empty(), "dataset name");
    CheckSpan(text, valid, d.span, "dataset span");
  }
  return 0;
}
