// Ingester: parses paper-list files and commits each one atomically through
// the IndexWriter. Used by the one-shot CLI and by the gRPC IngestService.
//
// Thread safety: IngestContent() may be called concurrently (commits are
// serialized by the IndexWriter). Holds a writer it does not own.

#ifndef PAPERDB_INGEST_SERVICE_INGESTER_H_
#define PAPERDB_INGEST_SERVICE_INGESTER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/index/index_writer.h"

namespace paperdb::ingest {

// Outcome counts for one file.
struct FileSummary {
  int added = 0;      // New papers.
  int unchanged = 0;  // Papers already stored.
  int skipped = 0;    // Paragraphs repeated within the file, or with no word.
};

// Limits on what one file may hold.
struct IngestOptions {
  // Longest abstract accepted, in bytes. Real abstracts are a few KiB; the
  // limit keeps one paragraph from filling a search response (64 MiB).
  size_t max_abstract_bytes = 256 << 10;
};

// Longest file name (a label) accepted, in bytes.
inline constexpr size_t kMaxFileNameBytes = 1024;

// OK if `file_name` can label a source: 1 to kMaxFileNameBytes bytes of valid
// UTF-8 without control characters. INVALID_ARGUMENT otherwise, with the
// name C-escaped in the message. The name is never opened as a path.
absl::Status ValidateFileName(absl::string_view file_name);

// A file parsed and analyzed, ready to commit.
struct PreparedFile {
  std::string file_name;
  std::vector<index::AnalyzedPaper> papers;
  int wordless = 0;  // Paragraphs without a word, skipped.
};

class Ingester {
 public:
  // `writer` must outlive the ingester.
  explicit Ingester(index::IndexWriter* writer, IngestOptions options = {})
      : writer_(writer), options_(options) {}

  // Parses `content` (the bytes of a file labelled `file_name`) and stores
  // its papers in one atomic batch. INVALID_ARGUMENT for a bad file name,
  // or (naming file, line and byte) for a malformed file or an abstract
  // over the size limit, in which case nothing is written; store errors as
  // from IndexWriter::Commit(). Paragraphs without a word are skipped.
  absl::StatusOr<FileSummary> IngestContent(absl::string_view file_name,
                                            absl::string_view content);

  // The first half of IngestContent(): validates, parses and analyzes,
  // writing nothing. Thread-safe and lock-free, so files can be prepared in
  // parallel. Same errors as IngestContent().
  absl::StatusOr<PreparedFile> Prepare(absl::string_view file_name,
                                       absl::string_view content) const;

  // The second half: stores the papers of all `files` in one atomic batch
  // (bulk ingest commits several files at once). One summary per file, in
  // order. Store errors as from IndexWriter::Commit().
  absl::StatusOr<std::vector<FileSummary>> Commit(
      std::vector<PreparedFile> files);

 private:
  index::IndexWriter* writer_;  // Not owned.
  IngestOptions options_;
};

// Expands `paths` into the regular files to ingest: a file stands for
// itself; a directory for the regular files directly inside it whose names
// do not start with '.', sorted by name. NOT_FOUND for a path that does not
// exist.
absl::StatusOr<std::vector<std::string>> ListInputFiles(
    const std::vector<std::string>& paths);

// Reads a whole file. NOT_FOUND or INTERNAL (with the path) on failure.
absl::StatusOr<std::string> ReadFile(const std::string& path);

}  // namespace paperdb::ingest

#endif  // PAPERDB_INGEST_SERVICE_INGESTER_H_
