#include "paperdb/search/searcher.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <queue>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "paperdb/common/hash.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/common_grams.h"
#include "paperdb/index/field_terms.h"
#include "paperdb/index/posting_cache.h"
#include "paperdb/index/posting_iterator.h"
#include "paperdb/search/paired_docs.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/search/skip_estimator.h"
#include "paperdb/search/word_form_iterator.h"
#include "paperdb/storage/paper_table.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/text/stopwords.h"

namespace paperdb::search {
namespace {

using index::PostingBlockHeader;
using index::PostingIterator;
using Kind = QueryNode::Kind;

// Keeps the k best docs seen under `Better`, scores rounded (RoundedScore()),
// of those strictly after `after` (if given: a keyset cursor) under it.
template <typename Better>
class TopK {
 public:
  TopK(size_t k, Better better, const ScoredDoc* after = nullptr)
      : k_(k), heap_(better), after_(after) {}
  void Push(ScoredDoc doc) {
    if (k_ == 0) return;
    doc.score = RoundedScore(doc.score);
    if (after_ != nullptr && !heap_.value_comp()(*after_, doc)) return;
    if (heap_.size() < k_) {
      heap_.push(doc);
    } else if (heap_.value_comp()(doc, heap_.top())) {
      heap_.pop();
      heap_.push(doc);
    } else {
      return;
    }
    if (heap_.size() == k_) {
      threshold_ = std::nextafter(heap_.top().score + kScoreUnit, 0.0);
    }
  }
  bool full() const { return k_ > 0 && heap_.size() == k_; }
  // REQUIRES: full(). The largest score that cannot enter: one whose
  // rounding (RoundedScore()) is at most the k-th best's, which it ties at
  // best, and ties go to the lower doc id, seen first. Bounds at most this
  // prune.
  double threshold() const { return threshold_; }
  std::vector<ScoredDoc> Take() {
    std::vector<ScoredDoc> out;
    while (!heap_.empty()) {
      out.push_back(heap_.top());
      heap_.pop();
    }
    std::reverse(out.begin(), out.end());
    return out;
  }

 private:
  // A max-heap under `Better` keeps the worst on top.
  struct Heap : std::priority_queue<ScoredDoc, std::vector<ScoredDoc>, Better> {
    explicit Heap(Better b)
        : std::priority_queue<ScoredDoc, std::vector<ScoredDoc>, Better>(b) {}
    Better value_comp() const { return this->comp; }
  };
  size_t k_;
  Heap heap_;
  const ScoredDoc* after_;  // Not owned; may be null.
  double threshold_ = 0.0;  // See threshold().
};

// A function object rather than a function, so that TopK's comparisons
// inline.
constexpr auto BetterScore = [](const ScoredDoc& a, const ScoredDoc& b) {
  return a.score > b.score || (a.score == b.score && a.doc < b.doc);
};

// The doc a tier's search continues after: `options.after`'s, when it is
// in `tier`.
const ScoredDoc* AfterIn(const SearchOptions& options, int tier) {
  return options.after && options.after->tier == tier ? &options.after->doc
                                                      : nullptr;
}

// Whether `a` sorts before `b` in year order (`descending` or not):
// papers without a year last, ties by doc id (SortBy()).
bool YearPrecedes(bool descending, const ScoredDoc& a, const ScoredDoc& b) {
  if ((a.year == kNoYear) != (b.year == kNoYear)) return b.year == kNoYear;
  if (a.year != b.year) return descending ? a.year > b.year : a.year < b.year;
  return a.doc < b.doc;
}

// Whether `a` sorts before `b` in the non-relevance `order`.
bool Precedes(SortOrder order, const ScoredDoc& a, const ScoredDoc& b) {
  switch (order) {
    case SortOrder::kIngestDescending:
      return a.doc > b.doc;
    case SortOrder::kYearDescending:
    case SortOrder::kYearAscending:
      return YearPrecedes(order == SortOrder::kYearDescending, a, b);
    default:
      return a.doc < b.doc;
  }
}

// A term read as its posting list alone: not one whose stem other words
// share (word_form_iterator.h).
bool IsPlainTerm(const QueryNode& node) {
  return node.kind == Kind::kTerm && !node.split_forms && node.boost == 1.0;
}

class Evaluation {
 public:
  // With `pin` (may be null; not owned), its document frequencies.
  Evaluation(const storage::Store& store, const index::Bm25Scorer& scorer,
             const CancelFn& cancelled, const ScoringPin* pin = nullptr)
      : store_(store), scorer_(scorer), cancelled_(cancelled), pin_(pin) {}

  // The document frequencies read so far, by PinnedTermHash().
  absl::flat_hash_map<uint32_t, uint32_t> DocumentFrequencies() const {
    absl::flat_hash_map<uint32_t, uint32_t> out;
    for (const auto& [term, df] : scoring_dfs_) out[PinnedTermHash(term)] = df;
    return out;
  }

  // The iterator of `node`, scaled by its boost.
  absl::StatusOr<std::unique_ptr<DocIterator>> Build(const QueryNode& node) {
    PAPERDB_ASSIGN_OR_RETURN(std::unique_ptr<DocIterator> it, BuildNode(node));
    if (node.boost != 1.0) it = NewScaledIterator(std::move(it), node.boost);
    return it;
  }

  absl::StatusOr<std::unique_ptr<DocIterator>> BuildNode(
      const QueryNode& node) {
    if (node.kind != Kind::kAnd && node.kind != Kind::kOr) {
      // Before each leaf: its posting lists may have to be read.
      PAPERDB_RETURN_IF_ERROR(CheckCancelledNow());
    }
    switch (node.kind) {
      case Kind::kTerm: {
        PAPERDB_ASSIGN_OR_RETURN(const uint32_t df, Df(node.terms[0]));
        PAPERDB_ASSIGN_OR_RETURN(const uint32_t scoring_df,
                                 ScoringDf(node.terms[0]));
        if (df == 0 || scoring_df == 0) return NewEmptyIterator();
        if (node.split_forms) {
          return NewWordFormIterator(
              store_,
              WordForms{node.terms[0], df, scoring_df, node.same_forms,
                        node.other_forms, node.unmarked_same,
                        node.surface_only},
              scorer_);
        }
        return NewTermIterator(store_, node.terms[0], df, scorer_, true,
                               scoring_df);
      }
      case Kind::kPhrase: {
        std::vector<uint32_t> dfs;          // For the parts' costs.
        std::vector<uint32_t> scoring_dfs;  // For the phrase's idf.
        for (const std::string& term : node.terms) {
          PAPERDB_ASSIGN_OR_RETURN(const uint32_t df, Df(term));
          PAPERDB_ASSIGN_OR_RETURN(const uint32_t scoring_df, ScoringDf(term));
          if (df == 0 || scoring_df == 0) return NewEmptyIterator();
          dfs.push_back(df);
          scoring_dfs.push_back(scoring_df);
        }
        // An exact phrase reads each pair of adjacent stopwords as their
        // common gram, one short list for two of the longest.
        std::vector<PhrasePart> parts;
        const std::vector<std::string>& words = node.terms;
        for (size_t i = 0; i < words.size(); ++i) {
          if (node.slop == 0 && i + 1 < words.size() &&
              index::IsCommonGramWord(words[i]) &&
              index::IsCommonGramWord(words[i + 1])) {
            std::string gram = index::CommonGram(words[i], words[i + 1]);
            PAPERDB_ASSIGN_OR_RETURN(const uint32_t df, Df(gram));
            if (df == 0) return NewEmptyIterator();
            parts.push_back({std::move(gram), df, static_cast<uint32_t>(i)});
            ++i;
            continue;
          }
          parts.push_back({words[i], dfs[i], static_cast<uint32_t>(i)});
        }
        return NewPhraseIterator(store_, words, scoring_dfs, parts, node.slop,
                                 scorer_, cancelled_);
      }
      case Kind::kField: {
        std::vector<std::unique_ptr<DocIterator>> terms;
        for (const std::string& term : node.terms) {
          PAPERDB_ASSIGN_OR_RETURN(const uint32_t df, Df(term));
          if (df > 0) {
            terms.push_back(NewTermIterator(store_, term, df, scorer_, false));
          }
        }
        return NewOrIterator(std::move(terms), false);
      }
      case Kind::kPrefix:  // Expanded into a kOr before evaluation.
        return NewEmptyIterator();
      case Kind::kAnd: {
        std::vector<std::unique_ptr<DocIterator>> required, excluded;
        for (const QueryNode& child : node.children) {
          PAPERDB_ASSIGN_OR_RETURN(std::unique_ptr<DocIterator> it,
                                   Build(child));
          (child.excluded ? excluded : required).push_back(std::move(it));
        }
        return NewAndIterator(std::move(required), std::move(excluded));
      }
      case Kind::kOr: {
        std::vector<std::unique_ptr<DocIterator>> children;
        for (const QueryNode& child : node.children) {
          PAPERDB_ASSIGN_OR_RETURN(std::unique_ptr<DocIterator> it,
                                   Build(child));
          if (node.dismax && !child.acronym_of.empty()) {
            PAPERDB_ASSIGN_OR_RETURN(const double factor, ConceptFactor(child));
            if (factor < 1.0) it = NewScaledIterator(std::move(it), factor);
          }
          children.push_back(std::move(it));
        }
        return NewOrIterator(std::move(children), node.dismax);
      }
    }
    return NewEmptyIterator();
  }

