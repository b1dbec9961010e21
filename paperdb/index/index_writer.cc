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

// Adds `doc`'s postings to `index`; returns its length in terms.
uint32_t IndexAbstract(uint32_t doc, const std::string& abstract,
                       absl::flat_hash_map<std::string, TermPostings>* index) {
  const std::vector<text::AnalyzedToken> tokens =
      text::ThreadLocalAnalyzer().Analyze(abstract);
  const uint32_t length = static_cast<uint32_t>(tokens.size());
  absl::flat_hash_map<absl::string_view, std::vector<uint32_t>> positions;
  for (const text::AnalyzedToken& token : tokens) {
    positions[token.term].push_back(token.position);
  }
  for (auto& [term, term_positions] : positions) {
    (*index)[term].postings.push_back({doc, length, std::move(term_positions)});
  }
  return length;
}

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

absl::StatusOr<CommitResult> IndexWriter::Commit(
    std::vector<v1::Paper> papers) {
  absl::MutexLock lock(&mu_);
  CommitResult result;
  storage::WriteBatch batch;
  storage::v1::CorpusStats stats = stats_;
  absl::flat_hash_map<std::string, TermPostings> index;
  absl::flat_hash_set<std::string> ids_in_commit;
  const google::protobuf::Timestamp now = Now();

  for (v1::Paper& paper : papers) {
    if (!ids_in_commit.insert(paper.id()).second) {
      result.outcomes.push_back(PaperOutcome::kSkipped);
      ++result.skipped;
      continue;
    }
    absl::StatusOr<uint32_t> existing = table_.FindDocId(paper.id());
    if (existing.ok()) {
      PAPERDB_ASSIGN_OR_RETURN(storage::v1::PaperRecord record,
                               table_.Get(*existing));
      bool known_source = false;
      for (const v1::Source& s : record.paper().sources()) {
        known_source |= s.file_name() == paper.sources(0).file_name();
      }
      if (!known_source) {
        *record.mutable_paper()->add_sources() = paper.sources(0);
        batch.Put(Column::kPapers, storage::PaperKey(*existing),
                  record.SerializeAsString());
      }
      result.outcomes.push_back(PaperOutcome::kUnchanged);
      ++result.unchanged;
      continue;
    }
    if (!absl::IsNotFound(existing.status())) return existing.status();
    if (stats.next_doc_id() == UINT32_MAX) {
      return absl::ResourceExhaustedError(
          "store holds the maximum number of papers");
    }
    const uint32_t doc = stats.next_doc_id();
    stats.set_next_doc_id(doc + 1);
    *paper.mutable_ingest_time() = now;
    storage::v1::PaperRecord record;
    record.set_doc_length_terms(IndexAbstract(doc, paper.abstract(), &index));
    stats.set_doc_count(stats.doc_count() + 1);
    stats.set_total_doc_length_terms(stats.total_doc_length_terms() +
                                     record.doc_length_terms());
    batch.Put(Column::kPaperIds, paper.id(), storage::PaperKey(doc));
    *record.mutable_paper() = std::move(paper);
    batch.Put(Column::kPapers, storage::PaperKey(doc),
              record.SerializeAsString());
    result.outcomes.push_back(PaperOutcome::kAdded);
    ++result.added;
  }

  // Keys go into the batch in sorted order: RocksDB's memtable remembers
  // where the previous insert landed, so ordered inserts are much cheaper.
  std::vector<const std::pair<const std::string, TermPostings>*> terms;
  terms.reserve(index.size());
  for (const auto& entry : index) terms.push_back(&entry);
  std::sort(terms.begin(), terms.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  std::vector<std::pair<const std::string*, uint32_t>> new_dfs;
  new_dfs.reserve(index.size());
  for (const auto* entry : terms) {
    const std::string& term = entry->first;
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
    new_dfs.emplace_back(&term, df);
    std::string encoded;
    PutVarint32(df, &encoded);
    batch.Put(Column::kTerms, term, encoded);
  }
  batch.Put(Column::kMeta, storage::kStatsKey, stats.SerializeAsString());
  PAPERDB_RETURN_IF_ERROR(store_->Write(batch));
  stats_ = std::move(stats);
  for (const auto& [term, df] : new_dfs) dfs_[*term] = df;
  return result;
}

}  // namespace paperdb::index
