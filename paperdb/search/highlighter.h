// Highlights and snippets: where in an abstract a query matched, and a short
// window of it around the best passage. All offsets are UTF-8 byte offsets
// into the abstract; they always fall on character boundaries.

#ifndef PAPERDB_SEARCH_HIGHLIGHTER_H_
#define PAPERDB_SEARCH_HIGHLIGHTER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "paperdb/index/token_spans.h"
#include "paperdb/search/query.h"

namespace paperdb::search {

// A half-open byte range [start, end).
struct ByteSpan {
  uint32_t start = 0;
  uint32_t end = 0;
  uint32_t clause = 0;  // From Highlight(): index of the unit matched.
  uint32_t weight = 1;  // From Highlight(): MatchUnit::weight, or its terms.
  bool operator==(const ByteSpan& other) const {
    return start == other.start && end == other.end;
  }
};

// The spans of `text` that match `units` (CollectMatchUnits() of a query):
// each occurrence of a term; for a phrase one span per occurrence of the
// whole phrase (its words elsewhere are not marked); for a sloppy phrase
// ("a b"~N) each of its words inside a window where all occur. `clause` is
// the unit's index. Sorted by start; overlapping spans are merged (keeping
// the first unit).
std::vector<ByteSpan> Highlight(absl::string_view text,
                                const std::vector<MatchUnit>& units);

// Highlight() without analysing the text again: the same spans, from the
// text's stored token spans (index/token_spans.h) and, for each term of
// `units`, its positions in the paper, ascending (from the postings; a term
// missing from `positions` occurs nowhere).
std::vector<ByteSpan> HighlightAt(
    const index::TokenSpans& spans, const std::vector<MatchUnit>& units,
    const absl::flat_hash_map<std::string, std::vector<uint32_t>>& positions);

// `spans` sorted by start, overlapping ones merged (keeping the first's
// unit).
std::vector<ByteSpan> MergeOverlapping(std::vector<ByteSpan> spans);

// A window of an abstract.
struct SnippetWindow {
  ByteSpan range;  // The window, in the abstract.
  std::vector<ByteSpan>
      highlights;                // Inside the window, relative to its start.
  bool truncated_start = false;  // Text precedes the window.
  bool truncated_end = false;    // Text follows the window.
};

// Chooses a window of at most `max_code_points` code points of `text` that
// holds highlights of the distinct clauses of greatest total weight (so a
// phrase outweighs a single word), then the most highlights outside URLs
// (`highlights` sorted, as from Highlight()), preferring the earliest;
// without highlights, the start of the text. The first highlight in the
// window is whole, the window widening past `max_code_points` to hold it; a
// later highlight the window's end would cut is left out. The window starts
// and ends between words (runs of non-space bytes): inward where that keeps
// every highlight it holds, else outward by at most `max_code_points` code
// points (a longer word is cut); never inside a character. `highlights` of
// the result are those wholly inside the window.
SnippetWindow MakeSnippet(absl::string_view text,
                          const std::vector<ByteSpan>& highlights,
                          uint32_t max_code_points);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_HIGHLIGHTER_H_