  // An acronym's expansion names one concept: scored as its words (a
  // phrase, or words in a conjunction), it would weigh the sum of their
  // idfs, and a paper naming the concept twice in words outrank one naming
  // it eight times by its acronym ("LLMs"). Its score is scaled so that its
  // idf is the concept's: that of the acronym or of the rarest expansion
  // word, whichever is more common (the phrase is in at most that many
  // papers). 1 if the words weigh no more, or are not plain terms.
  absl::StatusOr<double> ConceptFactor(const QueryNode& expansion) {
    std::vector<const std::string*> words;
    if (expansion.kind == Kind::kTerm || expansion.kind == Kind::kPhrase) {
      for (const std::string& term : expansion.terms) words.push_back(&term);
    } else {
      for (const QueryNode& child : expansion.children) {
        if (child.kind != Kind::kTerm || child.excluded) return 1.0;
        words.push_back(&child.terms[0]);
      }
    }
    PAPERDB_ASSIGN_OR_RETURN(uint32_t concept_df,
                             ScoringDf(expansion.acronym_of));
    double summed = 0.0;
    uint32_t rarest = UINT32_MAX;
    for (const std::string* word : words) {
      PAPERDB_ASSIGN_OR_RETURN(const uint32_t df, ScoringDf(*word));
      if (df == 0) continue;
      summed += scorer_.Idf(df);
      rarest = std::min(rarest, df);
    }
    if (rarest == UINT32_MAX || summed <= 0.0) return 1.0;
    concept_df = std::max(concept_df, rarest);
    return std::min(1.0, scorer_.Idf(concept_df) / summed);
  }

  // CANCELLED once `cancelled_` says so; asks it on the first call and then
  // every 1024 calls only.
  absl::Status CheckCancelled() {
    if (!cancelled_ || (steps_++ & 1023) != 0 || !cancelled_()) {
      return absl::OkStatus();
    }
    return SearchCancelledError();
  }

  // CANCELLED if `cancelled_` says so now: before reading a posting list,
  // which may take a RocksDB read (a search's clock keeps running there).
  absl::Status CheckCancelledNow() {
    if (cancelled_ && cancelled_()) return SearchCancelledError();
    return absl::OkStatus();
  }

  // The papers holding `term` now: for counts and costs.
  absl::StatusOr<uint32_t> Df(const std::string& term) {
    auto it = dfs_.find(term);
    if (it != dfs_.end()) return it->second;
    PAPERDB_ASSIGN_OR_RETURN(const uint32_t df,
                             DocumentFrequency(store_, term));
    dfs_.emplace(term, df);
    return df;
  }

  // The df `term`'s idf is of: the pin's if it has one, else Df().
  absl::StatusOr<uint32_t> ScoringDf(const std::string& term) {
    auto it = scoring_dfs_.find(term);
    if (it != scoring_dfs_.end()) return it->second;
    uint32_t df = 0;
    bool pinned = false;
    if (pin_ != nullptr) {
      if (auto found = pin_->dfs.find(PinnedTermHash(term));
          found != pin_->dfs.end()) {
        df = found->second;
        pinned = true;
      }
    }
    if (!pinned) {
      PAPERDB_ASSIGN_OR_RETURN(df, Df(term));
    }
    scoring_dfs_.emplace(term, df);
    return df;
  }

  // One term, nothing else, relevance order: the count is its document
  // frequency, and the top k need only the blocks whose best possible score
  // (from the block's impacts, posting_list.h) beats the k-th best so far:
  // block-max pruning (Ding & Suel, SIGIR 2011). Skipped blocks are never
  // decoded.
  absl::StatusOr<SearchHits> SingleTerm(const std::string& term,
                                        const SearchOptions& options) {
    SearchHits hits;
    PAPERDB_ASSIGN_OR_RETURN(const uint32_t df, Df(term));
    PAPERDB_ASSIGN_OR_RETURN(const uint32_t scoring_df, ScoringDf(term));
    hits.total = df;
    if (df == 0 || scoring_df == 0) return hits;
    const double idf = scorer_.Idf(scoring_df);
    TopK top(options.top_k, BetterScore, AfterIn(options, 0));
    PostingIterator postings(store_, term);
    while (postings.doc() != kNoMoreDocs) {
      PAPERDB_RETURN_IF_ERROR(CheckCancelled());
      const index::PostingList::Block& block = postings.block();
      // Ties go to the lower doc id, which is earlier: an equal bound
      // cannot displace anything.
      if (top.full() && block.MaxScore(scorer_, idf) <= top.threshold()) {
        postings.NextBlock();
        continue;
      }
      const uint32_t last = block.header.last_doc;
      while (postings.doc() <= last && postings.doc() != kNoMoreDocs) {
        top.Push({postings.doc(),
                  scorer_.Score(idf, postings.tf(), postings.doc_length())});
        postings.Next();
      }
    }
    PAPERDB_RETURN_IF_ERROR(postings.status());
    hits.top = top.Take();
    hits.full_matches = hits.top.size();
    hits.full_total = hits.total;
    return hits;
  }

  // The clauses of `node` if it is a plain sum of clauses (a non-dismax OR,
  // alone or as the only child of an AND), else empty.
  static std::vector<const QueryNode*> Disjuncts(const QueryNode& node) {
    const QueryNode* n = &node;
    if (n->kind == Kind::kAnd && n->children.size() == 1) {
      n = &n->children[0];
    }
    std::vector<const QueryNode*> clauses;
    if (n->kind != Kind::kOr || n->dismax || n->excluded ||
        n->children.size() < 2) {
      return clauses;
    }
    for (const QueryNode& child : n->children) {
      if (child.excluded) return {};
      clauses.push_back(&child);
    }
    return clauses;
  }

  // Every match of `node`, counted and ranked: by Disjunction() when it is
  // a sum of clauses ranked by relevance, else by Collect().
  absl::StatusOr<SearchHits> Run(const QueryNode& node,
                                 const SearchOptions& options) {
    if (options.order == SortOrder::kRelevance && !options.collect_matches) {
      std::vector<const QueryNode*> clauses = Disjuncts(node);
      if (!clauses.empty()) return Disjunction(clauses, options);
    }
    if (options.order == SortOrder::kRelevance && !options.collect_matches &&
        IsTermConjunction(node)) {
      return TermConjunction(node, options);
    }
    PAPERDB_ASSIGN_OR_RETURN(std::unique_ptr<DocIterator> it, Build(node));
    return Collect(*it, options);
  }

