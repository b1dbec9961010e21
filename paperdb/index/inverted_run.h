// InvertedRun: the postings of one file's papers, inverted on the thread
// that analyzed them (single-pass in-memory inversion, as in Heinz & Zobel,
// "Efficient single-pass index construction for text databases", JASIST
// 2003): the file's distinct terms in byte order, each with its postings
// in paper order and their positions already encoded as posting blocks hold
// them (posting_block.h). A commit then merges a batch's runs by term
// (ChangeSet::Write) instead of gathering every paper's terms into a hash
// map and sorting them on the one thread that commits.

#ifndef PAPERDB_INDEX_INVERTED_RUN_H_
#define PAPERDB_INDEX_INVERTED_RUN_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "paperdb/index/change_set.h"
#include "paperdb/index/next_words.h"

namespace paperdb::index {

class InvertedRun {
 public:
  // One paper's postings of one term.
  struct Posting {
    uint32_t paper = 0;  // Index into the papers given to Build().
    uint32_t tf = 0;     // Term frequency: the number of positions.
    // Byte range in the run of the position gaps, encoded as
    // PostingBlockBuilder::Add() encodes them.
    uint32_t positions_begin = 0;
    uint32_t positions_end = 0;
    uint8_t next_words = kAnyNextWord;  // next_words.h
  };

  // Inverts the terms of `papers` (AnalyzePaper()'s output), moving them
  // out: each paper's `terms` is left empty. Paper i of the run is
  // papers[i]. Each paper's terms must be distinct, as AnalyzePaper()
  // makes them.
  static std::unique_ptr<InvertedRun> Build(std::vector<AnalyzedPaper>& papers);

  InvertedRun(const InvertedRun&) = delete;
  InvertedRun& operator=(const InvertedRun&) = delete;

  size_t paper_count() const { return paper_count_; }
  size_t term_count() const { return term_offsets_.size() - 1; }
  // The t-th term in byte order, t < term_count().
  absl::string_view term(size_t t) const {
    return absl::string_view(terms_).substr(
        term_offsets_[t], term_offsets_[t + 1] - term_offsets_[t]);
  }
  // The postings of term(t), in ascending paper order.
  absl::Span<const Posting> postings(size_t t) const {
    return absl::MakeConstSpan(postings_).subspan(
        posting_offsets_[t], posting_offsets_[t + 1] - posting_offsets_[t]);
  }
  // The encoded position gaps of `posting`.
  absl::string_view positions(const Posting& posting) const {
    return absl::string_view(positions_)
        .substr(posting.positions_begin,
                posting.positions_end - posting.positions_begin);
  }
  // Bytes held: terms, postings and positions.
  size_t ByteSize() const;

 private:
  InvertedRun() = default;

  size_t paper_count_ = 0;
  std::string terms_;                      // Terms in order, concatenated.
  std::vector<uint32_t> term_offsets_;     // term_count() + 1 offsets.
  std::vector<uint32_t> posting_offsets_;  // term_count() + 1 offsets.
  std::vector<Posting> postings_;
  std::string positions_;  // Every posting's position gaps, by paper.
};

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_INVERTED_RUN_H_
