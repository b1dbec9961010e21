#include "paperdb/extract/code_links.h"

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "paperdb/extract/urls.h"

namespace paperdb::extract {
namespace {

// True if `host` is `domain` or a subdomain of it.
bool HostIs(absl::string_view host, absl::string_view domain) {
  if (host == domain) return true;
  return host.size() > domain.size() && absl::EndsWith(host, domain) &&
         host[host.size() - domain.size() - 1] == '.';
}

bool IsCodeHost(absl::string_view host) {
  for (absl::string_view code_host :
       {"github.com", "gitlab.com", "bitbucket.org", "huggingface.co",
        "codeberg.org", "gitee.com", "sourceforge.net",
        "raw.githubusercontent.com"}) {
    if (HostIs(host, code_host)) return true;
  }
  return false;
}

bool IsProjectPageHost(absl::string_view host) {
  if (host == "sites.google.com") return true;
  for (absl::string_view suffix :
       {".github.io", ".gitlab.io", ".pages.dev", ".netlify.app", ".vercel.app",
        ".readthedocs.io"}) {
    if (host.size() > suffix.size() && absl::EndsWith(host, suffix)) {
      return true;
    }
  }
  return false;
}

// The URL's path without query or fragment and without the leading '/'.
absl::string_view UrlPath(absl::string_view url) {
  const size_t scheme = url.find("://");
  if (scheme == absl::string_view::npos) return "";
  absl::string_view rest = url.substr(scheme + 3);
  const size_t slash = rest.find('/');
  if (slash == absl::string_view::npos) return "";
  rest.remove_prefix(slash + 1);
  return rest.substr(0, rest.find_first_of("?#"));
}

bool IsRepoNameChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' ||
         c == '_' || c == '.';
}

bool IsRepoName(absl::string_view name) {
  if (name.empty() || name == "." || name == "..") return false;
  for (char c : name) {
    if (!IsRepoNameChar(c)) return false;
  }
  return true;
}

// True if the first path segment of a code-host URL names one of the host's
// own pages (github.com/topics/..., huggingface.co/papers/...), not code.
bool IsSitePage(const std::vector<absl::string_view>& segments) {
  if (segments.empty()) return false;
  static constexpr absl::string_view kPages[] = {
      "orgs",   "topics",      "features", "marketplace", "sponsors",
      "about",  "collections", "explore",  "search",      "settings",
      "papers", "docs",        "blog",     "login",       "pricing"};
  for (absl::string_view page : kPages) {
    if (segments[0] == page) return true;
  }
  return false;
}

// "owner/repo" from the path segments of a code-host URL, or "".
std::string ParseRepository(absl::string_view host,
                            std::vector<absl::string_view> segments) {
  if (HostIs(host, "huggingface.co") && !segments.empty() &&
      (segments[0] == "datasets" || segments[0] == "spaces" ||
       segments[0] == "models")) {
    segments.erase(segments.begin());
  }
  if (HostIs(host, "sourceforge.net")) {
    if (segments.size() >= 2 && segments[0] == "projects" &&
        IsRepoName(segments[1])) {
      return std::string(segments[1]);
    }
    return "";
  }
  size_t count = 2;
  if (HostIs(host, "gitlab.com")) {
    // Subgroups: everything before the "-" segment (gitlab's "/-/tree/...").
    count = 0;
    while (count < segments.size() && segments[count] != "-") ++count;
  }
  if (count < 2 || segments.size() < count) return "";
  std::vector<absl::string_view> parts(segments.begin(),
                                       segments.begin() + count);
  absl::string_view& repo = parts.back();
  if (absl::EndsWithIgnoreCase(repo, ".git")) repo.remove_suffix(4);
  for (absl::string_view part : parts) {
    if (!IsRepoName(part)) return "";
  }
  return absl::StrJoin(parts, "/");
}

}  // namespace

CodeLink ClassifyUrl(absl::string_view url) {
  CodeLink link;
  link.url = std::string(url);
  link.host = UrlHost(url);
  const absl::string_view path = UrlPath(url);
  const std::vector<absl::string_view> segments =
      absl::StrSplit(path, '/', absl::SkipEmpty());
  if (link.host == "anonymous.4open.science") {
    link.kind = CodeLinkKind::kAnonymousReview;
  } else if (IsCodeHost(link.host)) {
    if (!segments.empty() && absl::StartsWithIgnoreCase(segments[0], "anon")) {
      link.kind = CodeLinkKind::kAnonymousReview;
    } else if (!IsSitePage(segments)) {
      link.kind = CodeLinkKind::kRepository;
      link.repository = ParseRepository(link.host, segments);
    }
  } else if (IsProjectPageHost(link.host) ||
             (!segments.empty() && absl::StartsWith(segments[0], "~"))) {
    link.kind = CodeLinkKind::kProjectPage;
  }
  return link;
}

std::vector<CodeLink> FindCodeLinks(absl::string_view text) {
  std::vector<CodeLink> links;
  absl::flat_hash_set<absl::string_view> seen;
  for (const Span span : FindUrls(text)) {
    const absl::string_view url = text.substr(span.begin, span.size());
    if (!seen.insert(url).second) continue;
    CodeLink link = ClassifyUrl(url);
    link.span = span;
    links.push_back(std::move(link));
  }
  return links;
}

}  // namespace paperdb::extract
