// The boolean iterators: AndIterator (a conjunction, with exclusions, by
// leapfrog) and OrIterator (a sum, or a maximum for dismax, of its
// children), with their block-max bounds.

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "paperdb/search/doc_iterator.h"

namespace paperdb::search {
namespace {

// The first doc >= `target` on which all `n` iterators stand, `at(i)`
// giving the i-th (rarest first), or kNoMoreDocs: the leapfrog of Lucene's
// ConjunctionDISI. Each iterator is advanced at most to that doc.
template <typename At>
uint32_t Leapfrog(size_t n, const At& at, uint32_t target) {
  while (true) {
    DocIterator& lead = at(0);
    lead.Advance(target);
    target = lead.doc();
    bool aligned = true;
    for (size_t i = 1; i < n && target != kNoMoreDocs; ++i) {
      DocIterator& other = at(i);
      other.Advance(target);
      if (other.doc() != target) {
        target = other.doc();
        aligned = false;
        break;
      }
    }
    if (aligned || target == kNoMoreDocs) return target;
  }
}

class AndIterator final : public DocIterator {
 public:
  AndIterator(std::vector<std::unique_ptr<DocIterator>> required,
              std::vector<std::unique_ptr<DocIterator>> excluded)
      : required_(std::move(required)), excluded_(std::move(excluded)) {
    std::sort(
        required_.begin(), required_.end(),
        [](const auto& a, const auto& b) { return a->Cost() < b->Cost(); });
    doc_ = 0;
    Find(0);
  }

  void Advance(uint32_t target) override {
    if (doc_ >= target) return;
    Find(target);
  }
  double Score() override {
    double score = 0.0;
    for (auto& child : required_) score += child->Score();
    return score;
  }
  void Explain(std::vector<TermContribution>* out) override {
    for (auto& child : required_) child->Explain(out);
  }
  uint64_t Cost() const override { return required_[0]->Cost(); }
  double MaxScore() const override {
    double bound = 0.0;
    for (const auto& child : required_) bound += child->MaxScore();
    return bound;
  }
  uint32_t ShallowAdvance(uint32_t target) override {
    uint32_t end = kNoMoreDocs;
    block_max_ = 0.0;
    for (auto& child : required_) {
      end = std::min(end, child->ShallowAdvance(target));
      block_max_ += child->BlockMaxScore();
    }
    return end;
  }
  double BlockMaxScore() override { return block_max_; }
  absl::Status status() const override {
    for (const auto& child : required_) {
      if (!child->status().ok()) return child->status();
    }
    for (const auto& child : excluded_) {
      if (!child->status().ok()) return child->status();
    }
    return absl::OkStatus();
  }

 private:
  // Moves to the first doc >= target that every required child and no
  // excluded one matches.
  void Find(uint32_t target) {
    auto at = [this](size_t i) -> DocIterator& { return *required_[i]; };
    while (true) {
      target = Leapfrog(required_.size(), at, target);
      if (target == kNoMoreDocs) {
        doc_ = kNoMoreDocs;
        return;
      }
      bool excluded = false;
      for (auto& ex : excluded_) {
        ex->Advance(target);
        excluded |= ex->doc() == target;
      }
      if (!excluded) {
        doc_ = target;
        return;
      }
      ++target;
    }
  }

  std::vector<std::unique_ptr<DocIterator>> required_;  // By ascending cost.
  std::vector<std::unique_ptr<DocIterator>> excluded_;
  double block_max_ = 0.0;  // For the last ShallowAdvance().
};

class OrIterator final : public DocIterator {
 public:
  OrIterator(std::vector<std::unique_ptr<DocIterator>> children, bool dismax)
      : children_(std::move(children)), dismax_(dismax) {
    Update();
  }

  void Advance(uint32_t target) override {
    if (doc_ >= target) return;
    for (auto& child : children_) child->Advance(target);
    Update();
  }
  double Score() override {
    double score = 0.0;
    for (auto& child : children_) {
      if (child->doc() != doc_) continue;
      const double s = child->Score();
      score = dismax_ ? std::max(score, s) : score + s;
    }
    return score;
  }
  void Explain(std::vector<TermContribution>* out) override {
    if (!dismax_) {
      for (auto& child : children_) {
        if (child->doc() == doc_) child->Explain(out);
      }
      return;
    }
    DocIterator* best = nullptr;
    double best_score = -1.0;
    for (auto& child : children_) {
      if (child->doc() != doc_) continue;
      const double s = child->Score();
      if (s > best_score) {
        best_score = s;
        best = child.get();
      }
    }
    if (best == nullptr) return;
    best->Explain(out);
    for (auto& child : children_) {
      if (child.get() == best || child->doc() != doc_) continue;
      const size_t first = out->size();
      child->Explain(out);
      for (size_t i = first; i < out->size(); ++i) {
        (*out)[i].score = 0.0;
        (*out)[i].outscored = true;
      }
    }
  }
  uint64_t Cost() const override {
    uint64_t cost = 0;
    for (const auto& child : children_) cost += child->Cost();
    return cost;
  }
  double MaxScore() const override {
    double bound = 0.0;
    for (const auto& child : children_) {
      bound = dismax_ ? std::max(bound, child->MaxScore())
                      : bound + child->MaxScore();
    }
    return bound;
  }
  uint32_t ShallowAdvance(uint32_t target) override {
    uint32_t end = kNoMoreDocs;
    block_max_ = 0.0;
    for (auto& child : children_) {
      end = std::min(end, child->ShallowAdvance(target));
      const double bound = child->BlockMaxScore();
      block_max_ = dismax_ ? std::max(block_max_, bound) : block_max_ + bound;
    }
    return end;
  }
  double BlockMaxScore() override { return block_max_; }
  absl::Status AddAll(DocBitmap* matches, const CancelFn& cancelled) override {
    doc_ = kNoMoreDocs;
    for (auto& child : children_) {
      if (absl::Status s = child->AddAll(matches, cancelled); !s.ok()) {
        return s;
      }
    }
    return absl::OkStatus();
  }
  absl::Status status() const override {
    for (const auto& child : children_) {
      if (!child->status().ok()) return child->status();
    }
    return absl::OkStatus();
  }

 private:
  void Update() {
    doc_ = kNoMoreDocs;
    for (const auto& child : children_) doc_ = std::min(doc_, child->doc());
  }

  std::vector<std::unique_ptr<DocIterator>> children_;
  bool dismax_;
  double block_max_ = 0.0;  // For the last ShallowAdvance().
};

}  // namespace

std::unique_ptr<DocIterator> NewAndIterator(
    std::vector<std::unique_ptr<DocIterator>> required,
    std::vector<std::unique_ptr<DocIterator>> excluded) {
  if (required.empty()) return NewEmptyIterator();
  if (required.size() == 1 && excluded.empty()) return std::move(required[0]);
  return std::make_unique<AndIterator>(std::move(required),
                                       std::move(excluded));
}
std::unique_ptr<DocIterator> NewOrIterator(
    std::vector<std::unique_ptr<DocIterator>> children, bool dismax) {
  if (children.empty()) return NewEmptyIterator();
  if (children.size() == 1) return std::move(children[0]);
  return std::make_unique<OrIterator>(std::move(children), dismax);
}
}  // namespace paperdb::search
