// Finds URLs in abstracts and recognises links to code.

#ifndef PAPERDB_INGEST_SERVICE_URL_EXTRACTOR_H_
#define PAPERDB_INGEST_SERVICE_URL_EXTRACTOR_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace paperdb::ingest {

// Every http:// or https:// URL in `text`, in order of first appearance,
// without duplicates. A URL ends at whitespace or at one of <>"[]{}|\`
// (so markdown "[x](url)" and LaTeX "\url{...}" give the bare URL); trailing
// punctuation .,;:!?'* is trimmed, and so is a trailing ')' without a
// matching '(' inside the URL.
std::vector<std::string> ExtractUrls(absl::string_view text);

// Lower-cased host of `url` (without port or userinfo); empty if none.
std::string UrlHost(absl::string_view url);

// True if `host` (lower-case) is a code host: github.com, gitlab.com,
// bitbucket.org, huggingface.co, codeberg.org, sourceforge.net, gitee.com,
// or anonymous.4open.science (anonymous code for review), or a subdomain of
// one of the first seven (gist.github.com). GitHub Pages (*.github.io) are
// project pages, not code.
bool IsCodeHost(absl::string_view host);

}  // namespace paperdb::ingest

#endif  // PAPERDB_INGEST_SERVICE_URL_EXTRACTOR_H_
