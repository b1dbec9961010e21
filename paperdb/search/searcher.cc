#include "paperdb/search/searcher.h"

#include <algorithm>
#include <memory>
#include <queue>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/posting_iterator.h"
#include "paperdb/index/varint.h"
#include "paperdb/storage/keys.h"
#include "paperdb/storage/paper_table.h"

namespace paperdb::search {
namespace {

using index::kNoMoreDocs;
using index::PostingBlockHeader;
using index::PostingIterator;

// A query term with its posting iterator and inverse document frequency.
struct TermCursor {
  std::unique_ptr<PostingIterator> postings;
  uint32_t df = 0;
  double idf = 0.0;
};

using TermCursors = absl::flat_hash_map<std::string, TermCursor>;

absl::StatusOr<uint32_t> DocumentFrequency(const storage::Store& store,
                                           const std::string& term) {
  absl::StatusOr<std::string> value = store.Get(storage::Column::kTerms, term);
  if (absl::IsNotFound(value.status())) return 0;
  if (!value.ok()) return value.status();
  const char* p = value->data();
  uint32_t df = 0;
  if (!index::GetVarint32(&p, value->data() + value->size(), &df)) {
    return absl::DataLossError("document frequency does not parse");
  }
  return df;
}

// Adds a cursor for each term not yet in `cursors`.
absl::Status OpenCursors(const storage::Store& store,
                         const index::Bm25Scorer& scorer,
                         const std::vector<std::string>& terms,
                         TermCursors* cursors) {
  for (const std::string& term : terms) {
    if (cursors->contains(term)) continue;
    PAPERDB_ASSIGN_OR_RETURN(const uint32_t df, DocumentFrequency(store, term));
    TermCursor& cursor = (*cursors)[term];
    cursor.df = df;
    cursor.idf = scorer.Idf(df);
    cursor.postings = std::make_unique<PostingIterator>(store, term);
  }
  return absl::OkStatus();
}

// True if the clause's terms occur at consecutive positions in the doc the
// cursors of its terms are on. REQUIRES: all those cursors are on one doc.
absl::StatusOr<bool> PhraseMatches(const QueryClause& clause,
                                   TermCursors& cursors) {
  if (clause.terms.size() == 1) return true;
  // Each distinct term's positions are decoded once, however often the
  // phrase repeats it. (Indexes, not pointers: the vector grows.)
  std::vector<std::vector<uint32_t>> decoded;
  absl::flat_hash_map<absl::string_view, size_t> slot_of;
  std::vector<size_t> slots;
  slots.reserve(clause.terms.size());
  for (const std::string& term : clause.terms) {
    auto [it, inserted] = slot_of.emplace(term, decoded.size());
    if (inserted) {
      PAPERDB_ASSIGN_OR_RETURN(std::vector<uint32_t> p,
                               cursors.at(term).postings->Positions());
      decoded.push_back(std::move(p));
    }
    slots.push_back(it->second);
  }
  for (const uint32_t start : decoded[slots[0]]) {
    bool all = true;
    for (size_t k = 1; k < slots.size() && all; ++k) {
      const std::vector<uint32_t>& positions = decoded[slots[k]];
      all = std::binary_search(positions.begin(), positions.end(),
                               start + static_cast<uint32_t>(k));
    }
    if (all) return true;
  }
  return false;
}

// True if `doc` matches `clause` (advancing the clause's cursors to it).
absl::StatusOr<bool> ClauseMatches(const QueryClause& clause, uint32_t doc,
                                   TermCursors& cursors) {
  for (const std::string& term : clause.terms) {
    PostingIterator& postings = *cursors.at(term).postings;
    postings.Advance(doc);
    PAPERDB_RETURN_IF_ERROR(postings.status());
    if (postings.doc() != doc) return false;
  }
  return PhraseMatches(clause, cursors);
}

// Keeps the k best (score, doc) pairs seen.
class TopK {
 public:
  explicit TopK(size_t k) : k_(k) {}
  void Push(uint32_t doc, double score) {
    if (k_ == 0) return;
    if (heap_.size() < k_) {
      heap_.push({doc, score});
    } else if (Better({doc, score}, heap_.top())) {
      heap_.pop();
      heap_.push({doc, score});
    }
  }
  bool full() const { return k_ > 0 && heap_.size() == k_; }
  // The score a new doc must beat. REQUIRES: full().
  double threshold() const { return heap_.top().score; }

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
  static bool Better(const ScoredDoc& a, const ScoredDoc& b) {
    return a.score > b.score || (a.score == b.score && a.doc < b.doc);
  }
  struct WorstOnTop {
    bool operator()(const ScoredDoc& a, const ScoredDoc& b) const {
      return Better(a, b);
    }
  };
  size_t k_;
  std::priority_queue<ScoredDoc, std::vector<ScoredDoc>, WorstOnTop> heap_;
};

// Evaluation state shared by the conjunctive and disjunctive passes.
class Evaluation {
 public:
  Evaluation(const storage::Store& store, const index::Bm25Scorer& scorer,
             const Query& query, const CancelFn& cancelled)
      : store_(store), scorer_(scorer), query_(query), cancelled_(cancelled) {}

