#include "paperdb/search/searcher.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "paperdb/common/hash.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/search/any_terms_query.h"
#include "paperdb/search/evaluation.h"
#include "paperdb/search/top_k.h"
#include "paperdb/storage/paper_table.h"

namespace paperdb::search {
namespace {

using internal::BetterScore;
using internal::Evaluation;
using internal::IsPlainTerm;

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
