#include "paperdb/index/posting_block.h"

#include <algorithm>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/varint.h"

namespace paperdb::index {
namespace {

// Term frequencies are decoded lazily this many at a time (a phrase's
// positions check needs them only up to its candidate). Doc ids are decoded
// whole: probing a block for one doc by halves measured slower.
constexpr size_t kTfsChunk = 32;

absl::Status Malformed(absl::string_view what) {
  return absl::DataLossError(absl::StrCat("posting block: malformed ", what));
}

}  // namespace

void PostingBlockBuilder::Add(uint32_t doc, uint32_t doc_length,
                              absl::Span<const uint32_t> positions,
                              uint8_t next_words) {
  docs_.push_back(doc);
  next_words_.push_back(next_words);
  tfs_.push_back(static_cast<uint32_t>(positions.size()));
  lengths_.push_back(doc_length);
  // Encoded now, not copied: a posting's positions are read once.
  uint32_t prev_position = 0;
  for (uint32_t position : positions) {
    PutVarint32(position - prev_position, &positions_);
    prev_position = position;
  }
}

void PostingBlockBuilder::AddEncoded(uint32_t doc, uint32_t doc_length,
                                     uint32_t tf,
                                     absl::string_view encoded_positions,
                                     uint8_t next_words) {
  docs_.push_back(doc);
  next_words_.push_back(next_words);
  tfs_.push_back(tf);
  lengths_.push_back(doc_length);
  positions_.append(encoded_positions.data(), encoded_positions.size());
}

void PostingBlockBuilder::Clear() {
  docs_.clear();
  tfs_.clear();
  lengths_.clear();
  next_words_.clear();
  positions_.clear();
}

void PostingBlockBuilder::FinishHead(std::string* head) const {
  constexpr size_t kMaxHeaderBytes = 5 * 5;
  char header[kMaxHeaderBytes];
  char* h = header;
  h = EncodeVarint32(static_cast<uint32_t>(docs_.size()), h);
  h = EncodeVarint32(docs_.back() - docs_.front(), h);
  h = EncodeVarint32(*std::max_element(tfs_.begin(), tfs_.end()), h);
  h = EncodeVarint32(*std::min_element(lengths_.begin(), lengths_.end()), h);
  // The body's size is the header's last field: write the body first, after
  // room for the longest header, then move it up behind the real header.
  head->resize(kMaxHeaderBytes + (3 * 5 + 1) * docs_.size());
  char* const body = head->data() + kMaxHeaderBytes;
  std::memcpy(body, next_words_.data(), next_words_.size());
  char* p = body + next_words_.size();
  uint32_t prev = docs_.front();
  for (uint32_t doc : docs_) {
    p = EncodeVarint32(doc - prev, p);
    prev = doc;
  }
  for (uint32_t tf : tfs_) p = EncodeVarint32(tf, p);
  for (uint32_t length : lengths_) p = EncodeVarint32(length, p);
  const size_t body_bytes = static_cast<size_t>(p - body);
  h = EncodeVarint32(static_cast<uint32_t>(body_bytes), h);
  const size_t header_bytes = static_cast<size_t>(h - header);
  char* const start = body - header_bytes;
  std::memcpy(start, header, header_bytes);
  if (start != head->data()) {
    std::memmove(head->data(), start, header_bytes + body_bytes);
  }
  head->resize(header_bytes + body_bytes);
}

std::string PostingBlockBuilder::Finish() const {
  std::string out;
  out.reserve(5 * 5 + (3 * 5 + 1) * docs_.size() + positions_.size());
  FinishHead(&out);
  out += positions_;
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
      span > UINT32_MAX - first_doc || *postings_bytes > limit - *p ||
      *postings_bytes < h.count) {
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
  block.positions_data_ = absl::string_view();
  std::memcpy(block.owned_next_words_.data(), block.next_words_, block.size());
  block.next_words_ = nullptr;
  // Everything else is decoded: nothing may point into `value` any more.
  block.docs_cursor_ = block.postings_end_ = nullptr;
  block.tfs_start_ = block.tfs_cursor_ = block.lengths_cursor_ = nullptr;
  return block;
}

absl::Status PostingBlock::Open(uint32_t first_doc, absl::string_view value) {
  const char* p = value.data();
  const char* const limit = value.data() + value.size();
  uint32_t postings_bytes = 0;
  absl::StatusOr<PostingBlockHeader> header =
      DecodeHeader(first_doc, &p, limit, &postings_bytes);
  if (!header.ok()) return status_ = header.status();
  header_ = *header;
  first_doc_ = first_doc;
  status_ = absl::OkStatus();
  next_words_ = p;
  docs_cursor_ = p + header_.count;
  postings_end_ = p + postings_bytes;
  docs_decoded_ = 0;
  tfs_start_ = tfs_cursor_ = nullptr;
  tfs_decoded_ = 0;
  lengths_cursor_ = nullptr;
  lengths_decoded_ = 0;
  owned_positions_.clear();
  owns_positions_ = false;
  positions_data_ = absl::string_view(postings_end_, limit - postings_end_);
  positions_decoded_for_ = 0;
  positions_cursor_ = 0;
  tf_scan_ = nullptr;
  return absl::OkStatus();
}

absl::Status PostingBlock::DecodeInPlace(uint32_t first_doc,
                                         absl::string_view value) {
  PAPERDB_RETURN_IF_ERROR(Open(first_doc, value));
  if (!DecodeDocsThrough(size() - 1)) return status_;
  return absl::OkStatus();
}

bool PostingBlock::Fail(absl::string_view what) {
  status_ = Malformed(what);
  return false;
}

bool PostingBlock::DecodeDocs() {
  if (!status_.ok()) return false;
  const size_t n = size();
  if (!GetVarints32(&docs_cursor_, postings_end_, docs_.data(), n)) {
    return Fail("doc gaps");
  }
  uint32_t doc = first_doc_;
  for (size_t k = 0; k < n; ++k) {
    const uint32_t gap = docs_[k];
    if (gap > UINT32_MAX - doc || (k > 0 && gap == 0)) {
      return Fail("doc gaps");
    }
    doc += gap;
    docs_[k] = doc;
  }
  if (doc != header_.last_doc) return Fail("postings");
  docs_decoded_ = static_cast<uint32_t>(n);
  tfs_start_ = docs_cursor_;
  return true;
}

const char* PostingBlock::TfsStart() {
  if (tfs_start_ != nullptr) return tfs_start_;
  if (!status_.ok()) return nullptr;
  const char* p = docs_cursor_;
  if (!SkipVarints(&p, postings_end_, size() - docs_decoded_)) {
    Fail("doc gaps");
    return nullptr;
  }
  return tfs_start_ = p;
}

// Decodes at least kTfsChunk more term frequencies (or the rest), through i.
bool PostingBlock::DecodeMoreTfs(size_t i) {
  if (tfs_cursor_ == nullptr) {
    tfs_cursor_ = TfsStart();
    if (tfs_cursor_ == nullptr) return false;
  }
  const size_t n = size();
  const size_t want =
      std::min(n, std::max<size_t>(i + 1, tfs_decoded_ + kTfsChunk));
  uint32_t* const out = tfs_.data() + tfs_decoded_;
  if (!GetVarints32(&tfs_cursor_, postings_end_, out, want - tfs_decoded_)) {
    return Fail("term frequencies");
  }
  // A tf of 0 (or past 2^31) is malformed: its tf - 1 has the top bit set.
  // Or-ed four at a time, without a branch a value (GCC at -O2 does not
  // unroll or vectorize the plain loop).
  uint32_t wrapped = 0;
  size_t k = tfs_decoded_;
  for (; k + 4 <= want; k += 4) {
    wrapped |= (tfs_[k] - 1) | (tfs_[k + 1] - 1) | (tfs_[k + 2] - 1) |
               (tfs_[k + 3] - 1);
  }
  for (; k < want; ++k) wrapped |= tfs_[k] - 1;
  if ((wrapped >> 31) != 0) return Fail("term frequencies");
  tfs_decoded_ = static_cast<uint32_t>(want);
  return true;
}

// Decodes at least kTfsChunk more document lengths (or the rest), through
// i. Their section starts after the term frequencies, which are skipped,
// not decoded, as far as they are not yet.
bool PostingBlock::DecodeMoreLengths(size_t i) {
  if (lengths_cursor_ == nullptr) {
    const char* p = tfs_cursor_ != nullptr ? tfs_cursor_ : TfsStart();
    if (p == nullptr) return false;
    if (!SkipVarints(&p, postings_end_, size() - tfs_decoded_)) {
      return Fail("term frequencies");
    }
    lengths_cursor_ = p;
  }
  const size_t n = size();
  const size_t want =
      std::min(n, std::max<size_t>(i + 1, lengths_decoded_ + kTfsChunk));
  if (!GetVarints32(&lengths_cursor_, postings_end_,
                    lengths_.data() + lengths_decoded_,
                    want - lengths_decoded_)) {
    return Fail("document lengths");
  }
  if (want == n && lengths_cursor_ != postings_end_) return Fail("postings");
  lengths_decoded_ = static_cast<uint32_t>(want);
  return true;
}

absl::Status PostingBlock::DecodeFrequencies() {
  const size_t last = size() - 1;
  if (!DecodeTfsThrough(last) || !DecodeLengthsThrough(last)) return status_;
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
  uint32_t tf = 0;
  if (i < tfs_decoded_) {
    for (; positions_decoded_for_ < i; ++positions_decoded_for_) {
      skip += tfs_[positions_decoded_for_];
    }
    tf = tfs_[i];
  } else {
    // Past the decoded term frequencies (a posting in a block opened for
    // it, a phrase's candidate): those still to skip are summed from their
    // bytes, not decoded into tfs_.
    for (; positions_decoded_for_ < tfs_decoded_; ++positions_decoded_for_) {
      skip += tfs_[positions_decoded_for_];
    }
    const char* tf_bytes = tfs_cursor_;
    if (positions_decoded_for_ > tfs_decoded_) {
      tf_bytes = tf_scan_;  // Where the last such call stopped.
    } else if (tf_bytes == nullptr) {
      tf_bytes = TfsStart();
      if (tf_bytes == nullptr) return status_;
    }
    if (!SumPositiveVarints(&tf_bytes, postings_end_,
                            i - positions_decoded_for_, &skip)) {
      return Malformed("term frequencies");
    }
    tf_scan_ = tf_bytes;  // At posting i's tf: positions_decoded_for_ = i.
    if (!GetVarint32(&tf_bytes, postings_end_, &tf) || tf == 0) {
      return Malformed("term frequencies");
    }
    positions_decoded_for_ = i;
  }
  if (!SkipVarints(&p, limit, skip)) return Malformed("positions");
  positions_cursor_ = static_cast<size_t>(p - base);
  out->resize(tf);
  uint32_t position = 0;
  for (uint32_t j = 0; j < tf; ++j) {
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
