#include "paperdb/search/highlighter.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/text/utf8.h"

namespace paperdb::search {
namespace {

std::vector<ByteSpan> MergeSpans(std::vector<ByteSpan> spans) {
  std::sort(spans.begin(), spans.end(),
            [](const ByteSpan& a, const ByteSpan& b) {
              // Ties go to the earlier unit, whatever the input order.
              if (a.start != b.start) return a.start < b.start;
              if (a.end != b.end) return a.end > b.end;
              return a.clause < b.clause;
            });
  std::vector<ByteSpan> merged;
  for (const ByteSpan& span : spans) {
    if (!merged.empty() && span.start < merged.back().end) {
      merged.back().end = std::max(merged.back().end, span.end);
    } else {
      merged.push_back(span);
    }
  }
  return merged;
}

bool IsSpaceByte(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

}  // namespace

std::vector<ByteSpan> Highlight(absl::string_view text,
                                const std::vector<MatchUnit>& units) {
  const std::vector<text::AnalyzedToken> tokens =
      text::ThreadLocalAnalyzer().Analyze(text);
  // Tokens by position: a joined compound shares its first part's.
  absl::flat_hash_map<uint32_t, std::vector<size_t>> at;
  for (size_t i = 0; i < tokens.size(); ++i)
    at[tokens[i].position].push_back(i);
  auto token_at = [&](uint32_t position,
                      const std::string& term) -> const text::AnalyzedToken* {
    auto it = at.find(position);
    if (it == at.end()) return nullptr;
    for (size_t i : it->second) {
      if (tokens[i].term == term) return &tokens[i];
    }
    return nullptr;
  };
  std::vector<ByteSpan> spans;
  for (uint32_t u = 0; u < units.size(); ++u) {
    const MatchUnit& unit = units[u];
    const size_t n = unit.terms.size();
    const uint32_t weight =
        unit.weight > 0 ? unit.weight : static_cast<uint32_t>(n);
    if (n == 0) continue;
    if (n == 1 || unit.slop == 0) {
      for (const text::AnalyzedToken& first : tokens) {
        if (first.term != unit.terms[0]) continue;
        const text::AnalyzedToken* last = &first;
        for (size_t k = 1; k < n && last != nullptr; ++k) {
          last = token_at(first.position + static_cast<uint32_t>(k),
                          unit.terms[k]);
        }
        if (last != nullptr) {
          spans.push_back({first.start_byte,
                           std::max(first.end_byte, last->end_byte), u,
                           weight});
        }
      }
      continue;
    }
    // Sloppy phrase: each window of at most n - 1 + slop positions holding
    // every term marks the occurrences inside it.
    const uint32_t limit = static_cast<uint32_t>(n) - 1 + unit.slop;
    for (const text::AnalyzedToken& first : tokens) {
      if (std::find(unit.terms.begin(), unit.terms.end(), first.term) ==
          unit.terms.end()) {
        continue;
      }
      std::vector<const text::AnalyzedToken*> found;
      for (size_t k = 0; k < n; ++k) {
        // A word's j-th place in the phrase takes its j-th occurrence.
        const std::string& term = unit.terms[k];
        size_t skip = static_cast<size_t>(
            std::count(unit.terms.begin(), unit.terms.begin() + k, term));
        const text::AnalyzedToken* hit = nullptr;
        for (uint32_t p = first.position;
             p <= first.position + limit && hit == nullptr; ++p) {
          hit = token_at(p, term);
          if (hit != nullptr && skip > 0) {
            --skip;
            hit = nullptr;
          }
        }
        if (hit == nullptr) break;
        found.push_back(hit);
      }
      if (found.size() != n) continue;
      for (const text::AnalyzedToken* hit : found) {
        spans.push_back({hit->start_byte, hit->end_byte, u, weight});
      }
    }
  }
  return MergeSpans(std::move(spans));
}

std::vector<ByteSpan> HighlightAt(
    const index::TokenSpans& spans, const std::vector<MatchUnit>& units,
    const absl::flat_hash_map<std::string, std::vector<uint32_t>>& positions) {
  static const std::vector<uint32_t> kNone;
  auto positions_of = [&](const std::string& term) -> const auto& {
    auto it = positions.find(term);
    return it == positions.end() ? kNone : it->second;
  };
  auto has = [](const std::vector<uint32_t>& sorted, uint32_t position) {
    return std::binary_search(sorted.begin(), sorted.end(), position);
  };
  std::vector<ByteSpan> out;
  for (uint32_t u = 0; u < units.size(); ++u) {
    const MatchUnit& unit = units[u];
    const size_t n = unit.terms.size();
    const uint32_t weight =
        unit.weight > 0 ? unit.weight : static_cast<uint32_t>(n);
    if (n == 0) continue;
    if (n == 1 || unit.slop == 0) {
      for (const uint32_t p : positions_of(unit.terms[0])) {
        bool whole = true;
        for (size_t k = 1; k < n && whole; ++k) {
          whole =
              has(positions_of(unit.terms[k]), p + static_cast<uint32_t>(k));
        }
        if (!whole) continue;
        const auto first = spans.Span(p, unit.terms[0]);
        const auto last =
            spans.Span(p + static_cast<uint32_t>(n - 1), unit.terms[n - 1]);
        if (first.first == first.second) continue;
        out.push_back(
            {first.first, std::max(first.second, last.second), u, weight});
      }
      continue;
    }
    // Sloppy phrase, as in Highlight(): each window of at most n - 1 + slop
    // positions from an occurrence of any of its terms, holding every term
    // (a word twice in the phrase, twice), marks each term's first
    // occurrences in it.
    const uint32_t limit = static_cast<uint32_t>(n) - 1 + unit.slop;
    std::vector<uint32_t> starts;
    for (const std::string& term : unit.terms) {
      const std::vector<uint32_t>& p = positions_of(term);
      starts.insert(starts.end(), p.begin(), p.end());
    }
    std::sort(starts.begin(), starts.end());
    std::vector<std::pair<uint32_t, uint32_t>> found;
    for (const uint32_t start : starts) {
      found.clear();
      for (size_t k = 0; k < n; ++k) {
        const std::vector<uint32_t>& p = positions_of(unit.terms[k]);
        // A word's j-th place in the phrase takes its j-th occurrence.
        const auto skip = std::count(unit.terms.begin(), unit.terms.begin() + k,
                                     unit.terms[k]);
        auto hit = std::lower_bound(p.begin(), p.end(), start);
        if (p.end() - hit <= skip) break;
        hit += skip;
        if (*hit > start + limit) break;
        found.push_back(spans.Span(*hit, unit.terms[k]));
      }
      if (found.size() != n) continue;
      for (const auto& [begin, end] : found) {
        if (begin < end) out.push_back({begin, end, u, weight});
      }
    }
  }
  return MergeSpans(std::move(out));
}

std::vector<ByteSpan> MergeOverlapping(std::vector<ByteSpan> spans) {
  return MergeSpans(std::move(spans));
}

SnippetWindow MakeSnippet(absl::string_view text,
                          const std::vector<ByteSpan>& highlights,
                          uint32_t max_code_points) {
  // Code point <-> byte conversion from the multi-byte characters alone
  // (abstracts are mostly ASCII): for each, its code point index and the
  // extra bytes of it and all before it.
  struct Wide {
    uint32_t code_point;
    uint32_t byte;
    uint32_t extra;
  };
  std::vector<Wide> wide;
  uint32_t extra = 0;
  for (uint32_t i = 0; i < text.size();) {
    uint64_t word;
    if (i + 8 <= text.size() && (std::memcpy(&word, text.data() + i, 8),
                                 (word & 0x8080808080808080ull) == 0)) {
      i += 8;
      continue;
    }
    const uint32_t n = std::min<uint32_t>(
        static_cast<uint32_t>(
            text::Utf8SequenceLength(static_cast<unsigned char>(text[i]))),
        static_cast<uint32_t>(text.size()) - i);
    if (n > 1) {
      wide.push_back({i - extra, i, extra + n - 1});
      extra += n - 1;
    }
    i += n;
  }
  const uint32_t length = static_cast<uint32_t>(text.size()) - extra;
  auto byte_of = [&](uint32_t code_point) {
    // The last wide character before `code_point`.
    auto it = std::partition_point(
        wide.begin(), wide.end(),
        [&](const Wide& w) { return w.code_point < code_point; });
    return it == wide.begin() ? code_point : code_point + std::prev(it)->extra;
  };
  auto code_point_of = [&](uint32_t byte) {
    auto it = std::partition_point(
        wide.begin(), wide.end(), [&](const Wide& w) { return w.byte < byte; });
    return it == wide.begin() ? byte : byte - std::prev(it)->extra;
  };
  uint32_t best_start = 0;  // In code points.
  uint32_t window = std::min(max_code_points, length);
  if (length > max_code_points) {
    // Slide the window over the anchors (highlight starts, in order): the
    // highlights inside form a range [lo, hi) that only moves forward, so
    // the whole choice is linear in the number of highlights.
    // A highlight inside a URL (a link to the code, often the name of the
    // method again) counts for its clause but not toward the count: the
    // sentence that names the method is the better snippet.
    // Linear in the text however many highlights share one run without
    // spaces (Han or Kana text, each character a word): the spaces are
    // found once, and each run is searched once.
    std::vector<size_t> spaces;
    for (size_t b = 0; b < text.size(); ++b) {
      if (IsSpaceByte(text[b])) spaces.push_back(b);
    }
    std::vector<bool> in_url(highlights.size());
    size_t last_s = SIZE_MAX, last_e = 0;
    bool last_url = false;
    for (size_t i = 0; i < highlights.size(); ++i) {
      // The run around the highlight: from after the last space before it
      // to the first space at or after its end.
      auto before =
          std::lower_bound(spaces.begin(), spaces.end(), highlights[i].start);
      const size_t s = before == spaces.begin() ? 0 : *std::prev(before) + 1;
      auto after =
          std::lower_bound(spaces.begin(), spaces.end(), highlights[i].end);
      const size_t e = after == spaces.end() ? text.size() : *after;
      if (s != last_s || e != last_e) {
        const absl::string_view run = text.substr(s, e - s);
        last_url =
            absl::StrContains(run, "://") || absl::StrContains(run, "www.");
        last_s = s;
        last_e = e;
      }
      in_url[i] = last_url;
    }
    size_t counted = 0;  // Highlights in [lo, hi) outside URLs.
    std::pair<size_t, size_t> best_score = {0, 0};  // (Clause weight, count).
    absl::flat_hash_map<uint32_t, size_t> clause_count;
    size_t weight = 0;
    size_t lo = 0, hi = 0;
    for (const ByteSpan& anchor : highlights) {
      const uint32_t anchor_cp = code_point_of(anchor.start);
      // Some context before the anchor, unless the highlight alone fills
      // the window: then the window starts at it.
      const uint32_t lead =
          code_point_of(anchor.end) - anchor_cp >= window - window / 5
              ? 0
              : window / 5;
      uint32_t start = anchor_cp > lead ? anchor_cp - lead : 0;
      start = std::min(start, length - window);
      const uint32_t start_byte = byte_of(start);
      const uint32_t end_byte = byte_of(start + window);
      // Highlights that end inside the window, and the anchor (and any
      // starting before it) even if longer than the window: it is cut.
      for (; hi < highlights.size() && (highlights[hi].end <= end_byte ||
                                        highlights[hi].start <= anchor.start);
           ++hi) {
        if (clause_count[highlights[hi].clause]++ == 0) {
          weight += highlights[hi].weight;
        }
        counted += in_url[hi] ? 0 : 1;
      }
      for (; lo < hi && highlights[lo].start < start_byte; ++lo) {
        if (--clause_count[highlights[lo].clause] == 0) {
          weight -= highlights[lo].weight;
        }
        counted -= in_url[lo] ? 0 : 1;
      }
      const std::pair<size_t, size_t> score = {weight, counted};
      if (score > best_score) {
        best_score = score;
        best_start = start;
      }
    }
  }
  uint32_t start = byte_of(best_start);
  uint32_t end = byte_of(best_start + window);
  const uint32_t size = static_cast<uint32_t>(text.size());
  auto in_word = [&](uint32_t at) {  // A cut at `at` splits a word.
    return at > 0 && at < size && !IsSpaceByte(text[at - 1]) &&
           !IsSpaceByte(text[at]);
  };
  // A window widens by at most `window` code points to reach a word's
  // boundary: a longer word (a run of CJK characters, a pasted blob) is
  // cut at a character.
  auto lead_byte = [&](uint32_t at) {
    return (static_cast<unsigned char>(text[at]) & 0xC0) != 0x80;
  };
  // The first highlight in the window is shown whole, widening the window
  // past max_code_points if it must; a later one the window's end would
  // cut is left out.
  const ByteSpan* anchor = nullptr;
  for (const ByteSpan& h : highlights) {
    if (h.start >= start && h.start < end) {
      anchor = &h;
      break;
    }
  }
  uint32_t keep_from = end, keep_to = start;  // Highlights kept whole.
  if (anchor != nullptr) {
    end = std::max(end, anchor->end);
    keep_from = anchor->start;
    keep_to = anchor->end;
    for (const ByteSpan& h : highlights) {
      if (&h == anchor || h.start < anchor->start || h.start >= end) continue;
      if (h.end > end) {
        end = h.start;
        break;
      }
      keep_to = std::max(keep_to, h.end);
    }
  }
  // Whole words at both ends: move inward to a space, never past a kept
  // highlight; else outward to the word's end, up to widen_bytes.
  if (in_word(start)) {
    uint32_t s = start;
    while (s < keep_from && !IsSpaceByte(text[s])) ++s;
    if (s < keep_from) {
      start = s;
    } else {
      s = start;
      for (uint32_t n = 0; s > 0 && n <= window && !IsSpaceByte(text[s - 1]);) {
        n += lead_byte(--s);
      }
      if (!in_word(s)) start = s;
    }
  }
  if (in_word(end)) {
    uint32_t e = end;
    while (e > keep_to && !IsSpaceByte(text[e - 1])) --e;
    if (e > keep_to && e > start) {
      end = e;
    } else {
      e = end;
      for (uint32_t n = 0; e < size && n <= window && !IsSpaceByte(text[e]);) {
        n += lead_byte(e++);
      }
      if (!in_word(e)) end = e;
    }
  }
  // Never inside a character.
  while (start > 0 && start < size && !lead_byte(start)) --start;
  while (end < size && !lead_byte(end)) ++end;
  while (start < end && IsSpaceByte(text[start])) ++start;
  while (end > start && IsSpaceByte(text[end - 1])) --end;

  SnippetWindow snippet;
  snippet.range = {start, end};
  snippet.truncated_start = start > 0;
  snippet.truncated_end = end < text.size();
  for (const ByteSpan& h : highlights) {
    if (h.start >= start && h.end <= end) {
      snippet.highlights.push_back(
          {h.start - start, h.end - start, h.clause, h.weight});
    }
  }
  return snippet;
}

}  // namespace paperdb::search
