#include "paperdb/extract/markup.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/match.h"

namespace paperdb::extract {
namespace {

enum class Brace { kKept, kDropped, kDroppedBold };

// Length of a dropped command such as "\textbf{" at the start of `rest`, and
// whether it makes bold; 0 if `rest` does not start with one.
size_t DroppedCommand(absl::string_view rest, bool* bold) {
  static constexpr struct {
    absl::string_view name;
    bool bold;
  } kCommands[] = {{"\\textbf{", true},  {"\\mathbf{", true},
                   {"\\textit{", false}, {"\\texttt{", false},
                   {"\\emph{", false},   {"\\text{", false},
                   {"\\mathrm{", false}};
  for (const auto& command : kCommands) {
    if (absl::StartsWith(rest, command.name)) {
      *bold = command.bold;
      return command.name.size();
    }
  }
  return 0;
}

// True for the bytes StripMarkup() may drop or act on.
bool IsMarkupByte(char c) {
  return c == '*' || c == '$' || c == '\\' || c == '{' || c == '}';
}

}  // namespace

Span PlainText::ToSource(Span plain) const {
  return {source[plain.begin], source[plain.end - 1] + 1};
}

PlainText StripMarkup(absl::string_view text) {
  PlainText plain;
  plain.text.reserve(text.size());
  plain.source.reserve(text.size() + 1);
  std::vector<Brace> braces;
  std::vector<uint32_t> bold_starts;  // Open \textbf{ passages.
  bool in_markdown_bold = false;
  uint32_t markdown_bold_start = 0;
  const auto here = [&plain] {
    return static_cast<uint32_t>(plain.text.size());
  };
  size_t i = 0;
  while (i < text.size()) {
    // A run of bytes that are not markup is copied as it is.
    size_t run_end = i;
    while (run_end < text.size() && !IsMarkupByte(text[run_end])) ++run_end;
    if (run_end > i) {
      plain.text.append(text.data() + i, run_end - i);
      const size_t filled = plain.source.size();
      plain.source.resize(filled + (run_end - i));
      std::iota(plain.source.begin() + filled, plain.source.end(),
                static_cast<uint32_t>(i));
      i = run_end;
      continue;
    }
    const char c = text[i];
    if (c == '*') {
      size_t run = 0;
      while (i + run < text.size() && text[i + run] == '*') ++run;
      if (run == 2) {
        if (in_markdown_bold) {
          if (here() > markdown_bold_start) {
            plain.bold.push_back({markdown_bold_start, here()});
          }
        } else {
          markdown_bold_start = here();
        }
        in_markdown_bold = !in_markdown_bold;
      }
      i += run;
      continue;
    }
    if (c == '$') {
      ++i;
      continue;
    }
    if (c == '\\') {
      bool bold = false;
      if (const size_t n = DroppedCommand(text.substr(i), &bold); n > 0) {
        braces.push_back(bold ? Brace::kDroppedBold : Brace::kDropped);
        if (bold) bold_starts.push_back(here());
        i += n;
        continue;
      }
    }
    if (c == '{') braces.push_back(Brace::kKept);
    if (c == '}' && !braces.empty()) {
      const Brace brace = braces.back();
      braces.pop_back();
      if (brace != Brace::kKept) {
        if (brace == Brace::kDroppedBold && !bold_starts.empty()) {
          if (here() > bold_starts.back()) {
            plain.bold.push_back({bold_starts.back(), here()});
          }
          bold_starts.pop_back();
        }
        ++i;
        continue;
      }
    }
    plain.text.push_back(c);
    plain.source.push_back(static_cast<uint32_t>(i));
    ++i;
  }
  plain.source.push_back(static_cast<uint32_t>(text.size()));
  // Nested bold (\textbf{\textbf{x}}) closes inner passages first.
  std::sort(plain.bold.begin(), plain.bold.end(),
            [](Span a, Span b) { return a.begin < b.begin; });
  return plain;
}

}  // namespace paperdb::extract
