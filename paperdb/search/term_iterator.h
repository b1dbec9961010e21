// TermIterator: one term's posting list as a DocIterator, scored by BM25
// with block-max bounds from the list's impacts. The leaf of every query
// tree, and the word lists a phrase reads (phrase_iterator.h). Internal to
// the search strategies; make one with NewTermIterator() (doc_iterator.h).

#ifndef PAPERDB_SEARCH_TERM_ITERATOR_H_
#define PAPERDB_SEARCH_TERM_ITERATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "paperdb/index/bm25.h"
#include "paperdb/index/posting_iterator.h"
#include "paperdb/search/doc_iterator.h"
#include "paperdb/storage/store.h"

namespace paperdb::search::internal {

using index::PostingIterator;

class TermIterator final : public DocIterator {
 public:
  TermIterator(const storage::Store& store, const std::string& term,
               uint32_t df, const index::Bm25Scorer& scorer, bool scored,
               uint32_t scoring_df)
      : postings_(store, term),
        scorer_(scorer),
        df_(df),
        idf_(scorer.Idf(scoring_df)),
        scored_(scored) {
    doc_ = postings_.doc();
    const index::PostingList* list = postings_.list();
    if (list != nullptr && !list->doc_bits.empty()) bits_ = list;
  }

  void Advance(uint32_t target) override {
    if (doc_ >= target) return;
    postings_.Advance(target);
    doc_ = postings_.doc();
  }
  double Score() override {
    if (!scored_) return 0.0;
    return scorer_.Score(idf_, postings_.tf(), postings_.doc_length());
  }
  void Explain(std::vector<TermContribution>* out) override {
    if (!scored_) return;
    out->push_back({postings_.term(), postings_.tf(), df_, idf_,
                    postings_.doc_length(), Score()});
  }
  uint64_t Cost() const override { return df_; }
  int64_t ExactCount() const override { return df_; }
  double MaxScore() const override {
    return scored_ ? scorer_.MaxScore(idf_) : 0.0;
  }
  bool MayMatch(uint32_t doc) const override {
    return bits_ == nullptr || bits_->Contains(doc);
  }
  absl::Span<const uint64_t> DocBits() const override {
    if (bits_ == nullptr) return {};
    return bits_->doc_bits;
  }
  uint32_t ShallowAdvance(uint32_t target) override {
    const index::PostingList::Block* block = postings_.ShallowAdvance(target);
    if (block == nullptr) {
      block_max_ = 0.0;
      return kNoMoreDocs;
    }
    block_max_ = scored_ ? block->MaxScore(scorer_, idf_) : 0.0;
    return block->header.last_doc;
  }
  double BlockMaxScore() override { return block_max_; }
  absl::Status AddAll(DocBitmap* matches, const CancelFn& cancelled) override {
    for (uint32_t n = 1; postings_.doc() != kNoMoreDocs;
         postings_.Next(), ++n) {
      matches->Set(postings_.doc());
      if ((n & 65535) == 0 && cancelled && cancelled()) {
        doc_ = kNoMoreDocs;
        return Cancelled();
      }
    }
    doc_ = kNoMoreDocs;
    return absl::OkStatus();
  }
  absl::Status status() const override { return postings_.status(); }

  PostingIterator& postings() { return postings_; }

 private:
  PostingIterator postings_;
  const index::Bm25Scorer& scorer_;
  uint32_t df_;
  double idf_;
  bool scored_;
  double block_max_ = 0.0;  // For the last ShallowAdvance().
  // The list, if it is dense (doc_bits), for MayMatch(); postings_ holds it.
  const index::PostingList* bits_ = nullptr;
};

}  // namespace paperdb::search::internal

#endif  // PAPERDB_SEARCH_TERM_ITERATOR_H_
