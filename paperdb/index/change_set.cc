#include "paperdb/index/change_set.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/common_grams.h"
#include "paperdb/index/field_terms.h"
#include "paperdb/index/inverted_run.h"
#include "paperdb/index/next_words.h"
#include "paperdb/index/paper_concepts.h"
#include "paperdb/index/posting_block.h"
#include "paperdb/index/token_spans.h"
#include "paperdb/index/varint.h"
#include "paperdb/semantic/concept_lexicon.h"
#include "paperdb/storage/keys.h"
#include "paperdb/text/analyzer.h"

namespace paperdb::index {

using storage::Column;

namespace {

// Sets each term's next-word mask (next_words.h) from the terms at the
// positions after its occurrences; a joined compound's is kAnyNextWord.
void SetNextWords(absl::Span<const size_t> compound_slots,
                  std::vector<AnalyzedPaper::Term>* terms) {
  uint32_t last = 0;
  for (const AnalyzedPaper::Term& term : *terms) {
    if (!term.positions.empty()) last = std::max(last, term.positions.back());
  }
  thread_local std::vector<uint8_t> bits_at;  // By position.
  bits_at.assign(last + 3, 0);
  for (const AnalyzedPaper::Term& term : *terms) {
    const uint8_t bit = NextWordBit(term.term);
    for (const uint32_t position : term.positions) bits_at[position] |= bit;
  }
  for (AnalyzedPaper::Term& term : *terms) {
    const uint32_t distance = NextWordDistance(term.term);
    uint8_t mask = 0;
    for (const uint32_t position : term.positions) {
      mask |= bits_at[position + distance];
    }
    term.next_words = mask;
  }
  for (const size_t slot : compound_slots) {
    (*terms)[slot].next_words = kAnyNextWord;
  }
}

}  // namespace

AnalyzedPaper AnalyzePaper(v1::Paper paper) {
  AnalyzedPaper analyzed;
  text::Analyzer& analyzer = text::ThreadLocalAnalyzer();
  const std::vector<text::AnalyzedToken> tokens =
      analyzer.Analyze(paper.abstract());
  analyzed.term_epoch = analyzer.term_epoch();
  // Each term's index in analyzed.terms, by term id (no string hashing);
  // every entry is kNoSlot between calls.
  constexpr uint32_t kNoSlot = UINT32_MAX;
  thread_local std::vector<uint32_t> slot_of_id;
  if (slot_of_id.size() < analyzer.term_id_limit()) {
    slot_of_id.resize(analyzer.term_id_limit(), kNoSlot);
  }
  absl::flat_hash_map<absl::string_view, size_t> slot;  // Tokens without id.
  // Stopwords by position, for the common grams (common_grams.h).
  std::vector<std::pair<uint32_t, absl::string_view>> gram_words;
  std::vector<size_t> compound_slots;  // Terms of joined compounds.
  for (const text::AnalyzedToken& token : tokens) {
    // The BM25 length counts content words, as Lucene's norms do behind a
    // stop filter: not stopwords (indexed only for phrases), and not a
    // joined compound, which adds a term at its first part's position.
    if (!token.compound && !token.stopword) ++analyzed.doc_length;
    size_t index;
    if (token.term_id < slot_of_id.size()) {
      uint32_t& s = slot_of_id[token.term_id];
      if (s == kNoSlot) {
        s = static_cast<uint32_t>(analyzed.terms.size());
        analyzed.terms.push_back({token.term, {}, token.term_id});
      }
      index = s;
    } else {
      auto [it, inserted] = slot.emplace(token.term, analyzed.terms.size());
      if (inserted) analyzed.terms.push_back({token.term, {}});
      index = it->second;
    }
    analyzed.terms[index].positions.push_back(token.position);
    if (token.compound) compound_slots.push_back(index);
    // The surface form beside the stem (text/word_forms.h), with the same
    // position; its id is of the same epoch as the stems'.
    if (token.form_id < slot_of_id.size()) {
      uint32_t& s = slot_of_id[token.form_id];
      if (s == kNoSlot) {
        s = static_cast<uint32_t>(analyzed.terms.size());
        analyzed.terms.push_back(
            {analyzer.TermText(token.form_id), {}, token.form_id});
      }
      analyzed.terms[s].positions.push_back(token.position);
    }
    if (IsCommonGramWord(token.term)) {
      gram_words.emplace_back(token.position, token.term);
    }
  }
  for (const AnalyzedPaper::Term& term : analyzed.terms) {
    if (term.term_id < slot_of_id.size()) slot_of_id[term.term_id] = kNoSlot;
  }
  // A common gram for every stopword directly followed by one, as a phrase
  // sees them: a joined compound ("no-t" is "not") stands at its first
  // part's position too, beside that part.
  std::stable_sort(
      gram_words.begin(), gram_words.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  absl::flat_hash_map<std::string, size_t> gram_slot;
  size_t next = 0;  // The first gram word at a later position than i's.
  for (size_t i = 0; i < gram_words.size(); ++i) {
    const uint32_t position = gram_words[i].first;
    while (next < gram_words.size() && gram_words[next].first <= position) {
      ++next;
    }
    for (size_t j = next;
         j < gram_words.size() && gram_words[j].first == position + 1; ++j) {
      auto [gram, added] = gram_slot.emplace(
          CommonGram(gram_words[i].second, gram_words[j].second),
          analyzed.terms.size());
      if (added) analyzed.terms.push_back({gram->first, {}});
      std::vector<uint32_t>& positions = analyzed.terms[gram->second].positions;
      if (positions.empty() || positions.back() != position) {
        positions.push_back(position);
      }
    }
  }
  SetNextWords(compound_slots, &analyzed.terms);
  // Concepts of the thesaurus the abstract names (semantic side): one
  // posting per mention, at its first word.
  absl::flat_hash_map<uint32_t, size_t> concept_slot;
  const semantic::ConceptLexicon& lexicon = semantic::ConceptLexicon::Default();
  for (const semantic::ConceptMention& m : PaperConcepts(paper, tokens)) {
    auto [slot, added] =
        concept_slot.emplace(m.concept_index, analyzed.terms.size());
    if (added) {
      analyzed.terms.push_back(
          {semantic::ConceptTerm(lexicon.id(m.concept_index)), {}});
    }
    std::vector<uint32_t>& positions = analyzed.terms[slot->second].positions;
    if (positions.empty() || positions.back() != m.position) {
      positions.push_back(m.position);
    }
  }
  analyzed.token_spans = EncodeTokenSpans(tokens);
  // Typed fields: one posting each, at position 0 (field_terms.h).
  for (std::string& term : FieldTermsOf(paper)) {
    analyzed.terms.push_back({std::move(term), {0}});
  }
  analyzed.paper = std::move(paper);
  return analyzed;
}

ChangeSet::ChangeSet(const storage::Store* store,
                     storage::v1::CorpusStats stats,
                     const absl::flat_hash_map<std::string, uint32_t>* dfs,
                     google::protobuf::Timestamp now)
    : store_(store),
      table_(store),
      stats_(std::move(stats)),
      dfs_(dfs),
      now_(std::move(now)) {}

absl::StatusOr<PaperState*> ChangeSet::FindPaper(absl::string_view paper_id) {
  if (auto it = live_.find(paper_id); it != live_.end()) return it->second;
  if (known_absent_.contains(paper_id)) return nullptr;
  absl::StatusOr<uint32_t> doc = table_.FindDocId(paper_id);
  if (absl::IsNotFound(doc.status())) {
    known_absent_.emplace(paper_id);
    return nullptr;
  }
  if (!doc.ok()) return doc.status();
  auto state = std::make_unique<PaperState>();
  state->doc = *doc;
  PAPERDB_ASSIGN_OR_RETURN(state->record, table_.Get(*doc));
  PaperState* raw = state.get();
  papers_.push_back(std::move(state));
  live_.emplace(paper_id, raw);
  return raw;
}

ChangeSet::~ChangeSet() = default;

const InvertedRun* ChangeSet::AdoptRun(std::unique_ptr<InvertedRun> run) {
  runs_.push_back(std::move(run));
  return runs_.back().get();
}

absl::StatusOr<PaperState*> ChangeSet::AddPaper(AnalyzedPaper paper,
                                                const InvertedRun* run,
                                                uint32_t run_paper) {
  if (stats_.next_doc_id() == UINT32_MAX) {
    return absl::ResourceExhaustedError(
        "store holds the maximum number of papers");
  }
  auto state = std::make_unique<PaperState>();
  state->doc = stats_.next_doc_id();
  stats_.set_next_doc_id(state->doc + 1);
  state->is_new = true;
  state->terms = std::move(paper.terms);
  state->run = run;
  state->run_paper = run_paper;
  state->record.set_doc_length_terms(paper.doc_length);
  state->record.set_token_spans(std::move(paper.token_spans));
  *paper.paper.mutable_ingest_time() = now_;
  *state->record.mutable_paper() = std::move(paper.paper);
  PaperState* raw = state.get();
  papers_.push_back(std::move(state));
  known_absent_.erase(raw->record.paper().id());
  live_[raw->record.paper().id()] = raw;
  return raw;
}

void ChangeSet::DeletePaper(PaperState* paper) {
  paper->deleted = true;
  live_.erase(paper->record.paper().id());
  known_absent_.insert(paper->record.paper().id());
}

absl::StatusOr<storage::v1::SourceRecord*> ChangeSet::FindSource(
    absl::string_view file_name) {
  auto it = sources_.find(file_name);
  if (it == sources_.end()) {
    SourceSlot slot;
    absl::StatusOr<storage::v1::SourceRecord> stored =
        table_.GetSource(file_name);
    if (stored.ok()) {
      slot.record = std::move(*stored);
    } else if (!absl::IsNotFound(stored.status())) {
      return stored.status();
    }
    it = sources_.emplace(file_name, std::move(slot)).first;
  }
  return it->second.record ? &*it->second.record : nullptr;
}

storage::v1::SourceRecord* ChangeSet::PutSource(
    storage::v1::SourceRecord record) {
  SourceSlot& slot = sources_[record.source().file_name()];
  slot.record = std::move(record);
  slot.dirty = true;
  return &*slot.record;
}

void ChangeSet::MarkSourceDirty(absl::string_view file_name) {
  sources_[file_name].dirty = true;
}

void ChangeSet::DeleteSource(absl::string_view file_name) {
  SourceSlot& slot = sources_[file_name];
  slot.record.reset();
  slot.dirty = true;
}

absl::Status ChangeSet::RemovePostings(absl::string_view term,
                                       const std::vector<uint32_t>& docs,
                                       storage::WriteBatch* batch) {
  const std::string prefix = storage::PostingPrefix(term);
  std::unique_ptr<storage::StoreIterator> it =
      store_->NewIterator(Column::kPostings);
  size_t next = 0;  // Index into `docs` (ascending).
  while (next < docs.size()) {
    it->SeekForPrev(storage::PostingKey(term, docs[next]));
    PAPERDB_RETURN_IF_ERROR(it->status());
    if (!it->Valid() || !absl::StartsWith(it->key(), prefix)) {
      return absl::DataLossError(absl::StrCat("no posting block of term \"",
                                              absl::CHexEscape(term),
                                              "\" holds doc ", docs[next]));
    }
    const std::string key(it->key());
    PAPERDB_ASSIGN_OR_RETURN(const uint32_t first_doc,
                             storage::FirstDocFromPostingKey(key));
    PAPERDB_ASSIGN_OR_RETURN(PostingBlock block,
                             PostingBlock::Decode(first_doc, it->value()));
    PostingBlockBuilder rebuilt;
    size_t removed = 0;
    for (size_t i = 0; i < block.size(); ++i) {
      PAPERDB_ASSIGN_OR_RETURN(const std::vector<uint32_t> positions,
                               block.Positions(i));
      if (next < docs.size() && docs[next] == block.doc(i)) {
        ++next;
        ++removed;
        continue;
      }
      rebuilt.Add(block.doc(i), block.doc_length(i), positions,
                  block.next_words(i));
    }
    if (removed == 0 ||
        (next < docs.size() && docs[next] <= block.header().last_doc)) {
      return absl::DataLossError(
          absl::StrCat("posting block of term \"", absl::CHexEscape(term),
                       "\" at doc ", first_doc, " lacks doc ", docs[next]));
    }
    batch->Delete(Column::kPostings, key);
    if (rebuilt.count() > 0) {
      batch->Put(Column::kPostings,
                 storage::PostingKey(term, rebuilt.first_doc()),
                 rebuilt.Finish());
    }
  }
  return absl::OkStatus();
}

absl::Status ChangeSet::Write(storage::WriteBatch* batch) {
  // The postings to take out, by term.
  std::map<std::string, std::vector<uint32_t>> removals;
  // Postings of new papers that carry their own terms, by term, in doc
  // order. The other new papers' postings are in the adopted runs.
  struct NewPosting {
    uint32_t doc;
    uint32_t doc_length;
    const std::vector<uint32_t>* positions;
    uint8_t next_words;
  };
  absl::flat_hash_map<absl::string_view, std::vector<NewPosting>> additions;
  // Per adopted run, per paper of it: its state if the paper is added.
  absl::flat_hash_map<const InvertedRun*, size_t> run_index;
  std::vector<std::vector<const PaperState*>> run_papers(runs_.size());
  for (size_t r = 0; r < runs_.size(); ++r) {
    run_index.emplace(runs_[r].get(), r);
    run_papers[r].assign(runs_[r]->paper_count(), nullptr);
  }

  // Deletes go into the batch before puts: a paper deleted and added again
  // in one change gets a new doc id, and its id mapping must end up put.
  for (const std::unique_ptr<PaperState>& paper : papers_) {
    if (!paper->deleted || paper->is_new) continue;
    const uint32_t length = paper->record.doc_length_terms();
    stats_.set_doc_count(stats_.doc_count() - 1);
    stats_.set_total_doc_length_terms(stats_.total_doc_length_terms() - length);
    batch->Delete(Column::kPapers, storage::PaperKey(paper->doc));
    batch->Delete(Column::kPaperIds, paper->record.paper().id());
    // The stored postings follow from the abstract: analyze it again.
    const AnalyzedPaper analyzed = AnalyzePaper(paper->record.paper());
    if (analyzed.doc_length != length) {
      return absl::DataLossError(absl::StrCat(
          "paper ", paper->record.paper().id(), " analyzes to ",
          analyzed.doc_length, " terms, its record says ", length));
    }
    for (const AnalyzedPaper::Term& term : analyzed.terms) {
      removals[term.term].push_back(paper->doc);
    }
  }
  for (auto& [term, docs] : removals) {
    std::sort(docs.begin(), docs.end());
    PAPERDB_RETURN_IF_ERROR(RemovePostings(term, docs, batch));
  }
  for (const std::unique_ptr<PaperState>& paper : papers_) {
    if (paper->deleted) continue;
    if (paper->is_new) {
      stats_.set_doc_count(stats_.doc_count() + 1);
      stats_.set_total_doc_length_terms(stats_.total_doc_length_terms() +
                                        paper->record.doc_length_terms());
      if (paper->run != nullptr) {
        run_papers[run_index.at(paper->run)][paper->run_paper] = paper.get();
      }
      for (const AnalyzedPaper::Term& term : paper->terms) {
        additions[term.term].push_back({paper->doc,
                                        paper->record.doc_length_terms(),
                                        &term.positions, term.next_words});
      }
      batch->Put(Column::kPaperIds, paper->record.paper().id(),
                 storage::PaperKey(paper->doc));
    } else if (!paper->dirty) {
      continue;
    }
    batch->Put(Column::kPapers, storage::PaperKey(paper->doc),
               paper->record.SerializeAsString());
  }
  // The papers' own terms, sorted: one more source in term order.
  std::vector<std::pair<absl::string_view, const std::vector<NewPosting>*>> own;
  own.reserve(additions.size());
  for (const auto& [term, postings] : additions)
    own.emplace_back(term, &postings);
  std::sort(own.begin(), own.end());

  // The sources (runs, then `own`) merged by term; each term's postings
  // from all of them written as blocks in doc order. Keys go into the batch
  // sorted: RocksDB's memtable inserts ordered keys much faster than
  // random ones.
  const size_t own_source = runs_.size();
  auto term_of = [&](size_t source, size_t i) {
    return source == own_source ? own[i].first : runs_[source]->term(i);
  };
  struct Cursor {
    absl::string_view term;
    size_t source;
    size_t next;
  };
  auto later = [](const Cursor& a, const Cursor& b) {
    return a.term != b.term ? a.term > b.term : a.source > b.source;
  };
  std::vector<Cursor> heap;
  for (size_t r = 0; r < runs_.size(); ++r) {
    if (runs_[r]->term_count() > 0) heap.push_back({runs_[r]->term(0), r, 0});
  }
  if (!own.empty()) heap.push_back({own[0].first, own_source, 0});
  std::make_heap(heap.begin(), heap.end(), later);
  struct Gathered {
    uint32_t doc;
    uint32_t doc_length;
    uint32_t tf;
    absl::string_view encoded;               // Run postings: positions.
    const std::vector<uint32_t>* positions;  // Own terms' postings.
    uint8_t next_words;
  };
  std::vector<Gathered> gathered;
  // Terms given postings, in term order, with their number.
  std::vector<std::pair<absl::string_view, int64_t>> added_terms;
  PostingBlockBuilder block;
  std::string block_head;  // block.FinishHead()'s, reused.
  while (!heap.empty()) {
    const absl::string_view term = heap.front().term;
    gathered.clear();
    while (!heap.empty() && heap.front().term == term) {
      std::pop_heap(heap.begin(), heap.end(), later);
      Cursor cursor = heap.back();
      heap.pop_back();
      if (cursor.source == own_source) {
        for (const NewPosting& p : *own[cursor.next].second) {
          gathered.push_back({p.doc,
                              p.doc_length,
                              static_cast<uint32_t>(p.positions->size()),
                              {},
                              p.positions,
                              p.next_words});
        }
      } else {
        const InvertedRun& run = *runs_[cursor.source];
        const std::vector<const PaperState*>& states =
            run_papers[cursor.source];
        for (const InvertedRun::Posting& p : run.postings(cursor.next)) {
          const PaperState* state = states[p.paper];
          if (state == nullptr) continue;  // Not added.
          gathered.push_back({state->doc, state->record.doc_length_terms(),
                              p.tf, run.positions(p), nullptr, p.next_words});
        }
      }
      const size_t size = cursor.source == own_source
                              ? own.size()
                              : runs_[cursor.source]->term_count();
      if (++cursor.next < size) {
        cursor.term = term_of(cursor.source, cursor.next);
        heap.push_back(cursor);
        std::push_heap(heap.begin(), heap.end(), later);
      }
    }
    if (gathered.empty()) continue;
    auto by_doc = [](const Gathered& a, const Gathered& b) {
      return a.doc < b.doc;
    };
    if (!std::is_sorted(gathered.begin(), gathered.end(), by_doc)) {
      std::sort(gathered.begin(), gathered.end(), by_doc);
    }
    for (size_t start = 0; start < gathered.size();
         start += kMaxPostingsPerBlock) {
      block.Clear();
      const size_t end =
          std::min(gathered.size(), start + kMaxPostingsPerBlock);
      for (size_t i = start; i < end; ++i) {
        const Gathered& g = gathered[i];
        if (g.positions != nullptr) {
          block.Add(g.doc, g.doc_length, *g.positions, g.next_words);
        } else {
          block.AddEncoded(g.doc, g.doc_length, g.tf, g.encoded, g.next_words);
        }
      }
      block.FinishHead(&block_head);
      batch->Put(Column::kPostings,
                 storage::PostingKey(term, block.first_doc()),
                 {block_head, block.positions()});
    }
    added_terms.emplace_back(term, static_cast<int64_t>(gathered.size()));
  }
  // Document frequency changes in term order, as the batch's other keys:
  // the added terms (sorted) merged with the removed ones (a sorted map).
  std::vector<std::pair<absl::string_view, int64_t>> deltas;
  deltas.reserve(added_terms.size() + removals.size());
  auto removed = removals.begin();
  for (const auto& [term, count] : added_terms) {
    for (; removed != removals.end() && removed->first < term; ++removed) {
      deltas.emplace_back(removed->first,
                          -static_cast<int64_t>(removed->second.size()));
    }
    int64_t delta = count;
    if (removed != removals.end() && removed->first == term) {
      delta -= static_cast<int64_t>(removed->second.size());
      ++removed;
    }
    deltas.emplace_back(term, delta);
  }
  for (; removed != removals.end(); ++removed) {
    deltas.emplace_back(removed->first,
                        -static_cast<int64_t>(removed->second.size()));
  }
  df_updates_.clear();
  df_updates_.reserve(deltas.size());
  for (const auto& [term, delta] : deltas) {
    if (delta == 0) continue;
    int64_t df = delta;
    if (auto known = dfs_->find(term); known != dfs_->end()) {
      df += known->second;
    }
    if (df < 0) {
      return absl::DataLossError(absl::StrCat("document frequency of term \"",
                                              absl::CHexEscape(term),
                                              "\" would fall below zero"));
    }
    df_updates_.emplace_back(term, static_cast<uint32_t>(df));
    if (df == 0) {
      batch->Delete(Column::kTerms, term);
    } else {
      std::string encoded;
      PutVarint32(static_cast<uint32_t>(df), &encoded);
      batch->Put(Column::kTerms, term, encoded);
    }
  }
  for (const auto& [file_name, slot] : sources_) {
    if (!slot.dirty) continue;
    if (slot.record) {
      batch->Put(Column::kSources, file_name, slot.record->SerializeAsString());
    } else {
      batch->Delete(Column::kSources, file_name);
    }
  }
  batch->Put(Column::kMeta, storage::kStatsKey, stats_.SerializeAsString());
  return absl::OkStatus();
}

}  // namespace paperdb::index
