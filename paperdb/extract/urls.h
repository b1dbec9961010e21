// Finds http(s) URLs in abstracts.

#ifndef PAPERDB_EXTRACT_URLS_H_
#define PAPERDB_EXTRACT_URLS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "paperdb/extract/span.h"

namespace paperdb::extract {

// Byte spans of every http:// or https:// URL in `text`, in order, with
// repeats. A URL ends at whitespace or at one of <>"[]{}|\` (so markdown
// "[x](url)" and LaTeX "\url{...}" give the bare URL); trailing punctuation
// .,;:!?'* is trimmed, and so is a trailing ')' without a matching '(' inside
// the URL. A scheme with nothing after it is not a URL.
std::vector<Span> FindUrls(absl::string_view text);

// The URLs of FindUrls() as strings, in order of first appearance, without
// duplicates.
std::vector<std::string> ExtractUrls(absl::string_view text);

// Lower-cased host of `url` (without port or userinfo); empty if none.
std::string UrlHost(absl::string_view url);

}  // namespace paperdb::extract

#endif  // PAPERDB_EXTRACT_URLS_H_
