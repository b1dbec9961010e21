#include "paperdb/index/posting_block.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "paperdb/index/varint.h"

namespace paperdb::index {
namespace {

absl::Status Malformed(absl::string_view what) {
  return absl::DataLossError(absl::StrCat("posting block: malformed ", what));
}

}  // namespace

void PostingBlockBuilder::Add(uint32_t doc, uint32_t doc_length,
                              const std::vector<uint32_t>& positions) {
  docs_.push_back(doc);
  tfs_.push_back(static_cast<uint32_t>(positions.size()));
  lengths_.push_back(doc_length);
  positions_.insert(positions_.end(), positions.begin(), positions.end());
}

std::string PostingBlockBuilder::Finish() const {
  std::string body;
  uint32_t prev = docs_.front();
  for (uint32_t doc : docs_) {
    PutVarint32(doc - prev, &body);
    prev = doc;
  }
  for (uint32_t tf : tfs_) PutVarint32(tf, &body);
  for (uint32_t length : lengths_) PutVarint32(length, &body);
  const size_t postings_bytes = body.size();
  size_t p = 0;
  for (uint32_t tf : tfs_) {
    uint32_t prev_position = 0;
    for (uint32_t j = 0; j < tf; ++j, ++p) {
      PutVarint32(positions_[p] - prev_position, &body);
      prev_position = positions_[p];
    }
  }
  std::string out;
  PutVarint32(static_cast<uint32_t>(docs_.size()), &out);
  PutVarint32(docs_.back() - docs_.front(), &out);
  PutVarint32(*std::max_element(tfs_.begin(), tfs_.end()), &out);
  PutVarint32(*std::min_element(lengths_.begin(), lengths_.end()), &out);
  PutVarint32(static_cast<uint32_t>(postings_bytes), &out);
  out += body;
  return out;
}

namespace {

// Decodes the header; leaves *p at the start of the docs section and sets
// *postings_bytes.
absl::StatusOr<PostingBlockHeader> DecodeHeader(uint32_t first_doc,
                                                const char** p,
                                                const char* limit,
                                                uint32_t* postings_bytes) {
  PostingBlockHeader h;
  uint32_t span = 0;
  if (!GetVarint32(p, limit, &h.count) || !GetVarint32(p, limit, &span) ||
      !GetVarint32(p, limit, &h.max_tf) ||
      !GetVarint32(p, limit, &h.min_doc_length) ||
      !GetVarint32(p, limit, postings_bytes)) {
    return Malformed("header");
  }
  if (h.count == 0 || h.count > kMaxPostingsPerBlock ||
      span > UINT32_MAX - first_doc || *postings_bytes > limit - *p) {
    return Malformed("header");
  }
  h.last_doc = first_doc + span;
  return h;
}

}  // namespace

absl::StatusOr<PostingBlockHeader> DecodePostingBlockHeader(
    uint32_t first_doc, absl::string_view value) {
  const char* p = value.data();
  uint32_t postings_bytes = 0;
  return DecodeHeader(first_doc, &p, value.data() + value.size(),
                      &postings_bytes);
}

absl::StatusOr<PostingBlock> PostingBlock::Decode(uint32_t first_doc,
                                                  absl::string_view value) {
  PostingBlock block;
  absl::Status status = block.DecodeInPlace(first_doc, value);
  if (status.ok()) status = block.DecodeFrequencies();
  if (!status.ok()) return status;
  block.owned_positions_.assign(block.positions_data_.data(),
                                block.positions_data_.size());
  block.owns_positions_ = true;
  block.frequencies_data_ = absl::string_view();
  return block;
}

absl::Status PostingBlock::DecodeInPlace(uint32_t first_doc,
                                         absl::string_view value) {
  const char* p = value.data();
  const char* const limit = value.data() + value.size();
  uint32_t postings_bytes = 0;
  absl::StatusOr<PostingBlockHeader> header =
      DecodeHeader(first_doc, &p, limit, &postings_bytes);
  if (!header.ok()) return header.status();
  header_ = *header;
  frequencies_decoded_ = false;
  owned_positions_.clear();
  owns_positions_ = false;
  positions_decoded_for_ = 0;
  positions_cursor_ = 0;
  const char* const postings_end = p + postings_bytes;
  const uint32_t n = header->count;
  docs_.resize(n);
  if (!GetVarints32(&p, postings_end, docs_.data(), n)) {
    return Malformed("doc gaps");
  }
  uint32_t doc = first_doc;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t gap = docs_[i];
    if (gap > UINT32_MAX - doc || (i > 0 && gap == 0)) {
      return Malformed("doc gaps");
    }
    doc += gap;
    docs_[i] = doc;
  }
  if (doc != header->last_doc) return Malformed("postings");
  frequencies_data_ = absl::string_view(p, postings_end - p);
  positions_data_ = absl::string_view(postings_end, limit - postings_end);
  return absl::OkStatus();
}

absl::Status PostingBlock::DecodeFrequencies() {
  if (frequencies_decoded_) return absl::OkStatus();
  const char* p = frequencies_data_.data();
  const char* const end = p + frequencies_data_.size();
  const size_t n = docs_.size();
  tfs_.resize(n);
  lengths_.resize(n);
  if (!GetVarints32(&p, end, tfs_.data(), n)) {
    return Malformed("term frequencies");
  }
  for (size_t i = 0; i < n; ++i) {
    if (tfs_[i] == 0) return Malformed("term frequencies");
  }
  if (!GetVarints32(&p, end, lengths_.data(), n)) {
    return Malformed("document lengths");
  }
  if (p != end) return Malformed("postings");
  frequencies_decoded_ = true;
  return absl::OkStatus();
}

absl::Status PostingBlock::Positions(size_t i, std::vector<uint32_t>* out) {
  if (i < positions_decoded_for_) {  // Going back: restart from the top.
    positions_decoded_for_ = 0;
    positions_cursor_ = 0;
  }
  const absl::string_view data =
      owns_positions_ ? absl::string_view(owned_positions_) : positions_data_;
  const char* const base = data.data();
  const char* const limit = base + data.size();
  const char* p = base + positions_cursor_;
  uint64_t skip = 0;  // Position gaps of the postings before i.
  for (; positions_decoded_for_ < i; ++positions_decoded_for_) {
    skip += tfs_[positions_decoded_for_];
  }
  if (!SkipVarints(&p, limit, skip)) return Malformed("positions");
  positions_cursor_ = static_cast<size_t>(p - base);
  out->resize(tfs_[i]);
  uint32_t position = 0;
  for (uint32_t j = 0; j < tfs_[i]; ++j) {
    uint32_t gap = 0;
    if (!GetVarint32(&p, limit, &gap)) return Malformed("positions");
    position += gap;
    (*out)[j] = position;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<uint32_t>> PostingBlock::Positions(size_t i) {
  std::vector<uint32_t> positions;
  absl::Status status = Positions(i, &positions);
  if (!status.ok()) return status;
  return positions;
}

}  // namespace paperdb::index