  // True for an AND of two or more plain terms, nothing excluded: the most
  // common query, which TermConjunction() answers.
  static bool IsTermConjunction(const QueryNode& node) {
    if (node.kind != Kind::kAnd || node.children.size() < 2) return false;
    for (const QueryNode& child : node.children) {
      if (!IsPlainTerm(child) || child.excluded) return false;
    }
    return true;
  }

  // Collect() of an AND of plain terms, specialised: the same matches,
  // count, scores (summed in the same order) and top k, without a tree of
  // iterators. The rarest term's blocks are walked doc by doc; each other
  // term's list is searched in memory, its blocks decoded only when their
  // doc range holds a candidate; frequencies are decoded only for matches
  // that get scored, and a match is only counted when the block-max bound
  // of the blocks holding it cannot reach the top k (Ding & Suel 2011).
  // A lead block that no block of another term overlaps is skipped. Once
  // options.exact_total_up_to matches are counted, so is a lead block
  // whose bound, with the best bound of the other terms' blocks over its
  // doc range, cannot reach the top k, but for one such block in 16, walked
  // as a probe: the skipped blocks' matches are estimated from the probes'
  // rate of matches per lead posting.
  absl::StatusOr<SearchHits> TermConjunction(const QueryNode& node,
                                             const SearchOptions& options) {
    struct Cursor {
      std::shared_ptr<const index::PostingList> list;
      uint32_t df = 0;
      double idf = 0.0;
      size_t block = 0;      // Current block.
      bool decoded = false;  // Its doc ids are in `postings`.
      index::PostingBlock postings;
      size_t i = 0;            // Posting within the block.
      double block_max = 0.0;  // Bound of the current block's scores.
      size_t scan = 0;         // First block that may overlap the lead's block.
    };
    SearchHits hits;
    std::vector<Cursor> cursors(node.children.size());
    for (size_t c = 0; c < cursors.size(); ++c) {
      const std::string& term = node.children[c].terms[0];
      PAPERDB_ASSIGN_OR_RETURN(cursors[c].df, Df(term));
      PAPERDB_ASSIGN_OR_RETURN(const uint32_t scoring_df, ScoringDf(term));
      if (cursors[c].df == 0 || scoring_df == 0) return hits;
      PAPERDB_RETURN_IF_ERROR(CheckCancelledNow());
      PAPERDB_ASSIGN_OR_RETURN(
          cursors[c].list, index::PostingCache::Default().Get(store_, term));
      if (cursors[c].list->blocks.empty()) return hits;
      cursors[c].idf = scorer_.Idf(scoring_df);
    }
    // The order AndIterator sums its children's scores in.
    std::sort(cursors.begin(), cursors.end(),
              [](const Cursor& a, const Cursor& b) { return a.df < b.df; });
    auto load = [&](Cursor& c, size_t block) {
      c.block = block;
      c.decoded = false;
      c.i = 0;
      c.block_max = c.list->blocks[block].MaxScore(scorer_, c.idf);
    };
    // The lead's blocks are decoded whole; the others' only opened, and
    // their doc ids decoded as far as the lead's docs reach.
    auto decode = [&](Cursor& c, bool whole) -> absl::Status {
      if (c.decoded) return absl::OkStatus();
      const uint32_t first = c.list->blocks[c.block].first_doc;
      PAPERDB_RETURN_IF_ERROR(
          whole ? c.postings.DecodeInPlace(first, c.list->value(c.block))
                : c.postings.Open(first, c.list->value(c.block)));
      c.decoded = true;
      return absl::OkStatus();
    };
    // The best bound of `c`'s blocks over docs [first, last] (0 unless
    // `bounded`); negative if none of them overlaps it. Calls come in
    // increasing doc order.
    auto range_max = [&](Cursor& c, uint32_t first, uint32_t last,
                         bool bounded) {
      const auto& blocks = c.list->blocks;
      while (c.scan < blocks.size() && blocks[c.scan].header.last_doc < first) {
        ++c.scan;
      }
      if (!bounded) {
        return c.scan < blocks.size() && blocks[c.scan].first_doc <= last
                   ? 0.0
                   : -1.0;
      }
      double best = -1.0;
      for (size_t i = c.scan; i < blocks.size() && blocks[i].first_doc <= last;
           ++i) {
        best = std::max(best, blocks[i].MaxScore(scorer_, c.idf));
      }
      return best;
    };
    // Makes the block of `c` that is the only one that can hold `doc`
    // current; false if `c`'s list ends before `doc`.
    auto to_block = [&](Cursor& c, uint32_t doc) {
      const auto& blocks = c.list->blocks;
      const auto next = std::partition_point(
          blocks.begin() + static_cast<std::ptrdiff_t>(c.block) + 1,
          blocks.end(), [doc](const index::PostingList::Block& block) {
            return block.header.last_doc < doc;
          });
      if (next == blocks.end()) return false;
      load(c, static_cast<size_t>(next - blocks.begin()));
      return true;
    };
    // Whether `c`'s current block, which ends at or after `doc`, holds it;
    // c.i is then its posting.
    auto seek = [&](Cursor& c, uint32_t doc) -> absl::StatusOr<bool> {
      const uint32_t first = c.list->blocks[c.block].first_doc;
      if (first > doc) return false;
      if (!c.list->doc_bits.empty() && c.list->Contains(doc)) {
        // A dense list: the posting's index is the number of its docs
        // before `doc` in the block, counted in the bitset; no doc gap is
        // decoded.
        PAPERDB_RETURN_IF_ERROR(decode(c, /*whole=*/false));
        c.i = c.list->Rank(first, doc);
        if (c.i < c.postings.size()) return true;
        return absl::DataLossError(
            "posting list: its bitset and its blocks disagree");
      }
      PAPERDB_RETURN_IF_ERROR(decode(c, /*whole=*/true));
      // Only a malformed block has no doc >= `doc`.
      c.i = c.postings.SeekDoc(c.i, doc);
      if (c.i == c.postings.size()) {
        return c.postings.status().ok()
                   ? absl::DataLossError("posting block: malformed doc gaps")
                   : c.postings.status();
      }
      return c.postings.doc(c.i) == doc;
    };
    for (Cursor& c : cursors) load(c, 0);
    // The dense lists (the lead's too), when two or more: a lead block whose
    // doc range holds no doc set in all their bitsets has no match, and is
    // skipped undecoded (a word-wise AND over the range, Culpepper & Moffat
    // 2010). Most 4-6 word conjunctions of common words end that way.
    std::vector<const std::vector<uint64_t>*> dense;
    for (const Cursor& c : cursors) {
      if (!c.list->doc_bits.empty()) dense.push_back(&c.list->doc_bits);
    }
    if (dense.size() < 2) dense.clear();
    auto dense_overlap = [&](uint32_t first, uint32_t last) {
      const size_t first_word = first >> 6;
      const size_t last_word = last >> 6;
      for (size_t w = first_word; w <= last_word; ++w) {
        uint64_t bits = ~uint64_t{0};
        if (w == first_word) bits &= ~uint64_t{0} << (first & 63);
        if (w == last_word && (last & 63) != 63) {
          bits &= (uint64_t{1} << ((last & 63) + 1)) - 1;
        }
        for (const std::vector<uint64_t>* d : dense) {
          bits &= w < d->size() ? (*d)[w] : 0;
          if (bits == 0) break;
        }
        if (bits != 0) return true;
      }
      return false;
    };
    // The order the other terms are matched in: the dense ones first (a
    // bit each), then the others by df. A paper that a dense word rules out
    // costs no seek, and no decoding, in the sparse lists: in `efficiently
    // nitpicker merging power reconstruct remains` (three dense words of
    // six) most of the sparse lists' blocks were decoded for lead docs the
    // bitsets then refused.
    std::vector<size_t> match_order;
    for (size_t c = 1; c < cursors.size(); ++c) {
      if (!cursors[c].list->doc_bits.empty()) match_order.push_back(c);
    }
    for (size_t c = 1; c < cursors.size(); ++c) {
      if (cursors[c].list->doc_bits.empty()) match_order.push_back(c);
    }
    TopK top(options.top_k, BetterScore, AfterIn(options, 0));
    Cursor& lead = cursors[0];
    const auto& lead_blocks = lead.list->blocks;
    // Lead blocks skipped uncounted, and the few walked as probes.
    SkipEstimator skips;
    for (size_t b = 0; b < lead_blocks.size(); ++b) {
      const index::PostingList::Block& ref = lead_blocks[b];
      const bool may_estimate = options.prune && top.full() &&
                                hits.total >= options.exact_total_up_to;
      double bound = may_estimate ? ref.MaxScore(scorer_, lead.idf) : 0.0;
      bool disjoint = false;
      for (size_t c = 1; c < cursors.size() && !disjoint; ++c) {
        const double other = range_max(cursors[c], ref.first_doc,
                                       ref.header.last_doc, may_estimate);
        disjoint = other < 0.0;
        bound += other;
      }
      if (disjoint) continue;  // No match in the block: the count stays exact.
      if (!dense.empty() &&
          !dense_overlap(ref.first_doc, ref.header.last_doc)) {
        continue;  // No match in the block: the count stays exact.
      }
      // Ties go to the lower doc id, which came first.
      bool probe = false;
      if (may_estimate && bound <= top.threshold()) {
        if (!skips.ShouldProbe(bound, top.threshold(), ref.header.count)) {
          continue;
        }
        probe = true;
      }
      PAPERDB_RETURN_IF_ERROR(CheckCancelled());  // Once a block.
      load(lead, b);
      PAPERDB_RETURN_IF_ERROR(decode(lead, /*whole=*/true));
      for (size_t j = 0; j < lead.postings.size(); ++j) {
        const uint32_t doc = lead.postings.doc(j);
        lead.i = j;
        bool match = true;
        for (const size_t c : match_order) {
          if (!match) break;
          Cursor& other = cursors[c];
          if (!other.list->doc_bits.empty()) {
            match = other.list->Contains(doc);  // A dense list: its bitset.
            continue;
          }
          const auto& blocks = other.list->blocks;
          if (blocks[other.block].header.last_doc < doc) {
            if (!to_block(other, doc)) {  // Its list ended: no more matches.
              return Finish(WithSkipped(std::move(hits), skips), top);
            }
          }
          if (blocks[other.block].first_doc > doc) {
            match = false;  // Between blocks: no decoding needed.
            break;
          }
          PAPERDB_ASSIGN_OR_RETURN(match, seek(other, doc));
        }
        if (!match) continue;
        ++hits.total;
        if (probe) skips.AddProbeMatches(1);
        // Dense lists matched by their bitsets: their blocks, for the bound.
        for (size_t c = 1; c < cursors.size(); ++c) {
          Cursor& other = cursors[c];
          if (!other.list->doc_bits.empty() &&
              other.list->blocks[other.block].header.last_doc < doc &&
              !to_block(other, doc)) {
            return absl::DataLossError(
                "posting list: a doc of its bitset is in none of its blocks");
          }
        }
        const bool bounded = options.prune && top.full();
        if (bounded) {
          double bound = 0.0;
          for (const Cursor& c : cursors) bound += c.block_max;
          // Ties go to the lower doc id, which came first.
          if (bound <= top.threshold()) continue;
        }
        // Scored term by term, summed in the order AndIterator sums; once
        // the score so far with the other terms' block bounds cannot reach
        // the k-th score, the rest is neither read nor decoded.
        double score = 0.0;
        bool out = false;
        for (size_t c = 0; c < cursors.size(); ++c) {
          Cursor& cursor = cursors[c];
          if (c > 0 && !cursor.list->doc_bits.empty()) {
            PAPERDB_ASSIGN_OR_RETURN(const bool found, seek(cursor, doc));
            if (!found) {
              return absl::DataLossError(
                  "posting list: a doc of its bitset is not in its block");
            }
          }
          if (!cursor.postings.DecodeTfsThrough(cursor.i) ||
              !cursor.postings.DecodeLengthsThrough(cursor.i)) {
            return cursor.postings.status();
          }
          score += scorer_.Score(cursor.idf, cursor.postings.tf(cursor.i),
                                 cursor.postings.doc_length(cursor.i));
          if (bounded && c + 1 < cursors.size()) {
            double rest = score;
            for (size_t k = c + 1; k < cursors.size(); ++k) {
              rest += cursors[k].block_max;
            }
            if (rest <= top.threshold()) {
              out = true;
              break;
            }
          }
        }
        if (!out) top.Push({doc, score});
      }
    }
    return Finish(WithSkipped(std::move(hits), skips), top);
  }

