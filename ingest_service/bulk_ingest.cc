#include "ingest_service/bulk_ingest.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "paperdb/text/utf8.h"

namespace paperdb::ingest {
namespace {

struct Prepared {
  std::string label;
  size_t bytes = 0;
  absl::StatusOr<PreparedFile> file;
};

// `label` with control characters escaped, so that a file name cannot
// move the terminal's cursor or forge output lines.
std::string Printable(const std::string& label) {
  if (text::FindInvalidUtf8(label)) return absl::CHexEscape(label);
  std::string out;
  for (char c : label) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      out += absl::CHexEscape(absl::string_view(&c, 1));
    } else {
      out.push_back(c);
    }
  }
  return out;
}

void PrintRejected(const std::string& label, const absl::Status& status,
                   std::ostream& out) {
  out << Printable(label) << ": rejected, nothing stored: " << status.message()
      << "\n";
}

// Prepares files on a fixed set of worker threads (so each keeps its warm
// analyzer and stem cache), at most `lookahead` files ahead of the consumer.
class PreparePool {
 public:
  PreparePool(const Ingester& ingester, const std::vector<std::string>& paths,
              size_t lookahead, const std::atomic<bool>* interrupted)
      : ingester_(ingester),
        paths_(paths),
        interrupted_(interrupted),
        slots_(paths.size()),
        lookahead_(std::max<size_t>(lookahead, 1)) {
    const size_t threads = std::max<size_t>(
        1, std::min<size_t>(std::thread::hardware_concurrency(), lookahead_));
    for (size_t i = 0; i < threads; ++i)
      workers_.emplace_back([this] { Work(); });
  }

  ~PreparePool() {
    {
      absl::MutexLock lock(&mu_);
      stopping_ = true;
    }
    for (std::thread& worker : workers_) worker.join();
  }

  // The prepared file `index`, blocking until it is ready.
  // REQUIRES: called with index 0, 1, 2, ... in order.
  Prepared Take(size_t index) {
    absl::MutexLock lock(&mu_);
    mu_.Await(absl::Condition(
        +[](std::optional<Prepared>* slot) { return slot->has_value(); },
        &slots_[index]));
    Prepared prepared = *std::move(slots_[index]);
    slots_[index].reset();
    consumed_ = index + 1;
    return prepared;
  }

 private:
  void Work() {
    while (true) {
      size_t index;
      {
        absl::MutexLock lock(&mu_);
        auto can_start = [this] {
          return stopping_ || next_ >= paths_.size() ||
                 next_ < consumed_ + lookahead_;
        };
        mu_.Await(absl::Condition(&can_start));
        if (stopping_ || next_ >= paths_.size()) return;
        index = next_++;
      }
      Prepared prepared = PrepareOne(paths_[index]);
      absl::MutexLock lock(&mu_);
      slots_[index] = std::move(prepared);
    }
  }

  Prepared PrepareOne(const std::string& path) const {
    Prepared prepared;
    prepared.label = std::filesystem::path(path).filename().string();
    absl::StatusOr<std::string> content =
        ReadFile(path, ingester_.options().max_file_bytes, interrupted_);
    if (!content.ok()) {
      prepared.file = content.status();
      return prepared;
    }
    prepared.bytes = content->size();
    prepared.file = ingester_.Prepare(prepared.label, *content);
    return prepared;
  }

  const Ingester& ingester_;
  const std::vector<std::string>& paths_;
  const std::atomic<bool>* interrupted_;  // May be null; not owned.
  absl::Mutex mu_;
  std::vector<std::optional<Prepared>> slots_ ABSL_GUARDED_BY(mu_);
  const size_t lookahead_;
  size_t next_ ABSL_GUARDED_BY(mu_) = 0;      // Next file to start.
  size_t consumed_ ABSL_GUARDED_BY(mu_) = 0;  // Files taken so far.
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> workers_;
};

// Rejected paragraphs listed per file; the rest are counted.
constexpr int kMaxRejectedLines = 10;

