#include "paperdb/index/index_writer.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/posting_block.h"
#include "paperdb/index/varint.h"
#include "paperdb/storage/keys.h"
#include "paperdb/text/analyzer.h"

namespace paperdb::index {
namespace {

using storage::Column;

// Postings of one term within one commit, in doc order.
struct TermPostings {
  struct Posting {
    uint32_t doc;
    uint32_t doc_length;
    std::vector<uint32_t> positions;
  };
  std::vector<Posting> postings;
};

// Reads the whole "terms" family: term -> document frequency.
absl::StatusOr<absl::flat_hash_map<std::string, uint32_t>>
ReadDocumentFrequencies(const storage::Store& store) {
  absl::flat_hash_map<std::string, uint32_t> dfs;
  std::unique_ptr<storage::StoreIterator> it =
      store.NewIterator(Column::kTerms);
  for (it->Seek(""); it->Valid(); it->Next()) {
    const char* p = it->value().data();
    uint32_t df = 0;
    if (!GetVarint32(&p, p + it->value().size(), &df)) {
      return absl::DataLossError(absl::StrCat("document frequency of '",
                                              it->key(), "' does not parse"));
    }
    dfs.emplace(it->key(), df);
  }
  PAPERDB_RETURN_IF_ERROR(it->status());
  return dfs;
}

google::protobuf::Timestamp Now() {
  const absl::Time now = absl::Now();
  google::protobuf::Timestamp ts;
  const int64_t micros = absl::ToUnixMicros(now);
  ts.set_seconds(micros / 1000000);
  ts.set_nanos(static_cast<int32_t>((micros % 1000000) * 1000));
  return ts;
}

}  // namespace

absl::StatusOr<std::unique_ptr<IndexWriter>> IndexWriter::Create(
    storage::Store* store) {
  storage::PaperTable table(store);
  PAPERDB_ASSIGN_OR_RETURN(storage::v1::CorpusStats stats, table.Stats());
  PAPERDB_ASSIGN_OR_RETURN(auto dfs, ReadDocumentFrequencies(*store));
  return std::unique_ptr<IndexWriter>(
      new IndexWriter(store, std::move(stats), std::move(dfs)));
}

storage::v1::CorpusStats IndexWriter::stats() const {
  absl::MutexLock lock(&mu_);
  return stats_;
}

AnalyzedPaper IndexWriter::Analyze(v1::Paper paper) {
  AnalyzedPaper analyzed;
  const std::vector<text::AnalyzedToken> tokens =
      text::ThreadLocalAnalyzer().Analyze(paper.abstract());
  analyzed.doc_length = static_cast<uint32_t>(tokens.size());
  absl::flat_hash_map<absl::string_view, size_t> slot;
  for (const text::AnalyzedToken& token : tokens) {
    auto [it, inserted] = slot.emplace(token.term, analyzed.terms.size());
    if (inserted) analyzed.terms.push_back({token.term, {}});
    analyzed.terms[it->second].positions.push_back(token.position);
  }
  analyzed.paper = std::move(paper);
  return analyzed;
}

absl::StatusOr<CommitResult> IndexWriter::Commit(
    std::vector<v1::Paper> papers) {
  std::vector<AnalyzedPaper> analyzed;
  analyzed.reserve(papers.size());
  for (v1::Paper& paper : papers) analyzed.push_back(Analyze(std::move(paper)));
  return Commit(std::move(analyzed));
}

namespace {

// What one distinct paper id of a commit turns into.
struct Entry {
  AnalyzedPaper* added = nullptr;  // New paper: its analysis.
  uint32_t existing_doc = 0;       // Stored paper: its doc id and record.
  storage::v1::PaperRecord existing;
  bool existing_changed = false;  // The stored record gained a source.