  template <typename Heap>
  static SearchHits Finish(SearchHits hits, Heap& top) {
    hits.top = top.Take();
    return hits;
  }

  // Adds the estimated matches of the parts `skips` skipped, and marks the
  // total estimated if it skipped any.
  static SearchHits WithSkipped(SearchHits hits, const SkipEstimator& skips) {
    if (!skips.skipped_any()) return hits;
    hits.total_estimated = true;
    hits.total += skips.SkippedMatches();
    return hits;
  }

  // Top k of the sum of `clauses` by MaxScore (H. Turtle and J. Flood,
  // "Query evaluation: strategies and optimizations", IP&M 31(6), 1995; as
  // in Lucene's MaxScoreBulkScorer), in windows of doc ids over which each
  // clause's score is bounded by its blocks' impacts (block-max, Ding &
  // Suel 2011): in a window, clauses sorted by their bounds whose bounds sum
  // to no more than the k-th best score so far cannot put a paper into the
  // top k on their own, so only the other ("essential") clauses' postings
  // are walked; the rest are advanced to those candidates only, and not at
  // all once the candidate cannot reach the k-th score or their bitsets
  // say they do not hold it (DocIterator::MayMatch). An essential clause
  // with a bitset whose bound alone cannot reach the k-th score is not
  // walked either when the non-essential ones all have bitsets: its
  // candidates are the papers it shares with one of them (PairedDocs).
  // The partition is made again whenever the k-th score rises. A window
  // where no clause is essential is skipped whole. The count comes from
  // CountUnion(), with no scoring, or is estimated: when every clause is a
  // word and one alone matches options.exact_total_up_to papers or more,
  // the words are taken as independent, N (1 - prod(1 - n_i / N)) for
  // clauses matching n_i of N papers (an exact count, or the cost bound
  // of a clause that has none), and at least the largest exact n_i.
  absl::StatusOr<SearchHits> Disjunction(
      const std::vector<const QueryNode*>& clauses,
      const SearchOptions& options) {
    const size_t top_k = options.top_k;
    SearchHits hits;
    std::vector<std::unique_ptr<DocIterator>> its;
    for (const QueryNode* clause : clauses) {
      PAPERDB_ASSIGN_OR_RETURN(std::unique_ptr<DocIterator> it, Build(*clause));
      // A phrase finds its first match when built, and may be cancelled.
      PAPERDB_RETURN_IF_ERROR(it->status());
      its.push_back(std::move(it));
    }
    uint64_t largest = 0;  // The largest exact count of a clause.
    double none = 1.0;     // Probability that a paper matches no clause.
    const double n_docs = static_cast<double>(scorer_.doc_count());
    for (const auto& it : its) {
      const int64_t exact = it->ExactCount();
      if (exact > 0) largest = std::max(largest, static_cast<uint64_t>(exact));
      const double n = exact >= 0 ? static_cast<double>(exact)
                                  : static_cast<double>(it->Cost());
      none *= n_docs > 0 ? std::max(0.0, 1.0 - n / n_docs) : 0.0;
    }
    // Only words: the counts of phrases (bounded by their rarest word) and
    // of filters (often disjoint, as two venues) would mislead the formula.
    const bool all_words =
        std::all_of(its.begin(), its.end(),
                    [](const auto& it) { return it->ExactCount() >= 0; });
    if (options.prune && all_words && largest >= options.exact_total_up_to) {
      hits.total =
          std::max(largest, static_cast<uint64_t>(n_docs * (1.0 - none) + 0.5));
      hits.total_estimated = true;
    } else {
      PAPERDB_ASSIGN_OR_RETURN(hits.total, CountUnion(clauses));
    }
    if (hits.total == 0 || top_k == 0) return hits;
    const size_t n = its.size();
    TopK top(top_k, BetterScore, AfterIn(options, 0));
    double threshold = -1.0;      // The k-th score; scores are never negative.
    std::vector<double> part(n);  // Each clause's score of the candidate.
    std::vector<double> window_max(n);
    std::vector<size_t> order(n);  // Clauses by window maximum.
    // A window's clauses: `walk` ones have their postings walked; `lazy`
    // ones (by window maximum, ascending) are only looked up for the
    // candidates; reach[k + 1] sums the window maxima of those of
    // lazy[0..k] that may match the candidate.
    std::vector<size_t> walk;
    std::vector<size_t> lazy;
    std::vector<double> reach(n + 1);
    std::vector<absl::Span<const uint64_t>> lazy_bits;  // DocBits(), by lazy.
    PairedDocs paired;
    while (true) {
      PAPERDB_RETURN_IF_ERROR(CheckCancelled());
      uint32_t start = kNoMoreDocs;
      for (const auto& it : its) start = std::min(start, it->doc());
      if (start == kNoMoreDocs) break;
      // The window: from `start` to the first end of a clause's block.
      uint32_t end = kNoMoreDocs;
      for (const auto& it : its) end = std::min(end, it->ShallowAdvance(start));
      for (size_t i = 0; i < n; ++i) {
        order[i] = i;
        window_max[i] = its[i]->doc() <= end ? its[i]->BlockMaxScore() : 0.0;
      }
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return window_max[a] < window_max[b];
      });
      // Clauses order[0..essential), whose maxima sum to no more than the
      // k-th score, cannot bring a paper into the top k on their own: lazy.
      size_t essential = 0;
      double sum = 0.0;
      while (essential < n && sum + window_max[order[essential]] <= threshold) {
        sum += window_max[order[essential++]];
      }
      lazy.assign(order.begin(), order.begin() + essential);
      // A dense clause whose maximum alone cannot reach the k-th score needs
      // a second clause on the same paper. If every lazy clause is dense
      // too, its candidates are the docs it shares with a lazy clause
      // (PairedDocs, from their bitsets) and those the walked clauses find:
      // it joins the lazy ones, and its other postings are never read.
      bool pairable = threshold >= 0.0;
      for (const size_t i : lazy) {
        pairable = pairable && !its[i]->DocBits().empty();
      }
      walk.clear();
      for (size_t k = essential; k < n; ++k) {
        const size_t i = order[k];
        const bool paired_only = pairable && window_max[i] <= threshold &&
                                 !its[i]->DocBits().empty();
        (paired_only ? lazy : walk).push_back(i);
      }
      lazy_bits.clear();
      for (const size_t i : lazy) lazy_bits.push_back(its[i]->DocBits());
      paired.Clear();
      if (lazy.size() > essential) {
        for (size_t k = 0; k < lazy.size(); ++k) {
          paired.Add(lazy_bits[k], k >= essential);
        }
      }
      uint32_t next_paired =
          paired.empty() ? kNoMoreDocs : paired.Next(start, end);
      uint32_t doc = kNoMoreDocs;
      bool rose = false;  // The k-th score rose: partition again.
      while (true) {
        doc = next_paired;
        for (const size_t i : walk) doc = std::min(doc, its[i]->doc());
        if (doc > end || doc == kNoMoreDocs) break;
        // The candidate's best possible score, before scoring anything: the
        // window maxima of the walked clauses on it and of the lazy ones
        // that may match it.
        for (size_t k = 0; k < lazy.size(); ++k) {
          const absl::Span<const uint64_t> bits = lazy_bits[k];
          const bool may = bits.empty()
                               ? its[lazy[k]]->MayMatch(doc)
                               : (doc >> 6) < bits.size() &&
                                     (bits[doc >> 6] >> (doc & 63) & 1);
          reach[k + 1] = reach[k] + (may ? window_max[lazy[k]] : 0.0);
        }
        double upper = reach[lazy.size()];
        for (const size_t i : walk) {
          if (its[i]->doc() == doc) upper += window_max[i];
        }
        if (upper > threshold) {
          double score = 0.0;
          std::fill(part.begin(), part.end(), 0.0);
          for (const size_t i : walk) {
            DocIterator& it = *its[i];
            if (it.doc() == doc) score += part[i] = it.Score();
          }
          // Ties go to the lower doc id, which came first: a candidate that
          // can at best equal the k-th score is out.
          bool out = false;
          for (size_t k = lazy.size(); k-- > 0;) {
            if (score + reach[k + 1] <= threshold) {
              out = true;
              break;
            }
            if (reach[k + 1] == reach[k]) continue;  // Cannot add to it.
            DocIterator& it = *its[lazy[k]];
            it.Advance(doc);
            if (it.doc() == doc) score += part[lazy[k]] = it.Score();
          }
          if (!out) {
            // Summed in clause order, so equal scores tie exactly.
            score = 0.0;
            for (const double p : part) score += p;
            top.Push({doc, score});
            if (top.full() && top.threshold() > threshold) {
              threshold = top.threshold();
              rose = true;
            }
          }
        }
        for (const size_t i : walk) {
          DocIterator& it = *its[i];
          if (it.doc() == doc) it.Next();
        }
        if (rose) break;
        if (next_paired == doc) next_paired = paired.Next(doc + 1, end);
      }
      if (rose) {
        for (const auto& it : its) it->Advance(doc + 1);
        continue;
      }
      if (end == kNoMoreDocs) break;
      for (const auto& it : its) it->Advance(end + 1);
    }
    for (const auto& it : its) PAPERDB_RETURN_IF_ERROR(it->status());
    hits.top = top.Take();
    return hits;
  }

