#include "ingest_service/bulk_ingest.h"

#include <deque>
#include <filesystem>
#include <future>
#include <utility>

namespace paperdb::ingest {
namespace {

struct Prepared {
  std::string label;
  size_t bytes = 0;
  absl::StatusOr<PreparedFile> file;
};

void PrintRejected(const std::string& label, const absl::Status& status,
                   std::ostream& out) {
  out << label << ": rejected, nothing stored: " << status.message() << "\n";
}

}  // namespace

BulkIngestReport BulkIngest(Ingester& ingester,
                            const std::vector<std::string>& paths,
                            const BulkIngestOptions& options,
                            std::ostream& out) {
  BulkIngestReport report;
  std::deque<std::future<Prepared>> pending;
  size_t next = 0;
  std::vector<PreparedFile> batch;
  std::vector<std::string> batch_labels;
  size_t batch_bytes = 0;

  auto commit_batch = [&] {
    if (batch.empty()) return;
    absl::StatusOr<std::vector<FileSummary>> summaries =
        ingester.Commit(std::move(batch));
    for (size_t i = 0; i < batch_labels.size(); ++i) {
      if (!summaries.ok()) {
        ++report.rejected;
        PrintRejected(batch_labels[i], summaries.status(), out);
        continue;
      }
      const FileSummary& s = (*summaries)[i];
      out << batch_labels[i] << ": " << s.added << " added, " << s.unchanged
          << " unchanged, " << s.skipped << " skipped, 0 errors\n";
      ++report.stored;
      report.total.added += s.added;
      report.total.unchanged += s.unchanged;
      report.total.skipped += s.skipped;
    }
    batch.clear();
    batch_labels.clear();
    batch_bytes = 0;
  };

  while (true) {
    while (pending.size() < options.lookahead && next < paths.size()) {
      pending.push_back(
          std::async(std::launch::async, [&ingester, path = paths[next]] {
            Prepared prepared;
            prepared.label = std::filesystem::path(path).filename().string();
            absl::StatusOr<std::string> content = ReadFile(path);
            if (!content.ok()) {
              prepared.file = content.status();
              return prepared;
            }
            prepared.bytes = content->size();
            prepared.file = ingester.Prepare(prepared.label, *content);
            return prepared;
          }));
      ++next;
    }
    if (pending.empty()) break;
    Prepared prepared = pending.front().get();
    pending.pop_front();
    if (options.interrupted != nullptr && options.interrupted->load()) {
      report.interrupted = true;
      for (auto& rest : pending) rest.wait();
      return report;  // The uncommitted batch is dropped whole.
    }
    if (!prepared.file.ok()) {
      commit_batch();  // Keep the output in input order.
      ++report.rejected;
      PrintRejected(prepared.label, prepared.file.status(), out);
      continue;
    }
    batch.push_back(*std::move(prepared.file));
    batch_labels.push_back(prepared.label);
    batch_bytes += prepared.bytes;
    if (batch_bytes >= options.batch_bytes) commit_batch();
  }
  commit_batch();
  return report;
}

}  // namespace paperdb::ingest
