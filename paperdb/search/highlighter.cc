#include "paperdb/search/highlighter.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/text/utf8.h"

namespace paperdb::search {
namespace {

std::vector<ByteSpan> MergeOverlapping(std::vector<ByteSpan> spans) {
  std::sort(spans.begin(), spans.end(),
            [](const ByteSpan& a, const ByteSpan& b) {
              return a.start < b.start || (a.start == b.start && a.end > b.end);
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

std::vector<ByteSpan> Highlight(absl::string_view text, const Query& query) {
  std::vector<text::AnalyzedToken> tokens =
      text::ThreadLocalAnalyzer().Analyze(text);
  // A joined compound ("skillmix" over "SKILL-MIX") matches a one-term
  // clause only; phrases match runs of words, which compounds are not.
  std::vector<text::AnalyzedToken> compounds;
  for (text::AnalyzedToken& token : tokens) {
    if (token.compound) compounds.push_back(std::move(token));
  }
  std::erase_if(
      tokens, [](const text::AnalyzedToken& token) { return token.compound; });
  std::vector<ByteSpan> spans;
  for (const text::AnalyzedToken& compound : compounds) {
    for (uint32_t c = 0; c < query.clauses.size(); ++c) {
      const QueryClause& clause = query.clauses[c];
      if (!clause.excluded && clause.terms.size() == 1 &&
          clause.terms[0] == compound.term) {
        spans.push_back({compound.start_byte, compound.end_byte, c, 1});
      }
    }
  }
  for (size_t i = 0; i < tokens.size(); ++i) {
    for (uint32_t c = 0; c < query.clauses.size(); ++c) {
      const QueryClause& clause = query.clauses[c];
      const size_t n = clause.terms.size();
      if (clause.excluded || i + n > tokens.size()) continue;
      bool match = true;
      for (size_t k = 0; k < n && match; ++k) {
        match = tokens[i + k].term == clause.terms[k];
      }
      if (match) {
        spans.push_back({tokens[i].start_byte, tokens[i + n - 1].end_byte, c,
                         static_cast<uint32_t>(n)});
      }
    }
  }
  return MergeOverlapping(std::move(spans));
}

SnippetWindow MakeSnippet(absl::string_view text,
                          const std::vector<ByteSpan>& highlights,
                          uint32_t max_code_points) {
  // Byte offset of every code point boundary.
  std::vector<uint32_t> boundary;
  boundary.reserve(text.size() + 1);
  for (uint32_t i = 0; i < text.size();) {
    boundary.push_back(i);
    i += text::Utf8SequenceLength(static_cast<unsigned char>(text[i]));
  }
  boundary.push_back(static_cast<uint32_t>(text.size()));
  const uint32_t length = static_cast<uint32_t>(boundary.size() - 1);
  auto code_point_of = [&](uint32_t byte) {
    return static_cast<uint32_t>(
        std::lower_bound(boundary.begin(), boundary.end(), byte) -
        boundary.begin());
  };

  uint32_t best_start = 0;  // In code points.
  uint32_t window = std::min(max_code_points, length);
  if (length > max_code_points) {
    // Slide the window over the anchors (highlight starts, in order): the
    // highlights inside form a range [lo, hi) that only moves forward, so
    // the whole choice is linear in the number of highlights.
    std::pair<size_t, size_t> best_score = {0, 0};  // (Clause weight, count).
    absl::flat_hash_map<uint32_t, size_t> clause_count;
    size_t weight = 0;
    size_t lo = 0, hi = 0;
    for (const ByteSpan& anchor : highlights) {
      const uint32_t anchor_cp = code_point_of(anchor.start);
      uint32_t start = anchor_cp > window / 5 ? anchor_cp - window / 5 : 0;
      start = std::min(start, length - window);
      const uint32_t start_byte = boundary[start];
      const uint32_t end_byte = boundary[start + window];
      for (; hi < highlights.size() && highlights[hi].end <= end_byte; ++hi) {
        if (clause_count[highlights[hi].clause]++ == 0) {
          weight += highlights[hi].weight;
        }
      }
      for (; lo < hi && highlights[lo].start < start_byte; ++lo) {
        if (--clause_count[highlights[lo].clause] == 0) {
          weight -= highlights[lo].weight;
        }
      }
      const std::pair<size_t, size_t> score = {weight, hi - lo};
      if (score > best_score) {
        best_score = score;
        best_start = start;
      }
    }
  }
  uint32_t start = boundary[best_start];
  uint32_t end = boundary[best_start + window];
  // Keep whole words: move inward to a space, but never past a highlight.
  uint32_t first_highlight = end, last_highlight = start;
  for (const ByteSpan& h : highlights) {
    if (h.start >= start && h.end <= end) {
      first_highlight = std::min(first_highlight, h.start);
      last_highlight = std::max(last_highlight, h.end);
    }
  }
  if (start > 0 && !IsSpaceByte(text[start - 1])) {
    uint32_t s = start;
    while (s < first_highlight && !IsSpaceByte(text[s])) ++s;
    if (s < first_highlight) start = s;
  }
  if (end < text.size() && !IsSpaceByte(text[end])) {
    uint32_t e = end;
    while (e > last_highlight && !IsSpaceByte(text[e - 1])) --e;
    if (e > last_highlight) end = e;
  }
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