  absl::StatusOr<SearchHits> Run(size_t top_k) {
    std::vector<std::string> required_terms;
    for (const QueryClause& clause : query_.clauses) {
      if (clause.excluded) continue;
      required_terms.insert(required_terms.end(), clause.terms.begin(),
                            clause.terms.end());
    }
    TermCursors required;
    PAPERDB_RETURN_IF_ERROR(
        OpenCursors(store_, scorer_, required_terms, &required));
    if (query_.clauses.size() == 1 &&
        query_.clauses[0].kind == QueryClause::Kind::kTerm) {
      return SingleTerm(required.begin()->second, top_k);
    }
    PAPERDB_ASSIGN_OR_RETURN(SearchHits hits, Conjunctive(required, top_k));
    if (hits.total > 0) return hits;

    // Fresh cursors: the conjunctive pass moved every cursor forward, the
    // excluded clauses' ones included.
    TermCursors fresh;
    PAPERDB_RETURN_IF_ERROR(
        OpenCursors(store_, scorer_, required_terms, &fresh));
    excluded_.clear();
    PAPERDB_ASSIGN_OR_RETURN(hits, Disjunctive(fresh, top_k));
    hits.any_terms = hits.total > 0;
    return hits;
  }

 private:
  // One term, nothing excluded: the count is its document frequency, and
  // the top k need only the blocks whose best possible score (from the
  // block's max tf and min length; BM25 grows with tf and falls with
  // length) beats the k-th best so far: block-max pruning (Ding & Suel,
  // SIGIR 2011). Skipped blocks are never decoded.
  absl::StatusOr<SearchHits> SingleTerm(TermCursor& cursor, size_t top_k) {
    SearchHits hits;
    hits.total = cursor.df;
    TopK top(top_k);
    PostingIterator& postings = *cursor.postings;
    while (postings.doc() != kNoMoreDocs) {
      PAPERDB_RETURN_IF_ERROR(CheckCancelled());
      const PostingBlockHeader& header = postings.block_header();
      // Ties go to the lower doc id, which is earlier: an equal bound
      // cannot displace anything.
      if (top.full() &&
          scorer_.Score(cursor.idf, header.max_tf, header.min_doc_length) <=
              top.threshold()) {
        postings.NextBlock();
        continue;
      }
      const uint32_t last = header.last_doc;
      while (postings.doc() <= last && postings.doc() != kNoMoreDocs) {
        top.Push(postings.doc(), scorer_.Score(cursor.idf, postings.tf(),
                                               postings.doc_length()));
        postings.Next();
      }
    }
    PAPERDB_RETURN_IF_ERROR(postings.status());
    hits.top = top.Take();
    return hits;
  }

  // CANCELLED once `cancelled_` says so; asks it on the first call and then
  // every 1024 calls only.
  absl::Status CheckCancelled() {
    if (!cancelled_ || (steps_++ & 1023) != 0 || !cancelled_()) {
      return absl::OkStatus();
    }
    return absl::CancelledError(
        "search cancelled (deadline passed or client left)");
  }

  absl::StatusOr<bool> Excluded(uint32_t doc) {
    for (const QueryClause& clause : query_.clauses) {
      if (!clause.excluded) continue;
      PAPERDB_RETURN_IF_ERROR(
          OpenCursors(store_, scorer_, clause.terms, &excluded_));
      PAPERDB_ASSIGN_OR_RETURN(const bool matches,
                               ClauseMatches(clause, doc, excluded_));
      if (matches) return true;
    }
    return false;
  }