  // The exact number of papers holding any of `terms`, read straight from
  // their posting lists: the doc ids of all but the widest list are marked
  // in a bitmap, and the widest list (counted by its document frequency)
  // is decoded only in blocks whose doc range holds a marked doc, to remove
  // the overlap.
  absl::StatusOr<uint64_t> CountTermUnion(
      const std::vector<std::string>& terms) {
    std::vector<std::shared_ptr<const index::PostingList>> lists;
    size_t widest = 0;
    uint32_t widest_df = 0;
    for (const std::string& term : terms) {
      PAPERDB_ASSIGN_OR_RETURN(const uint32_t df, Df(term));
      if (df == 0) continue;
      PAPERDB_RETURN_IF_ERROR(CheckCancelledNow());
      PAPERDB_ASSIGN_OR_RETURN(
          std::shared_ptr<const index::PostingList> list,
          index::PostingCache::Default().Get(store_, term));
      if (df > widest_df) {
        widest_df = df;
        widest = lists.size();
      }
      lists.push_back(std::move(list));
    }
    if (lists.empty()) return 0;
    DocBitmap rest;
    bool any_rest = false;
    index::PostingBlock block;
    for (size_t l = 0; l < lists.size(); ++l) {
      if (l == widest) continue;
      const index::PostingList& list = *lists[l];
      for (size_t b = 0; b < list.blocks.size(); ++b) {
        PAPERDB_RETURN_IF_ERROR(CheckCancelled());
        PAPERDB_RETURN_IF_ERROR(
            block.DecodeInPlace(list.blocks[b].first_doc, list.value(b)));
        for (size_t i = 0; i < block.size(); ++i) rest.Set(block.doc(i));
        any_rest = true;
      }
    }
    if (!any_rest) return widest_df;
    uint64_t overlap = 0;
    const index::PostingList& list = *lists[widest];
    for (size_t b = 0; b < list.blocks.size(); ++b) {
      const index::PostingList::Block& ref = list.blocks[b];
      if (!rest.AnyInRange(ref.first_doc, ref.header.last_doc)) continue;
      PAPERDB_RETURN_IF_ERROR(CheckCancelled());
      PAPERDB_RETURN_IF_ERROR(
          block.DecodeInPlace(ref.first_doc, list.value(b)));
      for (size_t i = 0; i < block.size(); ++i) {
        overlap += rest.Contains(block.doc(i));
      }
    }
    return widest_df + rest.Count() - overlap;
  }

