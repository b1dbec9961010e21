#include "paperdb/index/index_writer.h"

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

absl::StatusOr<uint32_t> ReadDocumentFrequency(const storage::Store& store,
                                               const std::string& term) {
  absl::StatusOr<std::string> value = store.Get(Column::kTerms, term);
  if (absl::IsNotFound(value.status())) return 0;
  if (!value.ok()) return value.status();
  const char* p = value->data();
  uint32_t df = 0;
  if (!GetVarint32(&p, value->data() + value->size(), &df)) {
    return absl::DataLossError(
        absl::StrCat("document frequency of '", term, "' does not parse"));
  }
  return df;
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
  return std::unique_ptr<IndexWriter>(new IndexWriter(store, std::move(stats)));
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

  for (const auto& [term, term_postings] : index) {
    const std::vector<TermPostings::Posting>& postings = term_postings.postings;
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
    PAPERDB_ASSIGN_OR_RETURN(const uint32_t df,
                             ReadDocumentFrequency(*store_, term));
    std::string encoded;
    PutVarint32(df + static_cast<uint32_t>(postings.size()), &encoded);
    batch.Put(Column::kTerms, term, encoded);
  }
  batch.Put(Column::kMeta, storage::kStatsKey, stats.SerializeAsString());
  PAPERDB_RETURN_IF_ERROR(store_->Write(batch));
  stats_ = std::move(stats);
  return result;
}

}  // namespace paperdb::index
