// Ingester: parses paper-list files and commits each one atomically through
// the IndexWriter. Used by the one-shot CLI and by the gRPC IngestService.
//
// Thread safety: IngestContent() may be called concurrently (commits are
// serialized by the IndexWriter). Holds a writer it does not own.

#ifndef PAPERDB_INGEST_SERVICE_INGESTER_H_
#define PAPERDB_INGEST_SERVICE_INGESTER_H_

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/index/index_writer.h"
#include "paperdb/storage/store.h"
#include "paperdb/v1/ingest_service.pb.h"

namespace paperdb::ingest {

// Limits on what one file may hold. Each bounds memory: a file is held
// whole while it is parsed and committed (it is stored atomically).
// The largest max_abstract_bytes accepted (--max_abstract_bytes): one
// paper, with its highlights and snippet, must fit a reply a default gRPC
// client takes (query_service/reply_budget.h).
inline constexpr size_t kMaxAbstractBytesLimit = 1 << 20;

struct IngestOptions {
  // Largest file accepted, in bytes; a larger one is rejected whole. Peak
  // memory of an ingest is about 23 times the file (40 MiB: 917 MiB).
  size_t max_file_bytes = 32 << 20;
  // Most paragraphs a file may hold; a file with more is rejected whole.
  size_t max_paragraphs = 100000;
  // Longest abstract accepted, in bytes. Real abstracts are a few KiB; a
  // longer paragraph is rejected on its own.
  size_t max_abstract_bytes = 256 << 10;
  // Longest word (run of non-space characters) accepted, in bytes; a
  // paragraph holding a longer one is rejected on its own.
  size_t max_word_bytes = 2048;
};

// Most paragraph outcomes one IngestFileResponse lists.
inline constexpr int kMaxListedParagraphs = 10000;

// Longest file name (a label) accepted, in bytes.
inline constexpr size_t kMaxFileNameBytes = 1024;

// OK if `file_name` can label a source: 1 to kMaxFileNameBytes bytes of valid
// UTF-8 without control, bidirectional formatting or invisible characters
// (text::ContainsControlCharacter). INVALID_ARGUMENT otherwise, with the
// name C-escaped in the message. The name is never opened as a path.
absl::Status ValidateFileName(absl::string_view file_name);

// One paragraph of a prepared file.
struct PreparedParagraph {
  enum class Kind { kPaper, kWordless, kRejected };
  Kind kind = Kind::kPaper;
  uint32_t ordinal = 0;      // 1-based among the file's paragraphs.
  uint32_t line_number = 0;  // 1-based.
  uint64_t byte_offset = 0;
  size_t paper = 0;    // kPaper: index into PreparedFile::papers.
  std::string reason;  // kRejected: why.
};

// A file parsed and analyzed, ready to commit.
struct PreparedFile {
  std::string file_name;
  std::string content_hash;  // XXH3-128 hex of the file's bytes.
  std::vector<index::AnalyzedPaper> papers;
  std::vector<PreparedParagraph> paragraphs;  // In file order.
  // False if the file had the stored file's content hash: its papers were
  // not analyzed (index::FileUpdate::analyzed).
  bool analyzed = true;
  // If analyzed: the papers' postings, inverted (index::FileUpdate::run).
  std::unique_ptr<index::InvertedRun> run;
};

// Returns true once the caller has given up (client gone, deadline passed).
using CancelledFn = std::function<bool()>;

class Ingester {
 public:
  // `writer` must outlive the ingester; `store` is the store it writes.
  Ingester(index::IndexWriter* writer, const storage::Store* store,
           IngestOptions options = {})
      : writer_(writer), store_(store), options_(options) {}

  const IngestOptions& options() const { return options_; }

  // Parses `content` (the bytes of a file labelled `file_name`) and stores
  // it in one atomic batch, replacing a stored file of the same name. The
  // response lists each paragraph's outcome. INVALID_ARGUMENT for a bad file
  // name, or (naming file, line and byte) for an empty or malformed file or
  // one over the file limits, in which case nothing is written; CANCELLED if
  // `cancelled` returns true before the commit; store errors as from
  // IndexWriter::CommitFiles(). Paragraphs over the abstract or word limits
  // are rejected on their own, the rest of the file stored.
  absl::StatusOr<v1::IngestFileResponse> IngestContent(
      absl::string_view file_name, absl::string_view content,
      const CancelledFn& cancelled = nullptr);

  // The first half of IngestContent(): validates, parses and analyzes,
  // writing nothing. Thread-safe and lock-free, so files can be prepared in
  // parallel. A file with the content hash of the stored file of its name
  // is not analyzed (re-ingesting a directory skips unchanged files fast).
  // Same errors as IngestContent().
  absl::StatusOr<PreparedFile> Prepare(
      absl::string_view file_name, absl::string_view content,
      const CancelledFn& cancelled = nullptr) const;

  // The second half: stores all `files` in one atomic batch (bulk ingest
  // commits several files at once). One response per file, in order. Store
  // errors as from IndexWriter::CommitFiles().
  absl::StatusOr<std::vector<v1::IngestFileResponse>> Commit(
      std::vector<PreparedFile> files);

 private:
  index::IndexWriter* writer_;   // Not owned.
  const storage::Store* store_;  // Not owned.
  IngestOptions options_;
};

// An entry of an input directory that is not ingested, and why.
struct SkippedEntry {
  std::string path;
  std::string reason;  // "a directory (...)", "Permission denied", ...
  // True if its target could not be read (a symlink loop, a dangling
  // symlink, no permission): an error, where a subdirectory or a FIFO is
  // only not an input.
  bool unreadable = false;
};

// Expands `paths` into the files to ingest: a file stands for itself; a
// directory for the regular files directly inside it (symlinks followed)
// whose names do not start with '.', sorted by name. Its other entries but
// hidden ones go to `skipped` (if given), sorted by path. NOT_FOUND, with
// the reason, for a path that does not exist or cannot be reached;
// INVALID_ARGUMENT, naming both, for two different files with the same name
// (a file's name is its source's name in the store). Never throws.
absl::StatusOr<std::vector<std::string>> ListInputFiles(
    const std::vector<std::string>& paths,
    std::vector<SkippedEntry>* skipped = nullptr);

// Reads a whole file of at most `max_bytes` bytes, never holding more than
// max_bytes + 1 (so /dev/zero or a FIFO cannot exhaust memory).
// INVALID_ARGUMENT if it is larger; NOT_FOUND (no such file),
// FAILED_PRECONDITION (cannot open, with the reason) or INTERNAL (read
// error), each with the path. A FIFO or device is waited on until its
// writer closes it, checking `interrupted` (if given) every 100 ms:
// CANCELLED once it is set.
absl::StatusOr<std::string> ReadFile(
    const std::string& path, size_t max_bytes = SIZE_MAX - 1,
    const std::atomic<bool>* interrupted = nullptr);

}  // namespace paperdb::ingest

#endif  // PAPERDB_INGEST_SERVICE_INGESTER_H_