  // The exact number of papers matching any of `clauses`, without scoring.
  // If the most common clause's count is known (a term's document
  // frequency), it is that count plus the papers of the other clauses that
  // it does not hold, found by probing it with Advance() from their merged
  // doc ids: the common clause is mostly skipped, not decoded. Else every
  // clause's doc ids are marked in a bitmap.
  absl::StatusOr<uint64_t> CountUnion(
      const std::vector<const QueryNode*>& clauses) {
    std::vector<std::string> terms;
    for (const QueryNode* clause : clauses) {
      if (!IsPlainTerm(*clause) || clause->terms.size() != 1) break;
      terms.push_back(clause->terms[0]);
    }
    if (terms.size() == clauses.size()) return CountTermUnion(terms);
    std::vector<std::unique_ptr<DocIterator>> its;
    for (const QueryNode* clause : clauses) {
      PAPERDB_ASSIGN_OR_RETURN(std::unique_ptr<DocIterator> it, Build(*clause));
      its.push_back(std::move(it));
    }
    auto widest = std::max_element(
        its.begin(), its.end(),
        [](const auto& a, const auto& b) { return a->Cost() < b->Cost(); });
    uint64_t total = 0;
    if ((*widest)->ExactCount() >= 0) {
      std::unique_ptr<DocIterator> common = std::move(*widest);
      its.erase(widest);
      total = static_cast<uint64_t>(common->ExactCount());
      std::unique_ptr<DocIterator> rest = NewOrIterator(std::move(its), false);
      for (; rest->doc() != kNoMoreDocs; rest->Next()) {
        PAPERDB_RETURN_IF_ERROR(CheckCancelled());
        common->Advance(rest->doc());
        total += common->doc() != rest->doc();
      }
      PAPERDB_RETURN_IF_ERROR(rest->status());
      PAPERDB_RETURN_IF_ERROR(common->status());
      return total;
    }
    DocBitmap matches;
    for (auto& it : its) {
      PAPERDB_RETURN_IF_ERROR(CheckCancelled());
      PAPERDB_RETURN_IF_ERROR(it->AddAll(&matches, cancelled_));
      PAPERDB_RETURN_IF_ERROR(it->status());
    }
    return matches.Count();
  }

  // Every match of `root`, counted and ranked.
  absl::StatusOr<SearchHits> Collect(DocIterator& root,
                                     const SearchOptions& options) {
    SearchHits hits;
    const bool by_score = options.order == SortOrder::kRelevance;
    const bool keep_all = options.collect_matches || !by_score;
    std::vector<ScoredDoc> all;
    TopK top(by_score ? options.top_k : 0, BetterScore, AfterIn(options, 0));
    // Block-max pruning: once the heap is full, a match whose blocks cannot
    // beat its worst score is counted without being scored, and once
    // options.exact_total_up_to matches are counted (and no match is kept),
    // the rest of its window is skipped uncounted, but for a few probes
    // (SkipEstimator), whose matches are counted: the skipped windows'
    // matches are estimated at the probed windows' rate per doc id (not that
    // of all windows walked, which the competitive ones, often denser, would
    // skew), and never above the root's Cost(). The bound holds up to
    // `window_end`.
    // A root that skips non-competitive matches itself (a phrase, told the
    // k-th score) estimates them itself, and its windows are walked.
    const bool prune = by_score && options.prune;
    // Filters alone score 0 everywhere: nothing to rank, so nothing is
    // skipped and the count stays exact.
    const bool may_skip = prune && !keep_all && root.MaxScore() > 0.0;
    bool root_skips = false;  // The root skips non-competitive matches.
    uint32_t window_end = 0;
    double window_bound = 0.0;
    bool have_window = false;
    bool probing = false;  // The current window is a probe.
    // Windows skipped uncounted, and the probes: one in 8, since windows
    // vary in size more than blocks (a window ends at the first block end
    // of any clause).
    SkipEstimator skips(8);
    // A window starts at a match, which is certain; the estimate's unit is
    // the doc ids after it (counting the first made a short window look
    // dense: one doc, one match). The gap before a window is not counted: it
    // may be a run of deleted or unrelated papers.
    uint32_t window_start = 0;

    while (root.doc() != kNoMoreDocs) {
      PAPERDB_RETURN_IF_ERROR(CheckCancelled());
      const uint32_t doc = root.doc();
      if (prune && top.full()) {
        const bool may_estimate =
            may_skip && hits.total >= options.exact_total_up_to;
        if (may_estimate) {
          root_skips = root.SetMinCompetitiveScore(top.threshold());
        }
        if (!have_window || doc > window_end) {
          window_start = doc;
          window_end = root.ShallowAdvance(doc);
          window_bound = root.BlockMaxScore();
          have_window = true;
          probing = false;
          // Ties go to the lower doc id, which came first.
          if (may_estimate && !root_skips && window_bound <= top.threshold() &&
              window_end < kNoMoreDocs - 1) {
            if (!skips.ShouldProbe(window_bound, top.threshold(),
                                   window_end - doc, /*known=*/1)) {
              root.Advance(window_end + 1);
              continue;
            }
            probing = true;
          }
        }
        if (window_bound <= top.threshold()) {
          ++hits.total;
          if (probing && doc != window_start) skips.AddProbeMatches(1);
          if (keep_all) all.push_back({doc, 0.0});
          root.Next();
          continue;
        }
      }
      ++hits.total;
      const ScoredDoc scored{doc, root.Score()};
      if (by_score) top.Push(scored);
      if (keep_all) all.push_back(scored);
      root.Next();
    }
    PAPERDB_RETURN_IF_ERROR(root.status());
    // Matches the root skipped by itself.
    bool root_skipped = false;
    hits.total += root.SkippedMatches(&root_skipped);
    hits.total_estimated |= root_skipped;
    hits = WithSkipped(std::move(hits), skips);
    // An estimate never exceeds the root's bound on its matches (holes of
    // deleted papers in the doc ids counted as skipped doc ids).
    if (hits.total_estimated) {
      hits.total = std::min<uint64_t>(hits.total, root.Cost());
    }
    if (options.collect_matches) {
      hits.matches.reserve(all.size());
      for (const ScoredDoc& d : all) hits.matches.push_back(d.doc);
    }
    if (by_score) {
      hits.top = top.Take();
      return hits;
    }
    PAPERDB_RETURN_IF_ERROR(SortBy(options.order, &all));
    if (const ScoredDoc* after = AfterIn(options, 0)) {
      std::erase_if(all, [&](const ScoredDoc& d) {
        return !Precedes(options.order, *after, d);
      });
    }
    if (all.size() > options.top_k) all.resize(options.top_k);
    hits.top = std::move(all);
    return hits;
  }

