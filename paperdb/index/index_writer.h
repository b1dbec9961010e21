// IndexWriter: the single writer of a store. Adds, replaces and deletes
// files and papers, each call in one atomic batch (change_set.h), so a
// reader sees a file's papers all at once or not at all.
//
// Thread safety: Commit() may be called from several threads; commits are
// serialized. There must be one IndexWriter per store (the store's primary
// instance already excludes other processes).

#ifndef PAPERDB_INDEX_INDEX_WRITER_H_
#define PAPERDB_INDEX_INDEX_WRITER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "paperdb/index/change_set.h"
#include "paperdb/index/inverted_run.h"
#include "paperdb/storage/store.h"
#include "paperdb/storage/v1/records.pb.h"
#include "paperdb/v1/paper.pb.h"

namespace paperdb::index {

// What happened to one paper of a file.
enum class PaperOutcome {
  kAdded,      // New to the store.
  kUnchanged,  // Already stored (from this file or another); kept. The
               // record gains or updates its source entry for this file.
  kUpdated,    // New, replacing the paper at the same paragraph ordinal of the
               // file's previous version, which the file no longer holds;
               // or the same id with its text changed in case or spacing
               // only, replacing the stored text (replaced id == own id).
  kSkipped,    // Same id as an earlier paper of the same file.
};

// The new contents of one file: every paper it holds, in file order, each
// with `id`, `name`, `abstract` and one entry in `sources` (this file) set.
struct FileUpdate {
  std::string file_name;
  // XXH3-128 hex of the file's bytes; if it equals the stored file's hash,
  // nothing is written. Empty: always compare paper by paper.
  std::string content_hash;
  std::vector<AnalyzedPaper> papers;
  // False if the papers carry no terms yet: the caller expected the file to
  // be unchanged (same content hash as stored). If it is not, the writer
  // analyzes them itself.
  bool analyzed = true;
  // If set, the papers' postings inverted (InvertedRun::Build(papers), which
  // leaves the papers' `terms` empty): the fast path of a bulk ingest.
  // Ignored when `analyzed` is false.
  std::unique_ptr<InvertedRun> run;
};

// What a commit did to one file.
struct FileResult {
  std::vector<PaperOutcome> outcomes;  // One per paper, in input order.
  std::vector<std::string> replaced;   // One per paper: for kUpdated, the id
                                       // replaced; empty otherwise.
  std::vector<std::string> removed;    // Ids the previous version held and
                                       // this one does not.
  int added = 0;
  int unchanged = 0;
  int updated = 0;
  int skipped = 0;
  v1::SourceFile source;  // The file's record as stored now.
};

// Outcome of Commit(std::vector<v1::Paper>): all files' papers together.
struct CommitResult {
  std::vector<PaperOutcome> outcomes;  // One per paper, in input order.
  int added = 0;
  int unchanged = 0;
  int updated = 0;
  int skipped = 0;
  int removed = 0;
};

struct DeletePaperResult {
  std::string paper_id;
  std::vector<std::string> file_names;  // Files it was removed from.
};

struct DeleteSourceResult {
  int papers_deleted = 0;  // Held by no other file: deleted.
  int papers_kept = 0;     // Still held by another file.
};

class IndexWriter {
 public:
  // `store` must be a primary instance and outlive the writer. Reads the
  // corpus statistics and every term's document frequency: DATA_LOSS if
  // they do not parse.
  static absl::StatusOr<std::unique_ptr<IndexWriter>> Create(
      storage::Store* store);

  IndexWriter(const IndexWriter&) = delete;
  IndexWriter& operator=(const IndexWriter&) = delete;

  // Stores each file of `files` in turn, in one atomic batch (bulk ingest
  // commits several files at once): a file whose name is stored already
  // replaces it. Papers it no longer holds lose it as a source and are
  // deleted, postings and all, if no other file holds them. New papers get
  // `ingest_time` now. One result per file, in order. On error nothing is
  // written: INTERNAL or UNAVAILABLE for store failures, DATA_LOSS if the
  // stored index is inconsistent, RESOURCE_EXHAUSTED past 2^32 - 1 doc ids.
  absl::StatusOr<std::vector<FileResult>> CommitFiles(
      std::vector<FileUpdate> files) ABSL_LOCKS_EXCLUDED(mu_);

  // Convenience for tests and tools: analyzes `papers`, groups them by their
  // first source's file name (in order of first appearance) and commits
  // them as CommitFiles() does, without content hashes.
  absl::StatusOr<CommitResult> Commit(std::vector<v1::Paper> papers)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Deletes the paper with id `paper_id` from every file that holds it, with
  // its postings. NOT_FOUND if no such paper is stored; store errors as for
  // CommitFiles().
  absl::StatusOr<DeletePaperResult> DeletePaper(absl::string_view paper_id)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Deletes the file `file_name`: its papers lose it as a source and are
  // deleted if no other file holds them. NOT_FOUND if no such file is
  // stored; store errors as for CommitFiles().
  absl::StatusOr<DeleteSourceResult> DeleteSource(absl::string_view file_name)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Statistics as of the last commit.
  storage::v1::CorpusStats stats() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  IndexWriter(storage::Store* store, storage::v1::CorpusStats stats,
              absl::flat_hash_map<std::string, uint32_t> dfs)
      : store_(store), stats_(std::move(stats)), dfs_(std::move(dfs)) {}

  // Writes `change` and, once stored, adopts its statistics.
  absl::Status Apply(ChangeSet& change) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  storage::Store* store_;  // Not owned.
  mutable absl::Mutex mu_;
  storage::v1::CorpusStats stats_ ABSL_GUARDED_BY(mu_);
  // Document frequency of every term in the store, read once at Create() so
  // that a commit never reads the store per term. The writer is the store's
  // only writer, so the map cannot go stale. Memory: about 50 bytes a term.
  absl::flat_hash_map<std::string, uint32_t> dfs_ ABSL_GUARDED_BY(mu_);
};

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_INDEX_WRITER_H_