void PrintStored(const std::string& label, const v1::IngestFileResponse& file,
                 std::ostream& out) {
  out << Printable(label) << ": " << file.added() << " added, "
      << file.updated() << " updated, " << file.unchanged() << " unchanged, "
      << file.removed() << " removed, " << file.skipped() << " skipped, "
      << file.rejected() << " rejected\n";
  int listed = 0;
  for (const v1::ParagraphOutcome& p : file.paragraphs()) {
    if (p.outcome() != v1::ParagraphOutcome::OUTCOME_REJECTED) continue;
    if (++listed > kMaxRejectedLines) break;
    out << "  " << Printable(label) << ": line " << p.line_number() << ", byte "
        << p.byte_offset() << ": rejected: " << p.reason() << "\n";
  }
  if (file.rejected() > kMaxRejectedLines) {
    out << "  " << Printable(label) << ": and "
        << file.rejected() - kMaxRejectedLines << " more rejected paragraphs\n";
  }
}

// The status line of a bulk ingest on a terminal.
class ProgressLine {
 public:
  ProgressLine(std::ostream* out, size_t files)
      : out_(out), files_(files), start_(absl::Now()) {}

  // Erases the line, so that the caller can print a line of its own.
  void Clear() {
    if (out_ != nullptr && drawn_) *out_ << "\r\033[K" << std::flush;
    drawn_ = false;
  }

  void Draw(size_t files_done, int64_t papers, size_t bytes) {
    if (out_ == nullptr) return;
    const double seconds = absl::ToDoubleSeconds(absl::Now() - start_);
    const double mib = static_cast<double>(bytes) / (1 << 20);
    *out_ << "\r\033[K"
          << absl::StrFormat(
                 "[%zu/%zu files] %d papers added, %.1f MiB, "
                 "%.1f MiB/s",
                 files_done, files_, papers, mib,
                 seconds > 0 ? mib / seconds : 0.0)
          << std::flush;
    drawn_ = true;
  }

 private:
  std::ostream* out_;
  const size_t files_;
  const absl::Time start_;
  bool drawn_ = false;
};

}  // namespace

void IngestTotals::Add(const v1::IngestFileResponse& file) {
  added += file.added();
  updated += file.updated();
  unchanged += file.unchanged();
  removed += file.removed();
  skipped += file.skipped();
  rejected += file.rejected();
}

BulkIngestReport BulkIngest(Ingester& ingester,
                            const std::vector<std::string>& paths,
                            const BulkIngestOptions& options,
                            std::ostream& out) {
  BulkIngestReport report;
  std::vector<PreparedFile> batch;
  std::vector<std::string> batch_labels;
  size_t batch_bytes = 0;

  ProgressLine progress(options.progress, paths.size());
  size_t files_done = 0;
  size_t bytes_done = 0;
  auto commit_batch = [&] {
    if (batch.empty()) return;
    progress.Clear();
    absl::StatusOr<std::vector<v1::IngestFileResponse>> responses =
        ingester.Commit(std::move(batch));
    for (size_t i = 0; i < batch_labels.size(); ++i) {
      if (!responses.ok()) {
        ++report.rejected;
        PrintRejected(batch_labels[i], responses.status(), out);
        continue;
      }
      PrintStored(batch_labels[i], (*responses)[i], out);
      ++report.stored;
      report.total.Add((*responses)[i]);
    }
    files_done += batch_labels.size();
    bytes_done += batch_bytes;
    progress.Draw(files_done, report.total.added + report.total.updated,
                  bytes_done);
    batch.clear();
    batch_labels.clear();
    batch_bytes = 0;
  };

  PreparePool pool(ingester, paths, options.lookahead, options.interrupted);
  for (size_t i = 0; i < paths.size(); ++i) {
    Prepared prepared = pool.Take(i);
    if (options.interrupted != nullptr && options.interrupted->load()) {
      report.interrupted = true;
      return report;  // The uncommitted batch is dropped whole.
    }
    if (!prepared.file.ok()) {
      commit_batch();  // Keep the output in input order.
      progress.Clear();
      ++files_done;
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
  progress.Clear();
  return report;
}

}  // namespace paperdb::ingest
