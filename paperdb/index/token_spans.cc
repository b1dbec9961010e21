#include "paperdb/index/token_spans.h"

#include <algorithm>

#include "absl/status/status.h"
#include "paperdb/index/varint.h"

namespace paperdb::index {

std::string EncodeTokenSpans(const std::vector<text::AnalyzedToken>& tokens) {
  std::string plain, skipped, compounds;
  uint32_t plain_count = 0, skipped_count = 0, compound_count = 0;
  uint32_t next_position = 0;  // Of the next plain token.
  uint32_t last_skipped = 0;   // Position, for the gaps.
  uint32_t last_compound = 0;  // Position, for the gaps.
  uint32_t previous_end = 0;
  for (const text::AnalyzedToken& token : tokens) {
    if (token.compound) {
      PutVarint32(token.position - last_compound, &compounds);
      PutVarint32(token.end_byte - token.start_byte, &compounds);
      PutVarint32(static_cast<uint32_t>(token.term.size()), &compounds);
      compounds += token.term;
      last_compound = token.position;
      ++compound_count;
      continue;
    }
    for (; next_position < token.position; ++next_position) {
      PutVarint32(next_position - last_skipped, &skipped);
      last_skipped = next_position;
      ++skipped_count;
    }
    const uint32_t gap = token.start_byte - previous_end;
    const uint32_t length = token.end_byte - token.start_byte;
    if ((gap == 1 || gap == 2) && length >= 1 && length <= 127) {
      plain.push_back(static_cast<char>((gap == 2 ? 0x80 : 0) | length));
    } else {
      plain.push_back('\0');
      PutVarint32(gap, &plain);
      PutVarint32(length, &plain);
    }
    previous_end = token.end_byte;
    ++plain_count;
    ++next_position;
  }
  std::string out;
  out.reserve(plain.size() + skipped.size() + compounds.size() + 15);
  PutVarint32(plain_count, &out);
  out += plain;
  PutVarint32(skipped_count, &out);
  out += skipped;
  PutVarint32(compound_count, &out);
  out += compounds;
  return out;
}

absl::StatusOr<TokenSpans> TokenSpans::Decode(absl::string_view encoded,
                                              uint32_t text_bytes) {
  const char* p = encoded.data();
  const char* const limit = p + encoded.size();
  auto malformed = [] {
    return absl::DataLossError("malformed token spans in a paper record");
  };
  uint32_t plain_count = 0;
  if (!GetVarint32(&p, limit, &plain_count) || plain_count > encoded.size()) {
    return malformed();
  }
  TokenSpans spans;
  std::vector<std::pair<uint32_t, uint32_t>>& plain = spans.plain_;
  plain.reserve(plain_count);
  uint64_t end = 0;
  for (uint32_t i = 0; i < plain_count; ++i) {
    uint32_t gap = 0, length = 0;
    if (p == limit) return malformed();
    const unsigned char packed = static_cast<unsigned char>(*p++);
    if (packed != 0) {
      gap = (packed & 0x80) ? 2 : 1;
      length = packed & 0x7f;
      if (length == 0) return malformed();
    } else if (!GetVarint32(&p, limit, &gap) ||
               !GetVarint32(&p, limit, &length)) {
      return malformed();
    }
    const uint64_t start = end + gap;
    end = start + length;
    if (end > text_bytes) return malformed();
    plain.emplace_back(static_cast<uint32_t>(start),
                       static_cast<uint32_t>(end));
  }
  uint32_t skipped_count = 0;
  if (!GetVarint32(&p, limit, &skipped_count) ||
      skipped_count > encoded.size()) {
    return malformed();
  }
  if (skipped_count > 0) {
    // Interleave the empty positions (rare: over-long words).
    std::vector<std::pair<uint32_t, uint32_t>> tokens = std::move(plain);
    plain.clear();
    plain.reserve(tokens.size() + skipped_count);
    size_t next_token = 0;
    uint64_t skipped_position = 0;
    for (uint32_t i = 0; i < skipped_count; ++i) {
      uint32_t gap = 0;
      if (!GetVarint32(&p, limit, &gap)) return malformed();
      skipped_position += gap;
      if ((i > 0 && gap == 0) || skipped_position < plain.size() ||
          skipped_position > plain.size() + (tokens.size() - next_token)) {
        return malformed();
      }
      while (plain.size() < skipped_position) {
        plain.push_back(tokens[next_token++]);
      }
      plain.emplace_back(0, 0);
    }
    while (next_token < tokens.size()) plain.push_back(tokens[next_token++]);
  }
  uint32_t compound_count = 0;
  if (!GetVarint32(&p, limit, &compound_count) ||
      compound_count > encoded.size()) {
    return malformed();
  }
  spans.compounds_.reserve(compound_count);
  uint64_t position = 0;
  for (uint32_t i = 0; i < compound_count; ++i) {
    uint32_t gap = 0, length = 0, term_length = 0;
    if (!GetVarint32(&p, limit, &gap) || !GetVarint32(&p, limit, &length) ||
        !GetVarint32(&p, limit, &term_length) ||
        static_cast<size_t>(limit - p) < term_length) {
      return malformed();
    }
    position += gap;
    if (position >= spans.plain_.size()) return malformed();
    Compound compound;
    compound.position = static_cast<uint32_t>(position);
    const uint64_t compound_end =
        uint64_t{spans.plain_[compound.position].first} + length;
    if (compound_end > text_bytes) return malformed();
    compound.end = static_cast<uint32_t>(compound_end);
    compound.term.assign(p, term_length);
    p += term_length;
    spans.compounds_.push_back(compound);
  }
  if (p != limit) return malformed();
  return spans;
}

std::pair<uint32_t, uint32_t> TokenSpans::Span(uint32_t position,
                                               absl::string_view term) const {
  if (position >= plain_.size()) return {0, 0};
  auto it = std::lower_bound(
      compounds_.begin(), compounds_.end(), position,
      [](const Compound& c, uint32_t p) { return c.position < p; });
  for (; it != compounds_.end() && it->position == position; ++it) {
    if (it->term == term) return {plain_[position].first, it->end};
  }
  return plain_[position];
}

}  // namespace paperdb::index
