// A markup-free view of an abstract, with a map back to the original bytes.
// Abstracts carry Markdown emphasis ("**STanHop-Net**", "(**A**UEL)") and
// LaTeX ("\textbf{VWFormer}", "($\texttt{FedGP}$)"); the extractors match
// patterns on the plain text and report spans of the original.

#ifndef PAPERDB_EXTRACT_MARKUP_H_
#define PAPERDB_EXTRACT_MARKUP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "paperdb/extract/span.h"

namespace paperdb::extract {

// `text` minus markup characters. Immutable once built; holds no view.
struct PlainText {
  std::string text;  // The text without markup.
  // source[i] is the byte offset in the original of text[i];
  // source[text.size()] is the original's size.
  std::vector<uint32_t> source;
  // Bold passages ("**x**", "\textbf{x}", "\mathbf{x}"), in offsets of
  // `text`, in order.
  std::vector<Span> bold;

  // The original span of `plain` (offsets of `text`, plain.end > plain.begin):
  // from the original byte of its first character to just after that of its
  // last, so markup inside the span is included and markup around it is not.
  Span ToSource(Span plain) const;
};

// Removes '*' runs (Markdown emphasis), '$' (TeX math shifts), and the
// commands \textbf{ \textit{ \texttt{ \emph{ \text{ \mathrm{ \mathbf{ with
// their matching '}'. Other text, including other LaTeX commands, is kept.
PlainText StripMarkup(absl::string_view text);

}  // namespace paperdb::extract

#endif  // PAPERDB_EXTRACT_MARKUP_H_