  v1::Paper& paper() {
    return added ? added->paper : *existing.mutable_paper();
  }
};

bool HasSource(const v1::Paper& paper, const std::string& file_name) {
  for (const v1::Source& s : paper.sources()) {
    if (s.file_name() == file_name) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<CommitResult> IndexWriter::Commit(
    std::vector<AnalyzedPaper> papers) {
  absl::MutexLock lock(&mu_);
  CommitResult result;
  // Phase 1: decide each paper's outcome. A repeat of an id seen earlier in
  // this commit is skipped if it comes from the same file; from another file
  // it adds that source (the commit may hold several whole files).
  std::vector<Entry> entries;
  entries.reserve(papers.size());
  absl::flat_hash_map<std::string, size_t> entry_of;
  for (AnalyzedPaper& analyzed : papers) {
    const v1::Source& source = analyzed.paper.sources(0);
    if (auto seen = entry_of.find(analyzed.paper.id());
        seen != entry_of.end()) {
      Entry& entry = entries[seen->second];
      if (HasSource(entry.paper(), source.file_name())) {
        result.outcomes.push_back(PaperOutcome::kSkipped);
        ++result.skipped;
        continue;
      }
      *entry.paper().add_sources() = source;
      entry.existing_changed = entry.added == nullptr;
      result.outcomes.push_back(PaperOutcome::kUnchanged);
      ++result.unchanged;
      continue;
    }
    entry_of.emplace(analyzed.paper.id(), entries.size());
    Entry& entry = entries.emplace_back();
    absl::StatusOr<uint32_t> existing = table_.FindDocId(analyzed.paper.id());
    if (existing.ok()) {
      PAPERDB_ASSIGN_OR_RETURN(entry.existing, table_.Get(*existing));
      entry.existing_doc = *existing;
      if (!HasSource(entry.existing.paper(), source.file_name())) {
        *entry.existing.mutable_paper()->add_sources() = source;
        entry.existing_changed = true;
      }
      result.outcomes.push_back(PaperOutcome::kUnchanged);
      ++result.unchanged;
      continue;
    }
    if (!absl::IsNotFound(existing.status())) return existing.status();
    entry.added = &analyzed;
    result.outcomes.push_back(PaperOutcome::kAdded);
    ++result.added;
  }

  // Phase 2: records and postings.
  storage::WriteBatch batch;
  storage::v1::CorpusStats stats = stats_;
  absl::flat_hash_map<absl::string_view, TermPostings> index;
  const google::protobuf::Timestamp now = Now();
  for (Entry& entry : entries) {
    if (entry.added == nullptr) {
      if (entry.existing_changed) {
        batch.Put(Column::kPapers, storage::PaperKey(entry.existing_doc),
                  entry.existing.SerializeAsString());
      }
      continue;
    }
    if (stats.next_doc_id() == UINT32_MAX) {
      return absl::ResourceExhaustedError(
          "store holds the maximum number of papers");
    }
    const uint32_t doc = stats.next_doc_id();
    stats.set_next_doc_id(doc + 1);
    AnalyzedPaper& analyzed = *entry.added;
    for (AnalyzedPaper::Term& term : analyzed.terms) {
      index[term.term].postings.push_back(
          {doc, analyzed.doc_length, std::move(term.positions)});
    }
    stats.set_doc_count(stats.doc_count() + 1);
    stats.set_total_doc_length_terms(stats.total_doc_length_terms() +
                                     analyzed.doc_length);
    *analyzed.paper.mutable_ingest_time() = now;
    batch.Put(Column::kPaperIds, analyzed.paper.id(), storage::PaperKey(doc));
    storage::v1::PaperRecord record;
    record.set_doc_length_terms(analyzed.doc_length);
    *record.mutable_paper() = std::move(analyzed.paper);
    batch.Put(Column::kPapers, storage::PaperKey(doc),
              record.SerializeAsString());
  }

  // Keys go into the batch in sorted order: RocksDB's memtable remembers
  // where the previous insert landed, so ordered inserts are much cheaper.
  std::vector<const std::pair<const absl::string_view, TermPostings>*> terms;
  terms.reserve(index.size());
  for (const auto& entry : index) terms.push_back(&entry);
  std::sort(terms.begin(), terms.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  std::vector<std::pair<absl::string_view, uint32_t>> new_dfs;
  new_dfs.reserve(index.size());
  for (const auto* entry : terms) {
    const absl::string_view term = entry->first;
    const std::vector<TermPostings::Posting>& postings = entry->second.postings;
    for (size_t start = 0; start < postings.size();
         start += kMaxPostingsPerBlock) {
      PostingBlockBuilder block;
      const size_t end =
          std::min(postings.size(), start + kMaxPostingsPerBlock);
      for (size_t i = start; i < end; ++i) {
        block.Add(postings[i].doc, postings[i].doc_length,
                  postings[i].positions);
      }
      batch.Put(Column::kPostings, storage::PostingKey(term, block.first_doc()),
                block.Finish());
    }
    uint32_t df = static_cast<uint32_t>(postings.size());
    if (auto known = dfs_.find(term); known != dfs_.end()) df += known->second;
    new_dfs.emplace_back(term, df);
    std::string encoded;
    PutVarint32(df, &encoded);
    batch.Put(Column::kTerms, term, encoded);
  }
  batch.Put(Column::kMeta, storage::kStatsKey, stats.SerializeAsString());
  PAPERDB_RETURN_IF_ERROR(store_->Write(batch));
  stats_ = std::move(stats);
  for (const auto& [term, df] : new_dfs) dfs_[term] = df;
  return result;
}

}  // namespace paperdb::index
