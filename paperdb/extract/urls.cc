#include "paperdb/extract/urls.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace paperdb::extract {
namespace {

bool EndsUrl(char c) {
  return absl::ascii_isspace(static_cast<unsigned char>(c)) ||
         absl::string_view("<>\"[]{}|\\`").find(c) != absl::string_view::npos;
}

bool IsTrailingPunctuation(char c) {
  return absl::string_view(".,;:!?'*").find(c) != absl::string_view::npos;
}

absl::string_view TrimUrl(absl::string_view url) {
  while (!url.empty()) {
    const char last = url.back();
    if (IsTrailingPunctuation(last)) {
      url.remove_suffix(1);
    } else if (last == ')' && std::count(url.begin(), url.end(), '(') <
                                  std::count(url.begin(), url.end(), ')')) {
      url.remove_suffix(1);
    } else {
      break;
    }
  }
  return url;
}

}  // namespace

std::vector<Span> FindUrls(absl::string_view text) {
  std::vector<Span> urls;
  size_t at = 0;
  while (true) {
    const size_t http = text.find("http", at);
    if (http == absl::string_view::npos) break;
    const absl::string_view rest = text.substr(http);
    size_t scheme = 0;
    if (absl::StartsWithIgnoreCase(rest, "https://")) {
      scheme = 8;
    } else if (absl::StartsWithIgnoreCase(rest, "http://")) {
      scheme = 7;
    }
    if (scheme == 0) {
      at = http + 4;
      continue;
    }
    size_t end = http + scheme;
    while (end < text.size() && !EndsUrl(text[end])) ++end;
    const absl::string_view url = TrimUrl(text.substr(http, end - http));
    if (url.size() > scheme) {
      urls.push_back({static_cast<uint32_t>(http),
                      static_cast<uint32_t>(http + url.size())});
    }
    at = end;
  }
  return urls;
}

std::vector<std::string> ExtractUrls(absl::string_view text) {
  std::vector<std::string> urls;
  absl::flat_hash_set<absl::string_view> seen;
  for (const Span span : FindUrls(text)) {
    const absl::string_view url = text.substr(span.begin, span.size());
    if (seen.insert(url).second) urls.emplace_back(url);
  }
  return urls;
}

std::string UrlHost(absl::string_view url) {
  const size_t scheme = url.find("://");
  if (scheme == absl::string_view::npos) return "";
  absl::string_view rest = url.substr(scheme + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const size_t at = rest.rfind('@'); at != absl::string_view::npos) {
    rest.remove_prefix(at + 1);
  }
  rest = rest.substr(0, rest.find(':'));
  return absl::AsciiStrToLower(rest);
}

}  // namespace paperdb::extract
