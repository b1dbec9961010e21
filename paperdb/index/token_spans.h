// Stored token offsets: where each analyzed token of an abstract lies, by
// token position, kept in the paper's record so that highlights need no
// second analysis of the abstract (the role of Lucene's term vectors with
// offsets). A search knows which positions matched from the postings; this
// maps them to byte ranges.
//
// Encoding (LEB128 varints, varint.h), in position order:
//   N, then for each plain token (one a position), its gap (its start
//       minus the previous plain token's end, 0 before the first) and its
//       length in bytes: one byte, the length, for a gap of 1 (a space);
//       0x80 | length for a gap of 2 (", "); otherwise (or for lengths
//       outside 1-127) a 0 byte, then gap and length as varints;
//   S, then S gaps of the positions that hold no token (a word over
//       text::kMaxTermBytes keeps its position but is not indexed);
//   C, then for each joined compound (analyzer.h, steps 7 and 8): the gap
//       from the previous compound's position (the first's from 0), its
//       length in bytes, and its term (varint length, then the bytes).
// A compound starts where the plain token at its position starts. About one
// byte a token. Do not change: on disk.

#ifndef PAPERDB_INDEX_TOKEN_SPANS_H_
#define PAPERDB_INDEX_TOKEN_SPANS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/text/analyzer.h"

namespace paperdb::index {

// Encodes the spans of `tokens`, the output of text::Analyzer::Analyze().
std::string EncodeTokenSpans(const std::vector<text::AnalyzedToken>& tokens);

// Decoded token spans. Offsets are UTF-8 byte offsets into the abstract.
class TokenSpans {
 public:
  // Decodes `encoded` for an abstract of `text_bytes` bytes. DATA_LOSS if
  // it is malformed or a span ends past the text.
  static absl::StatusOr<TokenSpans> Decode(absl::string_view encoded,
                                           uint32_t text_bytes);

  // Number of positions (plain tokens and skipped words).
  uint32_t positions() const { return static_cast<uint32_t>(plain_.size()); }

  // The byte range [start, end) of the token at `position` whose term is
  // `term`: the joined compound starting there if its term is `term` (a
  // compound's term always differs from its first part's, analyzer.h),
  // else the plain token. {0, 0} for a position past the end or one
  // without a token.
  std::pair<uint32_t, uint32_t> Span(uint32_t position,
                                     absl::string_view term) const;

 private:
  struct Compound {
    uint32_t position = 0;
    uint32_t end = 0;
    std::string term;
  };
  std::vector<std::pair<uint32_t, uint32_t>> plain_;  // By position.
  std::vector<Compound> compounds_;                   // By position.
};

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_TOKEN_SPANS_H_