  absl::StatusOr<SearchHits> Conjunctive(TermCursors& cursors, size_t top_k) {
    SearchHits hits;
    if (cursors.empty()) return hits;
    std::vector<TermCursor*> order;
    for (auto& [term, cursor] : cursors) {
      if (cursor.df == 0)
        return hits;  // A term no paper has: nothing matches all.
      order.push_back(&cursor);
    }
    std::sort(
        order.begin(), order.end(),
        [](const TermCursor* a, const TermCursor* b) { return a->df < b->df; });
    TopK top(top_k);
    PostingIterator& lead = *order[0]->postings;
    while (lead.doc() != kNoMoreDocs) {
      PAPERDB_RETURN_IF_ERROR(CheckCancelled());
      uint32_t target = lead.doc();
      bool aligned = true;
      for (size_t i = 1; i < order.size(); ++i) {
        PostingIterator& other = *order[i]->postings;
        other.Advance(target);
        PAPERDB_RETURN_IF_ERROR(other.status());
        if (other.doc() != target) {
          lead.Advance(other.doc());
          aligned = false;
          break;
        }
      }
      if (!aligned) continue;
      bool matches = true;
      for (const QueryClause& clause : query_.clauses) {
        if (clause.excluded || clause.kind != QueryClause::Kind::kPhrase)
          continue;
        PAPERDB_ASSIGN_OR_RETURN(matches, PhraseMatches(clause, cursors));
        if (!matches) break;
      }
      if (matches) {
        PAPERDB_ASSIGN_OR_RETURN(const bool excluded, Excluded(target));
        if (!excluded) {
          double score = 0.0;
          for (const TermCursor* cursor : order) {
            score += scorer_.Score(cursor->idf, cursor->postings->tf(),
                                   cursor->postings->doc_length());
          }
          top.Push(target, score);
          ++hits.total;
        }
      }
      lead.Next();
    }
    PAPERDB_RETURN_IF_ERROR(lead.status());
    hits.top = top.Take();
    return hits;
  }

  // Papers matching at least one required clause; a phrase counts as one
  // unit, never as loose words. Scores sum the terms of the matched clauses.
  absl::StatusOr<SearchHits> Disjunctive(TermCursors& cursors, size_t top_k) {
    SearchHits hits;
    TopK top(top_k);
    absl::flat_hash_map<const TermCursor*, bool> counted;
    while (true) {
      PAPERDB_RETURN_IF_ERROR(CheckCancelled());
      uint32_t doc = kNoMoreDocs;
      for (auto& [term, cursor] : cursors) {
        PAPERDB_RETURN_IF_ERROR(cursor.postings->status());
        doc = std::min(doc, cursor.postings->doc());
      }
      if (doc == kNoMoreDocs) break;
      double score = 0.0;
      bool any = false;
      counted.clear();
      for (const QueryClause& clause : query_.clauses) {
        if (clause.excluded) continue;
        bool present = true;
        for (const std::string& term : clause.terms) {
          present &= cursors.at(term).postings->doc() == doc;
        }
        if (!present) continue;
        PAPERDB_ASSIGN_OR_RETURN(const bool matches,
                                 PhraseMatches(clause, cursors));
        if (!matches) continue;
        any = true;
        for (const std::string& term : clause.terms) {
          const TermCursor& cursor = cursors.at(term);
          if (!counted.emplace(&cursor, true).second) continue;
          score += scorer_.Score(cursor.idf, cursor.postings->tf(),
                                 cursor.postings->doc_length());
        }
      }
      for (auto& [term, cursor] : cursors) {
        if (cursor.postings->doc() == doc) cursor.postings->Next();
      }
      if (!any) continue;
      PAPERDB_ASSIGN_OR_RETURN(const bool excluded, Excluded(doc));
      if (excluded) continue;
      top.Push(doc, score);
      ++hits.total;
    }
    hits.top = top.Take();
    return hits;
  }

  const storage::Store& store_;
  const index::Bm25Scorer& scorer_;
  const Query& query_;
  TermCursors excluded_;  // Cursors of excluded clauses, opened on first use.
  const CancelFn& cancelled_;
  uint64_t steps_ = 0;
};

}  // namespace

absl::StatusOr<SearchHits> Searcher::Search(const Query& query, size_t top_k,
                                            const CancelFn& cancelled) const {
  if (query.MatchesNothing()) return SearchHits{};
  storage::PaperTable table(store_);
  PAPERDB_ASSIGN_OR_RETURN(const storage::v1::CorpusStats stats, table.Stats());
  index::CollectionStats collection;
  collection.doc_count = stats.doc_count();
  collection.avg_doc_length =
      stats.doc_count() == 0
          ? 0.0
          : static_cast<double>(stats.total_doc_length_terms()) /
                stats.doc_count();
  const index::Bm25Scorer scorer(collection, params_);
  Evaluation evaluation(*store_, scorer, query, cancelled);
  return evaluation.Run(top_k);
}

}  // namespace paperdb::search
