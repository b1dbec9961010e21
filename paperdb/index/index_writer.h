// IndexWriter: stores papers and their inverted index in one atomic batch.
//
// For each new paper it writes the record, the external-id mapping, posting
// blocks (posting_block.h) for every term, updated document frequencies and
// corpus statistics, all in the same RocksDB WriteBatch, so a reader sees a
// file's papers all at once or not at all.
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
#include "absl/synchronization/mutex.h"
#include "paperdb/storage/paper_table.h"
#include "paperdb/storage/store.h"
#include "paperdb/storage/v1/records.pb.h"
#include "paperdb/v1/paper.pb.h"

namespace paperdb::index {

// What happened to one paper of a commit.
enum class PaperOutcome {
  kAdded,      // New to the store.
  kUnchanged,  // Already stored, or earlier in the commit from another
               // file (same id); the record gains the new source.
  kSkipped,    // Same id and same file as an earlier paper of the commit.
};

// A paper with its abstract analyzed (analyzer.h), ready to index. Made by
// IndexWriter::Analyze(), which needs no lock, so callers can analyze in
// parallel and commit in order.
struct AnalyzedPaper {
  struct Term {
    std::string term;
    std::vector<uint32_t> positions;  // Token positions, ascending.
  };
  v1::Paper paper;
  uint32_t doc_length = 0;  // In tokens: the BM25 document length.
  std::vector<Term> terms;  // Distinct terms, in order of first occurrence.
};

struct CommitResult {
  std::vector<PaperOutcome> outcomes;  // One per paper, in input order.
  int added = 0;
  int unchanged = 0;
  int skipped = 0;
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

  // Stores `papers`, which must have `id`, `name`, `abstract` and one entry
  // in `sources` set; sets `ingest_time` of new papers to now. Atomic: on
  // error nothing is written. INTERNAL or UNAVAILABLE for store failures;
  // RESOURCE_EXHAUSTED if the store would pass 2^32 - 1 papers.
  absl::StatusOr<CommitResult> Commit(std::vector<v1::Paper> papers)
      ABSL_LOCKS_EXCLUDED(mu_);

  // As above, for papers already analyzed. The commit may hold several whole
  // files; it is applied atomically all the same.
  absl::StatusOr<CommitResult> Commit(std::vector<AnalyzedPaper> papers)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Analyzes `paper` for Commit(). Thread-safe; takes no lock.
  static AnalyzedPaper Analyze(v1::Paper paper);

  // Statistics as of the last commit.
  storage::v1::CorpusStats stats() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  IndexWriter(storage::Store* store, storage::v1::CorpusStats stats,
              absl::flat_hash_map<std::string, uint32_t> dfs)
      : store_(store),
        table_(store),
        stats_(std::move(stats)),
        dfs_(std::move(dfs)) {}

  storage::Store* store_;  // Not owned.
  storage::PaperTable table_;
  mutable absl::Mutex mu_;
  storage::v1::CorpusStats stats_ ABSL_GUARDED_BY(mu_);
  // Document frequency of every term in the store, read once at Create() so
  // that a commit never reads the store per term. The writer is the store's
  // only writer, so the map cannot go stale. Memory: about 50 bytes a term.
  absl::flat_hash_map<std::string, uint32_t> dfs_ ABSL_GUARDED_BY(mu_);
};

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_INDEX_WRITER_H_