 private:
  // Sorts `docs` (in doc order) by year or ingest order, ties by doc id.
  absl::Status SortBy(SortOrder order, std::vector<ScoredDoc>* docs) {
    if (order == SortOrder::kIngestOrder) return absl::OkStatus();
    if (order == SortOrder::kIngestDescending) {
      std::reverse(docs->begin(), docs->end());
      return absl::OkStatus();
    }
    // Year of each doc, from the year field's postings.
    absl::flat_hash_map<uint32_t, int> year;
    std::unique_ptr<storage::StoreIterator> it =
        store_.NewIterator(storage::Column::kTerms);
    const std::string prefix = index::FieldPrefix(index::kYearField);
    std::vector<std::pair<std::string, int>> years;
    for (it->Seek(prefix); it->Valid() && absl::StartsWith(it->key(), prefix);
         it->Next()) {
      index::FieldTermParts parts;
      int y = 0;
      if (index::ParseFieldTerm(it->key(), &parts) &&
          absl::SimpleAtoi(parts.key, &y)) {
        years.emplace_back(std::string(it->key()), y);
      }
    }
    PAPERDB_RETURN_IF_ERROR(it->status());
    for (const auto& [term, y] : years) {
      PostingIterator postings(store_, term);
      size_t i = 0;
      while (postings.doc() != kNoMoreDocs && i < docs->size()) {
        PAPERDB_RETURN_IF_ERROR(CheckCancelled());
        const uint32_t want = (*docs)[i].doc;
        if (postings.doc() < want) {
          postings.Advance(want);
        } else if (postings.doc() > want) {
          ++i;
        } else {
          year[want] = y;
          ++i;
          postings.Next();
        }
      }
      PAPERDB_RETURN_IF_ERROR(postings.status());
    }
    const bool descending = order == SortOrder::kYearDescending;
    for (ScoredDoc& d : *docs) {
      auto found = year.find(d.doc);
      d.year =
          found == year.end() || found->second < 0 ? kNoYear : found->second;
    }
    std::sort(docs->begin(), docs->end(),
              [&](const ScoredDoc& a, const ScoredDoc& b) {
                return YearPrecedes(descending, a, b);
              });
    return absl::OkStatus();
  }

  const storage::Store& store_;
  const index::Bm25Scorer& scorer_;
  const CancelFn& cancelled_;
  const ScoringPin* pin_;
  absl::flat_hash_map<std::string, uint32_t> dfs_;          // Df().
  absl::flat_hash_map<std::string, uint32_t> scoring_dfs_;  // ScoringDf().
  uint64_t steps_ = 0;
};

bool IsFunctionOrRequestWord(const std::string& word) {
  const std::string folded = text::Analyzer::Fold(word);
  return text::IsFunctionWord(folded) || text::IsRequestWord(folded);
}

// The fallback of a conjunction that matched nothing: any of its scored
// children, with its filters and exclusions still required. Returns false
// if there is nothing to fall back to (fewer than two scored words or
// phrases).
bool AnyTermsQuery(const QueryNode& root, QueryNode* out) {
  if (root.kind != Kind::kAnd) return false;
  QueryNode any;
  any.kind = Kind::kOr;
  out->kind = Kind::kAnd;
  out->children.clear();
  size_t units = 0;   // Scored words and phrases in groups.
  size_t groups = 0;  // Groups of words with their acronym.
  std::vector<QueryNode> function_words;
  // The plain words of the query, which a hyphenated word's part repeats
  // at most once.
  absl::flat_hash_set<std::string> counted;
  for (const QueryNode& child : root.children) {
    if (child.excluded) continue;
    if (child.kind == Kind::kTerm) counted.insert(child.terms[0]);
    // The words of a group with their acronym or concept count too.
    if (child.kind == Kind::kOr && child.dismax && !child.children.empty() &&
        child.children[0].kind == Kind::kAnd) {
      for (const QueryNode& word : child.children[0].children) {
        if (word.kind == Kind::kTerm) counted.insert(word.terms[0]);
      }
    }
  }
  for (const QueryNode& child : root.children) {
    if (child.excluded || child.kind == Kind::kField) {
      out->children.push_back(child);
    } else if (child.kind == Kind::kOr && child.dismax &&
               !child.children.empty() &&
               child.children[0].kind == Kind::kAnd) {
      // Words the expander grouped with their acronym ("spiking neural
      // networks" OR "snn") count one by one, summed, against the acronym:
      // the better of the two, as in a full match, so that a paper holding
      // some of the words scores no more than one holding them all.
      QueryNode group = child;
      group.children[0].kind = Kind::kOr;
      units += group.children[0].children.size();
      ++groups;
      any.children.push_back(std::move(group));
    } else if (child.kind == Kind::kOr && child.dismax && !child.expansion &&
               !child.children.empty() &&
               child.children[0].kind == Kind::kPhrase &&
               (absl::StrContains(child.word, '-') ||
                absl::StrContains(child.word, "\xE2\x80\x90") ||
                absl::StrContains(child.word, "\xE2\x80\x91"))) {
      // A hyphenated word ("WikiText-103": the phrase of its parts or the
      // parts glued): among partial matches its parts count one by one,
      // and the glued form too, as a paper writing "prompt tuning" shares
      // most of what "prompt-style" asks for.
      for (const std::string& part : child.children[0].terms) {
        // A stopword, a single character or a number alone says nothing
        // ("CIFAR-10": not "10"); a word the query has already counts.
        // A function or request word alone says nothing either ("how-to"),
        // nor does a number without letters ("GPT-1.0": not "1.0").
        if (part.size() < 2 || text::IsStopword(part) ||
            text::IsFunctionWord(part) || text::IsRequestWord(part) ||
            std::none_of(part.begin(), part.end(), absl::ascii_isalpha) ||
            !counted.insert(part).second) {
          continue;
        }
        QueryNode term;
        term.terms.push_back(part);
        term.position = child.position;
        any.children.push_back(std::move(term));
      }
      for (size_t i = 1; i < child.children.size(); ++i) {
        any.children.push_back(child.children[i]);
      }
    } else if (child.kind == Kind::kTerm && !child.word.empty() &&
               IsFunctionOrRequestWord(child.word)) {
      // "what", "does", "papers": a paper sharing only these with a
      // sentence-like query matches nothing asked for. They count as typed
      // words, but match only when the query has nothing else.
      function_words.push_back(child);
    } else {
      any.children.push_back(child);
    }
  }
  units += any.children.size() + function_words.size() - groups;
  if (units < 2) return false;
  if (any.children.empty()) any.children = std::move(function_words);
  out->children.push_back(std::move(any));
  return true;
}

// The corpus statistics to score with: `pin`'s if given, else `known`'s
// if given, else the store's.
absl::StatusOr<storage::v1::CorpusStats> StatsFor(
    const storage::Store& store, const storage::v1::CorpusStats* known,
    const ScoringPin* pin) {
  storage::v1::CorpusStats stats;
  if (pin != nullptr) {
    stats.set_doc_count(pin->doc_count);
    stats.set_total_doc_length_terms(pin->total_doc_length_terms);
    return stats;
  }
  if (known != nullptr) return *known;
  return storage::PaperTable(&store).Stats();
}

index::Bm25Scorer ScorerFor(const storage::v1::CorpusStats& stats,
                            index::Bm25Params params) {
  index::CollectionStats collection;
  collection.doc_count = stats.doc_count();
  collection.avg_doc_length =
      stats.doc_count() == 0
          ? 0.0
          : static_cast<double>(stats.total_doc_length_terms()) /
                stats.doc_count();
  return index::Bm25Scorer(collection, params);
}

using Mode = ScoringPin::Mode;

// `hits`' first `top_k` results, all full matches.
SearchHits AllTerms(SearchHits hits, size_t top_k) {
  if (hits.top.size() > top_k) hits.top.resize(top_k);
  hits.full_matches = hits.top.size();
  hits.full_total = hits.total;
  hits.pin.mode = Mode::kAllTerms;
  return hits;
}

