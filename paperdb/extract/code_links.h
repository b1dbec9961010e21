// Classifies the URLs of an abstract as code repositories, project pages or
// anonymous review links, and parses "owner/repo" from repository URLs.

#ifndef PAPERDB_EXTRACT_CODE_LINKS_H_
#define PAPERDB_EXTRACT_CODE_LINKS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "paperdb/extract/span.h"

namespace paperdb::extract {

enum class CodeLinkKind {
  kOther,            // Anything else (arxiv.org, aka.ms, doi.org, ...).
  kRepository,       // A code host: github.com, gitlab.com, bitbucket.org,
                     // huggingface.co, codeberg.org, gitee.com,
                     // sourceforge.net, raw.githubusercontent.com (and their
                     // subdomains, e.g. gist.github.com), except the
                     // host's own pages (github.com/topics/...,
                     // huggingface.co/papers/...), which are kOther.
  kProjectPage,      // *.github.io, *.gitlab.io, sites.google.com,
                     // *.pages.dev, *.netlify.app, *.vercel.app,
                     // *.readthedocs.io, or a "/~user" personal page.
  kAnonymousReview,  // anonymous.4open.science, or a code-host repository
                     // whose owner starts with "anon" (anonymous-iclr/x).
};

// One distinct URL of an abstract and what it points at.
struct CodeLink {
  Span span;               // First occurrence in the text, in bytes.
  std::string url;         // As written, trailing punctuation trimmed.
  std::string host;        // Lower case, no port or userinfo.
  std::string repository;  // "owner/repo" for kRepository when the URL
                           // names one (".git" and deeper paths such as
                           // "/tree/main" dropped; gitlab subgroups kept:
                           // "group/sub/repo"; huggingface "datasets/" and
                           // "spaces/" prefixes dropped); else empty.
  CodeLinkKind kind = CodeLinkKind::kOther;
};

// Classifies one URL; the returned span is {0, 0}.
CodeLink ClassifyUrl(absl::string_view url);

// Every distinct URL of `text` (FindUrls()), classified, in order of first
// appearance, including kOther links.
std::vector<CodeLink> FindCodeLinks(absl::string_view text);

}  // namespace paperdb::extract

#endif  // PAPERDB_EXTRACT_CODE_LINKS_H_
