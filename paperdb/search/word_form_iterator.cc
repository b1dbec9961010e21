#include "paperdb/search/word_form_iterator.h"

#include <algorithm>
#include <utility>

#include "paperdb/index/posting_iterator.h"

namespace paperdb::search {
namespace {

using index::PostingIterator;

class WordFormIterator final : public DocIterator {
 public:
  WordFormIterator(const storage::Store& store, const WordForms& forms,
                   const index::Bm25Scorer& scorer)
      : stem_(store, forms.stem),
        scorer_(scorer),
        df_(forms.df),
        idf_(scorer.Idf(forms.scoring_df == 0 ? forms.df : forms.scoring_df)),
        unmarked_same_(forms.unmarked_same),
        surface_only_(forms.surface_only),
        stem_only_weight_(forms.stem_only_weight) {
    // Unmarked occurrences that are the typed word are counted against the
    // other words' forms; otherwise a full match holds a form of its own.
    for (const std::string& term :
         unmarked_same_ ? forms.other_forms : forms.same_forms) {
      forms_.push_back(std::make_unique<PostingIterator>(store, term));
    }
    Settle(stem_.doc());
  }

  void Advance(uint32_t target) override {
    if (doc_ >= target) return;
    stem_.Advance(target);
    Settle(stem_.doc());
  }
  double Score() override {
    const uint32_t tf = stem_.tf();
    if (!exact_) {
      return stem_only_weight_ * scorer_.Score(idf_, tf, stem_.doc_length());
    }
    // The other words' occurrences count at the same weight as papers of
    // other words alone do; for a quoted word, not at all.
    const double weighted =
        surface_only_
            ? same_tf_
            : same_tf_ + stem_only_weight_ * static_cast<double>(tf - same_tf_);
    return scorer_.WeightedScore(idf_, weighted, stem_.doc_length());
  }
  void Explain(std::vector<TermContribution>* out) override {
    const uint32_t tf = surface_only_ ? same_tf_ : stem_.tf();
    TermContribution c{stem_.term(),       tf,     df_, idf_,
                       stem_.doc_length(), Score()};
    c.stem_only = !exact_;
    out->push_back(std::move(c));
  }
  uint64_t Cost() const override { return df_; }
  int64_t ExactCount() const override { return surface_only_ ? -1 : df_; }
  double MaxScore() const override { return scorer_.MaxScore(idf_); }
  uint32_t ShallowAdvance(uint32_t target) override {
    const index::PostingList::Block* block = stem_.ShallowAdvance(target);
    if (block == nullptr) {
      block_max_ = 0.0;
      return kNoMoreDocs;
    }
    block_max_ = block->MaxScore(scorer_, idf_);
    return block->header.last_doc;
  }
  double BlockMaxScore() override { return block_max_; }
  absl::Status status() const override {
    if (!stem_.status().ok()) return stem_.status();
    for (const auto& form : forms_) {
      if (!form->status().ok()) return form->status();
    }
    return absl::OkStatus();
  }

 private:
  // Moves to the first doc from `doc` on that matches (any of the stem's,
  // or only full matches when surface_only_), and works out exact_.
  void Settle(uint32_t doc) {
    while (doc != kNoMoreDocs) {
      exact_ = IsExact(doc);
      if (exact_ || !surface_only_) break;
      stem_.Next();
      doc = stem_.doc();
    }
    doc_ = doc;
  }

  // Whether `doc` holds the typed word; sets same_tf_ to its occurrences.
  bool IsExact(uint32_t doc) {
    uint32_t forms_tf = 0;
    for (auto& form : forms_) {
      if (form->doc() < doc) form->Advance(doc);
      if (form->doc() == doc) forms_tf += form->tf();
    }
    const uint32_t stem_tf = stem_.tf();
    same_tf_ = unmarked_same_ ? stem_tf - std::min(forms_tf, stem_tf)
                              : std::min(forms_tf, stem_tf);
    return same_tf_ > 0;
  }

  PostingIterator stem_;
  std::vector<std::unique_ptr<PostingIterator>> forms_;
  const index::Bm25Scorer& scorer_;
  uint32_t df_;
  double idf_;
  bool unmarked_same_;
  bool surface_only_;
  double stem_only_weight_;
  bool exact_ = false;
  uint32_t same_tf_ = 0;  // Occurrences of the typed word in doc_.
  double block_max_ = 0.0;
};

}  // namespace

std::unique_ptr<DocIterator> NewWordFormIterator(
    const storage::Store& store, const WordForms& forms,
    const index::Bm25Scorer& scorer) {
  return std::make_unique<WordFormIterator>(store, forms, scorer);
}

}  // namespace paperdb::search
