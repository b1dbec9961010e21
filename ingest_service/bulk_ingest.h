// Bulk (one-shot) ingest of many files: files are read, parsed and analyzed
// ahead on worker threads, then committed in input order, several whole
// files per atomic batch, which is what makes a large ingest fast.

#ifndef PAPERDB_INGEST_SERVICE_BULK_INGEST_H_
#define PAPERDB_INGEST_SERVICE_BULK_INGEST_H_

#include <atomic>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "ingest_service/ingester.h"

namespace paperdb::ingest {

struct BulkIngestOptions {
  size_t batch_bytes = 16 << 20;  // Input bytes per commit (whole files).
  size_t lookahead = 16;          // Files prepared ahead, in parallel.
  // Checked between files; once true, nothing more is committed.
  const std::atomic<bool>* interrupted = nullptr;
  // If set (a terminal), a status line redrawn in place as batches commit:
  // files done, papers added, MiB read and MiB/s.
  std::ostream* progress = nullptr;
};

// Paragraph outcomes summed over files.
struct IngestTotals {
  int64_t added = 0;
  int64_t updated = 0;
  int64_t unchanged = 0;
  int64_t removed = 0;
  int64_t skipped = 0;
  int64_t rejected = 0;  // Paragraphs rejected on their own.
  void Add(const v1::IngestFileResponse& file);
};

struct BulkIngestReport {
  IngestTotals total;        // Summed over the files stored.
  int stored = 0;            // Files stored.
  int rejected = 0;          // Files rejected (bad input or a failed commit).
  bool interrupted = false;  // Stopped early by options.interrupted.
};

// Ingests `paths` (regular files) in order through `ingester`, writing one
// line per file to `out` once its outcome is known:
//   "<name>: N added, N updated, N unchanged, N removed, N skipped,
//    N rejected" and a line per rejected paragraph (at most 10 per file):
//   "  <name>: line L, byte B: rejected: <reason>"
//   "<name>: rejected, nothing stored: <reason>"
// A rejected file never affects the others. Files are labelled by their
// base name.
BulkIngestReport BulkIngest(Ingester& ingester,
                            const std::vector<std::string>& paths,
                            const BulkIngestOptions& options,
                            std::ostream& out);

}  // namespace paperdb::ingest

#endif  // PAPERDB_INGEST_SERVICE_BULK_INGEST_H_
