#include "paperdb/search/doc_iterator.h"

#include <memory>
#include <utility>

#include "paperdb/search/phrase_iterator.h"
#include "paperdb/search/term_iterator.h"

namespace paperdb::search {
namespace {

class EmptyIterator final : public DocIterator {
 public:
  void Advance(uint32_t) override {}
  double Score() override { return 0.0; }
  void Explain(std::vector<TermContribution>*) override {}
  uint64_t Cost() const override { return 0; }
  int64_t ExactCount() const override { return 0; }
  double MaxScore() const override { return 0.0; }
  absl::Status AddAll(DocBitmap*, const CancelFn&) override {
    return absl::OkStatus();
  }
  absl::Status status() const override { return absl::OkStatus(); }
};

class ScaledIterator final : public DocIterator {
 public:
  ScaledIterator(std::unique_ptr<DocIterator> child, double factor)
      : child_(std::move(child)), factor_(factor) {
    doc_ = child_->doc();
  }

  void Advance(uint32_t target) override {
    child_->Advance(target);
    doc_ = child_->doc();
  }
  double Score() override { return factor_ * child_->Score(); }
  void Explain(std::vector<TermContribution>* out) override {
    const size_t first = out->size();
    child_->Explain(out);
    for (size_t i = first; i < out->size(); ++i) {
      (*out)[i].idf *= factor_;
      (*out)[i].score *= factor_;
    }
  }
  uint64_t Cost() const override { return child_->Cost(); }
  int64_t ExactCount() const override { return child_->ExactCount(); }
  double MaxScore() const override { return factor_ * child_->MaxScore(); }
  bool MayMatch(uint32_t doc) const override { return child_->MayMatch(doc); }
  absl::Span<const uint64_t> DocBits() const override {
    return child_->DocBits();
  }
  uint32_t ShallowAdvance(uint32_t target) override {
    return child_->ShallowAdvance(target);
  }
  double BlockMaxScore() override { return factor_ * child_->BlockMaxScore(); }
  absl::Status AddAll(DocBitmap* matches, const CancelFn& cancelled) override {
    const absl::Status status = child_->AddAll(matches, cancelled);
    doc_ = child_->doc();
    return status;
  }
  absl::Status status() const override { return child_->status(); }

 private:
  std::unique_ptr<DocIterator> child_;
  const double factor_;
};

}  // namespace

std::unique_ptr<DocIterator> NewScaledIterator(
    std::unique_ptr<DocIterator> child, double factor) {
  return std::make_unique<ScaledIterator>(std::move(child), factor);
}
std::unique_ptr<DocIterator> NewEmptyIterator() {
  return std::make_unique<EmptyIterator>();
}
std::unique_ptr<DocIterator> NewTermIterator(const storage::Store& store,
                                             const std::string& term,
                                             uint32_t df,
                                             const index::Bm25Scorer& scorer,
                                             bool scored, uint32_t scoring_df) {
  return std::make_unique<internal::TermIterator>(
      store, term, df, scorer, scored, scoring_df == 0 ? df : scoring_df);
}
std::unique_ptr<DocIterator> NewPhraseIterator(
    const storage::Store& store, const std::vector<std::string>& words,
    const std::vector<uint32_t>& dfs, const std::vector<PhrasePart>& parts,
    uint32_t slop, const index::Bm25Scorer& scorer, const CancelFn& cancelled) {
  if (parts.empty()) return NewEmptyIterator();
  return std::make_unique<internal::PhraseIterator>(store, words, dfs, parts,
                                                    slop, scorer, cancelled);
}
}  // namespace paperdb::search
