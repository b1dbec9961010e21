#include "paperdb/search/evaluation.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "paperdb/index/common_grams.h"
#include "paperdb/index/field_terms.h"
#include "paperdb/index/posting_iterator.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/search/top_k.h"
#include "paperdb/search/word_form_iterator.h"

// Evaluation: building iterator trees, document frequencies, the
// single-term strategy, strategy choice (Run) and year and ingest order.
namespace paperdb::search::internal {

using index::PostingIterator;

absl::StatusOr<std::unique_ptr<DocIterator>> Evaluation::BuildNode(
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
                      node.other_forms, node.unmarked_same, node.surface_only},
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
        PAPERDB_ASSIGN_OR_RETURN(std::unique_ptr<DocIterator> it, Build(child));
        (child.excluded ? excluded : required).push_back(std::move(it));
      }
      return NewAndIterator(std::move(required), std::move(excluded));
    }
    case Kind::kOr: {
      std::vector<std::unique_ptr<DocIterator>> children;
      for (const QueryNode& child : node.children) {
        PAPERDB_ASSIGN_OR_RETURN(std::unique_ptr<DocIterator> it, Build(child));
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

absl::StatusOr<double> Evaluation::ConceptFactor(const QueryNode& expansion) {
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

absl::StatusOr<uint32_t> Evaluation::Df(const std::string& term) {
  auto it = dfs_.find(term);
  if (it != dfs_.end()) return it->second;
  PAPERDB_ASSIGN_OR_RETURN(const uint32_t df, DocumentFrequency(store_, term));
  dfs_.emplace(term, df);
  return df;
}

absl::StatusOr<uint32_t> Evaluation::ScoringDf(const std::string& term) {
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

absl::StatusOr<SearchHits> Evaluation::SingleTerm(
    const std::string& term, const SearchOptions& options) {
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

absl::StatusOr<SearchHits> Evaluation::Run(const QueryNode& node,
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

std::vector<const QueryNode*> Evaluation::Disjuncts(const QueryNode& node) {
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

bool Evaluation::IsTermConjunction(const QueryNode& node) {
  if (node.kind != Kind::kAnd || node.children.size() < 2) return false;
  for (const QueryNode& child : node.children) {
    if (!IsPlainTerm(child) || child.excluded) return false;
  }
  return true;
}

absl::Status Evaluation::SortBy(SortOrder order, std::vector<ScoredDoc>* docs) {
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
    d.year = found == year.end() || found->second < 0 ? kNoYear : found->second;
  }
  std::sort(docs->begin(), docs->end(),
            [&](const ScoredDoc& a, const ScoredDoc& b) {
              return YearPrecedes(descending, a, b);
            });
  return absl::OkStatus();
}

}  // namespace paperdb::search::internal
