// ChangeSet: one atomic change to a store, built up in memory and written as
// a single RocksDB WriteBatch. IndexWriter uses it for every commit: adding
// files, replacing them, deleting papers and files.
//
// It overlays the store: papers and source records are read on first use
// and changed in memory, so several files (or a file and its replacement)
// can go into one batch and each step sees the ones before it. Write() then
// turns the change into puts and deletes:
//   - new papers: record, id mapping, and new posting blocks (doc ids above
//     every stored one, so they only append);
//   - deleted papers: record and id mapping deleted, and every posting block
//     that holds them rewritten without them (a block left empty is
//     deleted), so that their postings are reclaimed at once;
//   - document frequencies and corpus statistics adjusted exactly.
//
// Not thread-safe; the IndexWriter holds its lock while a ChangeSet lives.

#ifndef PAPERDB_INDEX_CHANGE_SET_H_
#define PAPERDB_INDEX_CHANGE_SET_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/node_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/timestamp.pb.h"
#include "paperdb/index/next_words.h"
#include "paperdb/storage/paper_table.h"
#include "paperdb/storage/store.h"
#include "paperdb/storage/v1/records.pb.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/v1/paper.pb.h"

namespace paperdb::index {

// A paper with its abstract analyzed (analyzer.h), ready to index.
struct AnalyzedPaper {
  struct Term {
    std::string term;
    std::vector<uint32_t> positions;  // Token positions, ascending.
    // The analyzer's id of `term` in `term_epoch` (analyzer.h), or
    // text::kNoTermId (common grams, typed fields).
    uint32_t term_id = text::kNoTermId;
    // Which terms stand right after its occurrences (next_words.h).
    uint8_t next_words = kAnyNextWord;
  };
  v1::Paper paper;
  // The analyzing thread's text::Analyzer::term_epoch() (0: none).
  uint64_t term_epoch = 0;
  uint32_t doc_length = 0;  // Content words (no stopwords): BM25 length.
  std::vector<Term> terms;  // Distinct terms, in order of first occurrence.
  std::string token_spans;  // EncodeTokenSpans() of the abstract's tokens.
};

// Analyzes `paper`'s abstract. Thread-safe (a thread-local analyzer).
AnalyzedPaper AnalyzePaper(v1::Paper paper);

class InvertedRun;

// A paper as the change sees it.
struct PaperState {
  uint32_t doc = 0;
  storage::v1::PaperRecord record;
  bool is_new = false;   // Added by this change.
  bool deleted = false;  // Deleted by this change.
  bool dirty = false;    // Record changed (sources); rewrite it.
  std::vector<AnalyzedPaper::Term> terms;  // New papers only.
  // New papers whose postings are in an inverted run instead of `terms`:
  // paper `run_paper` of `run`.
  const InvertedRun* run = nullptr;
  uint32_t run_paper = 0;
};

class ChangeSet {
 public:
  // `store`, `dfs` must outlive the change. `stats` and `dfs` are the
  // writer's view of the store (stats as stored; dfs: every term's document
  // frequency). `now` stamps new papers and changed sources.
  ChangeSet(const storage::Store* store, storage::v1::CorpusStats stats,
            const absl::flat_hash_map<std::string, uint32_t>* dfs,
            google::protobuf::Timestamp now);

  ChangeSet(const ChangeSet&) = delete;
  ChangeSet& operator=(const ChangeSet&) = delete;
  ~ChangeSet();

  // The live paper with id `paper_id` (stored, or added by this change), or
  // nullptr if there is none. Store errors; DATA_LOSS for a bad record.
  absl::StatusOr<PaperState*> FindPaper(absl::string_view paper_id);

  // Adds a new paper; its id must not be live (FindPaper() == nullptr).
  // Sets its ingest time. RESOURCE_EXHAUSTED past 2^32 - 1 doc ids. Its
  // postings are `paper.terms`, or, if `run` is set (a run adopted by
  // AdoptRun(), `paper.terms` then empty), those of paper `run_paper` of
  // `run`.
  absl::StatusOr<PaperState*> AddPaper(AnalyzedPaper paper,
                                       const InvertedRun* run = nullptr,
                                       uint32_t run_paper = 0);

  // Keeps `run` until the change is destroyed, for AddPaper(); returns it.
  const InvertedRun* AdoptRun(std::unique_ptr<InvertedRun> run);

  // Deletes a live paper: record, id mapping and postings.
  void DeletePaper(PaperState* paper);

  // The record of source file `file_name`, or nullptr if none is stored.
  // Changes made through the pointer are written; call MarkSourceDirty().
  absl::StatusOr<storage::v1::SourceRecord*> FindSource(
      absl::string_view file_name);

  // Stores `record` under its file name, replacing any earlier one.
  storage::v1::SourceRecord* PutSource(storage::v1::SourceRecord record);

  // Marks a source returned by FindSource() as changed.
  void MarkSourceDirty(absl::string_view file_name);

  // Deletes the source record of `file_name`.
  void DeleteSource(absl::string_view file_name);

  const google::protobuf::Timestamp& now() const { return now_; }

  // Fills `batch` with the change. Afterwards stats() and df_updates() hold
  // what the store will hold once the batch is written. DATA_LOSS if a
  // deleted paper's postings are not where the index says.
  absl::Status Write(storage::WriteBatch* batch);

  const storage::v1::CorpusStats& stats() const { return stats_; }
  // New document frequency of every term the change touched (0: removed).
  const std::vector<std::pair<std::string, uint32_t>>& df_updates() const {
    return df_updates_;
  }

 private:
  absl::Status RemovePostings(absl::string_view term,
                              const std::vector<uint32_t>& docs,
                              storage::WriteBatch* batch);

  const storage::Store* store_;
  storage::PaperTable table_;
  storage::v1::CorpusStats stats_;
  const absl::flat_hash_map<std::string, uint32_t>* dfs_;
  google::protobuf::Timestamp now_;
  // Every paper touched, in order; `live_` maps an id to its live state.
  std::vector<std::unique_ptr<PaperState>> papers_;
  absl::flat_hash_map<std::string, PaperState*> live_;
  absl::flat_hash_set<std::string> known_absent_;  // Ids looked up, not found.
  // Source records touched: nullopt once deleted.
  struct SourceSlot {
    std::optional<storage::v1::SourceRecord> record;
    bool dirty = false;
  };
  absl::node_hash_map<std::string, SourceSlot> sources_;  // Stable pointers.
  std::vector<std::pair<std::string, uint32_t>> df_updates_;
  std::vector<std::unique_ptr<InvertedRun>> runs_;  // Adopted, in order.
};

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_CHANGE_SET_H_