// The full matches `full` (every one, best first, of `full_total`), then
// papers matching part of the query (`any`), ranked after every full
// match, continuing after `options.after`.
absl::StatusOr<SearchHits> ThenSome(Evaluation& evaluation,
                                    const QueryNode& any,
                                    std::vector<ScoredDoc> full,
                                    uint64_t full_total,
                                    const SearchOptions& options) {
  absl::flat_hash_set<uint32_t> is_full;
  for (const ScoredDoc& d : full) is_full.insert(d.doc);
  std::vector<ScoredDoc> top;
  if (!options.after || options.after->tier == 0) {
    for (const ScoredDoc& d : full) {
      if (top.size() >= options.top_k) break;
      if (options.after && !BetterScore(options.after->doc, d)) continue;
      top.push_back(d);
    }
  }
  // Tier 1: every partial match ranks after every full match, so the
  // cursor applies only within it. The full matches are a subset of these,
  // so the total is this pass's count.
  SearchOptions second = options;
  second.top_k = options.top_k + full.size();
  second.after = options.after && options.after->tier == 1
                     ? options.after
                     : std::optional<ResultKey>();
  if (second.after) second.after->tier = 0;
  PAPERDB_ASSIGN_OR_RETURN(SearchHits partial, evaluation.Run(any, second));
  SearchHits merged;
  merged.full_matches = top.size();
  merged.full_total = full_total;
  for (const ScoredDoc& d : partial.top) {
    if (top.size() >= options.top_k) break;
    if (!is_full.contains(d.doc)) top.push_back(d);
  }
  merged.top = std::move(top);
  merged.total = partial.total;
  merged.total_estimated = partial.total_estimated;
  merged.matches = std::move(partial.matches);
  merged.pin.mode = Mode::kThenSome;
  return merged;
}

// Every full match of `root` (at most kMaxPinnedFill), best first.
constexpr size_t kMaxPinnedFill = 10000;

absl::StatusOr<SearchHits> EveryFullMatch(Evaluation& evaluation,
                                          const QueryNode& root,
                                          const SearchOptions& options) {
  SearchOptions all = options;
  all.after.reset();
  all.collect_matches = false;
  all.top_k = kFillBelow;
  PAPERDB_ASSIGN_OR_RETURN(SearchHits hits, evaluation.Run(root, all));
  if (hits.total > hits.top.size()) {
    all.top_k = std::min<size_t>(hits.total, kMaxPinnedFill);
    all.exact_total_up_to = UINT64_MAX;
    PAPERDB_ASSIGN_OR_RETURN(hits, evaluation.Run(root, all));
  }
  return hits;
}

// Search() as the pin's mode says.
absl::StatusOr<SearchHits> SearchPinned(Evaluation& evaluation,
                                        const QueryNode& root, Mode mode,
                                        const SearchOptions& options) {
  QueryNode any;
  if (mode == Mode::kAllTerms || !AnyTermsQuery(root, &any)) {
    PAPERDB_ASSIGN_OR_RETURN(SearchHits hits, evaluation.Run(root, options));
    return AllTerms(std::move(hits), options.top_k);
  }
  if (mode == Mode::kAnyTerms) {
    PAPERDB_ASSIGN_OR_RETURN(SearchHits hits, evaluation.Run(any, options));
    hits.any_terms = true;
    hits.pin.mode = Mode::kAnyTerms;
    return hits;
  }
  PAPERDB_ASSIGN_OR_RETURN(SearchHits full,
                           EveryFullMatch(evaluation, root, options));
  return ThenSome(evaluation, any, std::move(full.top), full.total, options);
}

// Search() deciding the mode: full matches alone, or a few of them and then
// partial matches, or the any-term fallback.
absl::StatusOr<SearchHits> SearchUnpinned(Evaluation& evaluation,
                                          const QueryNode& root,
                                          const SearchOptions& options) {
  if (!options.partial_matches) {
    PAPERDB_ASSIGN_OR_RETURN(SearchHits hits, evaluation.Run(root, options));
    return AllTerms(std::move(hits), options.top_k);
  }
  const bool relevance = options.order == SortOrder::kRelevance;
  SearchOptions first = options;
  // Enough to hold every full match when there are too few to fill.
  if (relevance) first.top_k = std::max(first.top_k, kFillBelow);
  // The fill needs every full match, not only those after the cursor.
  if (relevance && options.after) first.after.reset();
  PAPERDB_ASSIGN_OR_RETURN(SearchHits hits, evaluation.Run(root, first));
  QueryNode any;
  if (hits.total >= kFillBelow || !AnyTermsQuery(root, &any) ||
      (hits.total > 0 && !relevance)) {
    if (relevance && options.after) {
      return SearchPinned(evaluation, root, Mode::kAllTerms, options);
    }
    return AllTerms(std::move(hits), options.top_k);
  }
  PAPERDB_ASSIGN_OR_RETURN(std::unique_ptr<DocIterator> it,
                           evaluation.Build(any));
  const uint64_t any_cost = it->Cost();
  it.reset();
  if (hits.total > 0 && any_cost > kMaxFillPostings) {
    // Partial matches would be papers with a very common word: not worth
    // a pass over its postings. The full matches stand alone.
    if (options.after) {
      return SearchPinned(evaluation, root, Mode::kAllTerms, options);
    }
    return AllTerms(std::move(hits), options.top_k);
  }
  if (hits.total == 0) {
    PAPERDB_ASSIGN_OR_RETURN(hits, evaluation.Run(any, options));
    hits.any_terms = hits.total > 0;
    hits.pin.mode = hits.any_terms ? Mode::kAnyTerms : Mode::kAllTerms;
    return hits;
  }
  // A few full matches (all in hits.top): the rest of the page goes to
  // papers matching some of the terms.
  return ThenSome(evaluation, any, std::move(hits.top), hits.total, options);
}

}  // namespace

uint32_t PinnedTermHash(absl::string_view term) {
  return static_cast<uint32_t>(Hash64(term));
}

absl::StatusOr<SearchHits> Searcher::Search(const Query& query,
                                            const SearchOptions& options,
                                            const CancelFn& cancelled) const {
  if (query.MatchesNothing()) return SearchHits{};
  PAPERDB_ASSIGN_OR_RETURN(const storage::v1::CorpusStats stats,
                           StatsFor(*store_, stats_, options.pin));
  const index::Bm25Scorer scorer = ScorerFor(stats, params_);
  Evaluation evaluation(*store_, scorer, cancelled, options.pin);
  const QueryNode& root = query.root;
  SearchHits hits;
  if (root.children.size() == 1 && IsPlainTerm(root.children[0]) &&
      options.order == SortOrder::kRelevance && !options.collect_matches) {
    PAPERDB_ASSIGN_OR_RETURN(
        hits, evaluation.SingleTerm(root.children[0].terms[0], options));
    hits.full_matches = hits.top.size();
    hits.full_total = hits.total;
  } else if (options.pin != nullptr) {
    PAPERDB_ASSIGN_OR_RETURN(
        hits, SearchPinned(evaluation, root, options.pin->mode, options));
  } else {
    PAPERDB_ASSIGN_OR_RETURN(hits, SearchUnpinned(evaluation, root, options));
  }
  hits.pin.doc_count = stats.doc_count();
  hits.pin.total_doc_length_terms = stats.total_doc_length_terms();
  hits.pin.dfs = evaluation.DocumentFrequencies();
  return hits;
}

QueryNode Searcher::MatchedQuery(const Query& query, MatchedAs as) {
  QueryNode any;
  if (as != MatchedAs::kAllTerms && AnyTermsQuery(query.root, &any)) {
    return any;
  }
  return query.root;
}

absl::StatusOr<std::vector<TermContribution>> Searcher::Explain(
    const Query& query, MatchedAs as, uint32_t doc,
    const ScoringPin* pin) const {
  std::vector<TermContribution> out;
  if (query.MatchesNothing()) return out;
  PAPERDB_ASSIGN_OR_RETURN(const storage::v1::CorpusStats stats,
                           StatsFor(*store_, stats_, pin));
  const index::Bm25Scorer scorer = ScorerFor(stats, params_);
  const CancelFn never;  // Outlives the evaluation, which holds a reference.
  Evaluation evaluation(*store_, scorer, never, pin);
  const QueryNode root = MatchedQuery(query, as);
  PAPERDB_ASSIGN_OR_RETURN(std::unique_ptr<DocIterator> it,
                           evaluation.Build(root));
  it->Advance(doc);
  PAPERDB_RETURN_IF_ERROR(it->status());
  if (it->doc() == doc) it->Explain(&out);
  return out;
}

}  // namespace paperdb::search
