// ingest_service: parses paper-list files into a paperdb store.
//
//   ingest_service --db=DIR FILE_OR_DIR...          one-shot ingest
//   ingest_service serve --db=DIR --listen=ADDR     gRPC IngestService
//   ingest_service verify --db=DIR                  consistency check
//   ingest_service checkpoint --db=DIR --out=DIR    publish a checkpoint

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "ingest_service/bulk_ingest.h"
#include "ingest_service/checkpoint_publisher.h"
#include "ingest_service/ingest_metrics.h"
#include "ingest_service/ingest_service_impl.h"
#include "ingest_service/ingester.h"
#include "paperdb/common/logging.h"
#include "paperdb/index/verifier.h"
#include "paperdb/rpc/auth.h"
#include "paperdb/rpc/security_flags.h"
#include "paperdb/rpc/server_runner.h"
#include "paperdb/rpc/service_main.h"
#include "paperdb/storage/checkpoint.h"
#include "paperdb/storage/store.h"

ABSL_FLAG(std::string, db, "",
          "RocksDB store directory (created if missing); required");
ABSL_FLAG(size_t, max_file_mib, 32,
          "largest file accepted, in MiB; a larger file is rejected whole. "
          "Each running ingest holds its file, its analysis and its write "
          "batch in memory: about 23x the file at peak");
ABSL_FLAG(
    size_t, max_paragraphs, 100000,
    "most paragraphs a file may hold; a file with more is rejected whole");
ABSL_FLAG(size_t, max_abstract_bytes, 256 << 10,
          "longest abstract accepted, in bytes; a longer paragraph is rejected "
          "on its own and the rest of the file stored");
ABSL_FLAG(size_t, max_word_bytes, 2048,
          "longest word (run of non-space characters; each Han or Kana "
          "character is one) accepted, in bytes; a "
          "paragraph with a longer one is rejected on its own");
ABSL_FLAG(int, max_concurrent_ingests, 2,
          "serve mode: IngestFile calls running at once; more get "
          "RESOURCE_EXHAUSTED. Bounds memory with --max_file_mib");
ABSL_FLAG(int, max_ingest_seconds, 600,
          "serve mode: longest an IngestFile call may take (from its first "
          "message to its commit) when the client sets no earlier deadline");
ABSL_FLAG(int, max_upload_idle_seconds, 60,
          "serve mode: longest an IngestFile upload may send no file bytes "
          "before the call is ended (DEADLINE_EXCEEDED, nothing stored)");
ABSL_FLAG(int, keepalive_seconds, 60,
          "serve mode: ping idle client connections this often");
ABSL_FLAG(
    int, keepalive_timeout_seconds, 20,
    "serve mode: drop a client that does not answer a ping within this time");
ABSL_FLAG(int, max_connection_age_seconds, 0,
          "serve mode: close client connections older than this (gracefully), "
          "so that "
          "clients reconnect and spread over new replicas; 0: never");
ABSL_FLAG(std::string, metrics_listen, "",
          "serve mode: host:port for Prometheus metrics over HTTP (/metrics); "
          "empty: none");
ABSL_FLAG(int, drain_seconds, 30,
          "serve mode: on SIGTERM, time given to in-flight calls; an ingest "
          "cut off then may still have been committed (retrying is safe)");
ABSL_FLAG(int, max_message_mib, 16,
          "serve mode: largest gRPC message accepted, in MiB (stream files in "
          "smaller chunks)");
ABSL_FLAG(size_t, batch_mib, 16,
          "one-shot mode: input MiB committed per atomic batch (whole files)");
ABSL_FLAG(std::string, listen, "127.0.0.1:50052",
          "serve mode: host:port to listen on");
ABSL_FLAG(std::string, checkpoint_dir, "",
          "serve mode: publish checkpoints of the store into this directory "
          "(for query_service --follow_checkpoints); empty: none");
ABSL_FLAG(int, checkpoint_interval_seconds, 60,
          "serve mode: publish a checkpoint this often, if the store changed");
ABSL_FLAG(int, checkpoint_keep, 3,
          "checkpoints kept in the publish directory; older ones are removed");
ABSL_FLAG(std::string, out, "",
          "checkpoint mode: the publish directory (created if missing)");

namespace {

// The usage message: the command forms, for --help and usage errors.
constexpr char kUsage[] =
    "ingest_service --db=DIR FILE_OR_DIR...   (one-shot)\n"
    "  ingest_service serve --db=DIR [--listen=HOST:PORT]   (gRPC "
    "IngestService)\n"
    "  ingest_service verify --db=DIR   (check the store's consistency)\n"
    "  ingest_service checkpoint --db=DIR --out=DIR   (publish a "
    "checkpoint)\n"
    "  ingest_service probe [--listen=HOST:PORT]   (health check of a "
    "running ingest_service serve: exit 0 if SERVING)";

// One-shot mode stops between batches on SIGINT/SIGTERM: files are stored
// whole or not at all, so stopping there loses nothing.
std::atomic<bool> interrupted{false};
std::atomic<int> interrupt_signal{0};
void OnInterrupt(int signal) {
  interrupt_signal = signal;
  if (!interrupted.exchange(true)) {
    // write(2) is async-signal-safe; iostreams are not.
    constexpr char kStopping[] =
        "ingest_service: stopping after the batch being written\n";
    (void)!write(STDERR_FILENO, kStopping, sizeof(kStopping) - 1);
  }
}

// One-shot mode: ingests every file, prints a line per file and a total.
// Returns the process exit status: 0, 1 if any file was rejected, 128 plus
// the signal number if interrupted.
int IngestFiles(paperdb::ingest::Ingester& ingester,
                const std::vector<std::string>& files) {
  std::cout << std::unitbuf;  // A line per file, even when piped or killed.
  paperdb::ingest::BulkIngestOptions options;
  options.batch_bytes = absl::GetFlag(FLAGS_batch_mib) << 20;
  options.interrupted = &interrupted;
  // A live status line on a terminal; plain lines only when redirected.
  if (isatty(STDERR_FILENO)) options.progress = &std::cerr;
  const paperdb::ingest::BulkIngestReport report =
      paperdb::ingest::BulkIngest(ingester, files, options, std::cout);
  if (report.interrupted) {
    std::cout << "interrupted: stopped after "
              << report.stored + report.rejected << " of " << files.size()
              << " files; every file listed above is stored whole\n";
    return 128 + interrupt_signal.load();
  }
  const paperdb::ingest::IngestTotals& t = report.total;
  std::cout << "total: " << files.size()
            << (files.size() == 1 ? " file, " : " files, ") << t.added
            << " added, " << t.updated << " updated, " << t.unchanged
            << " unchanged, " << t.removed << " removed, " << t.skipped
            << " skipped, " << t.rejected
            << (t.rejected == 1 ? " paragraph rejected, "
                                : " paragraphs rejected, ")
            << report.rejected
            << (report.rejected == 1 ? " file rejected\n"
                                     : " files rejected\n");
  return report.rejected == 0 ? 0 : 1;
}

// `verify`: reads the whole store as a secondary instance (so it may run
// while a writer works) and prints what is inconsistent. Exit status 0 if
// the store is consistent, 1 if not or if it cannot be read.
int Verify(const std::string& db) {
  if (db.empty()) {
    std::cerr << absl::ProgramUsageMessage() << "\n";
    return 2;
  }
  const std::string secondary = (std::filesystem::temp_directory_path() /
                                 absl::StrCat("paperdb-verify-", getpid()))
                                    .string();
  int status = 1;
  {
    auto store = paperdb::storage::Store::OpenSecondary(db, secondary);
    absl::StatusOr<paperdb::index::VerifyReport> report =
        store.ok() ? paperdb::index::VerifyStore(**store) : store.status();
    if (!report.ok()) {
      std::cerr << "ingest_service verify: " << report.status().message()
                << "\n";
    } else {
      for (const std::string& problem : report->problems) {
        std::cout << "problem: " << problem << "\n";
      }
      // "1 file, 1 paper, ...": each count with its noun in the number.
      auto counted = [](uint64_t n, absl::string_view noun) {
        return absl::StrCat(n, " ", noun, n == 1 ? "" : "s");
      };
      std::cout << db << ": "
                << absl::StrJoin({counted(report->sources, "file"),
                                  counted(report->papers, "paper"),
                                  counted(report->terms, "term"),
                                  counted(report->postings, "posting"),
                                  counted(report->problem_count, "problem")},
                                 ", ")
                << "\n";
      status = report->problem_count == 0 ? 0 : 1;
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(secondary, ignored);
  return status;
}

// `checkpoint`: publishes a checkpoint of the store into `out` and prunes
// older ones. The store is opened as primary; while a writer holds it, as a
// secondary instance if RocksDB can checkpoint one. Exit status 0 on
// success, 1 on failure.
int Checkpoint(const std::string& db, const std::string& out) {
  if (db.empty() || out.empty() || absl::GetFlag(FLAGS_checkpoint_keep) < 1) {
    std::cerr << "ingest_service checkpoint: needs --db, --out and "
                 "--checkpoint_keep >= 1\n";
    return 2;
  }
  if (!std::filesystem::exists(std::filesystem::path(db) / "CURRENT")) {
    std::cerr << "ingest_service checkpoint: no paperdb store at " << db
              << "\n";
    return 1;
  }
  const std::string secondary = (std::filesystem::temp_directory_path() /
                                 absl::StrCat("paperdb-checkpoint-", getpid()))
                                    .string();
  int status = 1;
  {
    auto store = paperdb::storage::Store::OpenPrimary(db);
    if (absl::IsUnavailable(store.status())) {
      store = paperdb::storage::Store::OpenSecondary(db, secondary);
    }
    absl::StatusOr<paperdb::storage::CheckpointInfo> published =
        store.ok() ? paperdb::storage::PublishCheckpoint(**store, out)
                   : store.status();
    if (published.ok()) {
      const absl::Status pruned = paperdb::storage::PruneCheckpoints(
          out, static_cast<size_t>(absl::GetFlag(FLAGS_checkpoint_keep)));
      if (!pruned.ok()) {
        std::cerr << "ingest_service checkpoint: " << pruned.message() << "\n";
      }
      std::cout << published->path << ": sequence " << published->sequence
                << ", " << published->papers << " papers\n";
      status = pruned.ok() ? 0 : 1;
    } else {
      std::cerr << "ingest_service checkpoint: " << published.status().message()
                << "\n";
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(secondary, ignored);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const paperdb::rpc::ServiceMainStart start = paperdb::rpc::StartServiceMain(
      argc, argv,
      {"ingest_service", kUsage, "paperdb.v1.IngestService", &FLAGS_listen});
  if (start.exit_status.has_value()) return *start.exit_status;
  const std::vector<char*>& positional = start.positional;
  if (positional.size() == 2 && std::string(positional[1]) == "verify") {
    return Verify(absl::GetFlag(FLAGS_db));
  }
  if (positional.size() == 2 && std::string(positional[1]) == "checkpoint") {
    return Checkpoint(absl::GetFlag(FLAGS_db), absl::GetFlag(FLAGS_out));
  }
  const bool serve =
      positional.size() > 1 && std::string(positional[1]) == "serve";
  sigset_t signals;
  if (serve) {
    signals = paperdb::rpc::BlockTerminationSignals();
  } else {
    std::signal(SIGINT, OnInterrupt);
    std::signal(SIGTERM, OnInterrupt);
  }
  const std::vector<std::string> paths(positional.begin() + (serve ? 2 : 1),
                                       positional.end());
  if (absl::GetFlag(FLAGS_db).empty() || (!serve && paths.empty())) {
    std::cerr << "ingest_service: "
              << (absl::GetFlag(FLAGS_db).empty()
                      ? "--db is required"
                      : "no files or directories to ingest")
              << "\nusage: " << absl::ProgramUsageMessage() << "\n";
    return 2;
  }
  if (absl::GetFlag(FLAGS_batch_mib) < 1 ||
      absl::GetFlag(FLAGS_max_abstract_bytes) < 1 ||
      absl::GetFlag(FLAGS_max_abstract_bytes) >
          paperdb::ingest::kMaxAbstractBytesLimit ||
      absl::GetFlag(FLAGS_max_file_mib) < 1 ||
      absl::GetFlag(FLAGS_max_file_mib) > 4095 ||
      absl::GetFlag(FLAGS_max_paragraphs) < 1 ||
      absl::GetFlag(FLAGS_max_word_bytes) < 1 ||
      absl::GetFlag(FLAGS_max_concurrent_ingests) < 1 ||
      absl::GetFlag(FLAGS_max_ingest_seconds) < 1 ||
      absl::GetFlag(FLAGS_max_upload_idle_seconds) < 1 ||
      absl::GetFlag(FLAGS_max_message_mib) < 1 ||
      absl::GetFlag(FLAGS_max_message_mib) > 1024 ||
      absl::GetFlag(FLAGS_checkpoint_interval_seconds) < 1 ||
      absl::GetFlag(FLAGS_checkpoint_keep) < 1) {
    std::cerr << "ingest_service: --batch_mib, --max_file_mib (< 4096), "
                 "--max_paragraphs, --max_abstract_bytes (<= 1048576, what "
                 "one search result can carry), --max_word_bytes, "
                 "--max_concurrent_ingests, --max_ingest_seconds, "
                 "--max_upload_idle_seconds, "
                 "--max_message_mib (<= 1024), "
                 "--checkpoint_interval_seconds and --checkpoint_keep must "
                 "be >= 1\n";
    return 2;
  }
  // One-shot mode: the inputs are listed before the store is opened, so a
  // missing path leaves no new, empty store behind.
  absl::StatusOr<std::vector<std::string>> files;
  // A directory entry that cannot be read fails the run once the other
  // files are ingested; a subdirectory or a FIFO is only named.
  bool unreadable_entry = false;
  if (!serve) {
    std::vector<paperdb::ingest::SkippedEntry> skipped;
    files = paperdb::ingest::ListInputFiles(paths, &skipped);
    if (!files.ok()) {
      std::cerr << "ingest_service: " << files.status().message() << "\n";
      return 1;
    }
    for (const paperdb::ingest::SkippedEntry& entry : skipped) {
      std::cerr << "ingest_service: " << entry.path
                << ": skipped: " << entry.reason << "\n";
      unreadable_entry |= entry.unreadable;
    }
  }
  // The server's tokens and certificates are read before the store is
  // opened: a usage error leaves no new store behind.
  absl::StatusOr<paperdb::rpc::SecurityConfig> security =
      serve ? paperdb::rpc::SecurityConfigFromFlags()
            : paperdb::rpc::SecurityConfig();
  if (!security.ok()) {
    std::cerr << "ingest_service: " << security.status().message() << "\n";
    return 2;
  }
  auto store = paperdb::storage::Store::OpenPrimary(absl::GetFlag(FLAGS_db));
  if (!store.ok()) {
    std::cerr << "ingest_service: " << store.status().message() << "\n";
    return 1;
  }
  auto writer = paperdb::index::IndexWriter::Create(store->get());
  if (!writer.ok()) {
    std::cerr << "ingest_service: " << writer.status().message() << "\n";
    return 1;
  }
  paperdb::ingest::IngestOptions ingest_options;
  ingest_options.max_file_bytes = absl::GetFlag(FLAGS_max_file_mib) << 20;
  ingest_options.max_paragraphs = absl::GetFlag(FLAGS_max_paragraphs);
  ingest_options.max_abstract_bytes = absl::GetFlag(FLAGS_max_abstract_bytes);
  ingest_options.max_word_bytes = absl::GetFlag(FLAGS_max_word_bytes);
  paperdb::ingest::Ingester ingester(writer->get(), store->get(),
                                     ingest_options);
  if (!serve) {
    // A bulk load (Store::BeginBulkLoad) when the files hold at least as
    // many bytes as the store: its one compaction at the end then costs
    // about what the ingest adds, not a rewrite of a much larger store.
    uint64_t input_bytes = 0;
    for (const std::string& file : *files) {
      std::error_code error;
      const uintmax_t size = std::filesystem::file_size(file, error);
      if (!error) input_bytes += size;
    }
    const bool bulk_load =
        input_bytes >= (*store)->DataBytes() &&
        (*store)->BeginBulkLoad().ok();  // Else an ordinary ingest.
    const int status = IngestFiles(ingester, *files);
    constexpr char kCompactionLeft[] =
        "bulk load: the store's next writer compacts its postings\n";
    // Not after an interrupt: the next writer compacts, and a stop should
    // be quick.
    if (bulk_load && status >= 128) std::cout << kCompactionLeft;
    if (bulk_load && status < 128) {
      const absl::Time compaction_start = absl::Now();
      const absl::Status ended = (*store)->EndBulkLoad(&interrupted);
      if (absl::IsCancelled(ended)) {
        std::cout << "interrupted: every file listed above is stored\n"
                  << kCompactionLeft;
        return 128 + interrupt_signal.load();
      }
      if (!ended.ok()) {
        std::cerr << "ingest_service: " << ended.message() << "\n";
        return 1;
      }
      // Says that this run was a bulk load, and what its one compaction
      // cost.
      std::cout << absl::StrFormat(
          "bulk load: postings compacted in %.1f s\n",
          absl::ToDoubleSeconds(absl::Now() - compaction_start));
    }
    if (const absl::Status flushed = (*store)->Flush(); !flushed.ok()) {
      std::cerr << "ingest_service: " << flushed.message() << "\n";
      return 1;
    }
    return status == 0 && unreadable_entry ? 1 : status;
  }

  const paperdb::rpc::Authenticator authenticator(security->auth);
  paperdb::rpc::ServerMetrics metrics("ingest_service");
  paperdb::ingest::IngestMetrics ingest_metrics(&metrics, writer->get(),
                                                store->get());
  paperdb::rpc::MetricsServer metrics_server;
  if (!absl::GetFlag(FLAGS_metrics_listen).empty()) {
    auto started = paperdb::rpc::StartMetricsServer(
        absl::GetFlag(FLAGS_metrics_listen), &metrics);
    if (!started.ok()) {
      std::cerr << "ingest_service: " << started.status().message() << "\n";
      return 1;
    }
    metrics_server = std::move(*started);
    paperdb::LogInfo(absl::StrCat("metrics on port ", metrics_server.port));
  }
  paperdb::ingest::IngestServiceOptions service_options;
  service_options.authenticator = &authenticator;
  service_options.metrics = &ingest_metrics;
  service_options.max_concurrent_ingests =
      absl::GetFlag(FLAGS_max_concurrent_ingests);
  service_options.max_ingest_time =
      absl::Seconds(absl::GetFlag(FLAGS_max_ingest_seconds));
  service_options.max_upload_idle_time =
      absl::Seconds(absl::GetFlag(FLAGS_max_upload_idle_seconds));
  paperdb::ingest::IngestServiceImpl service(&ingester, writer->get(),
                                             store->get(), service_options);
  paperdb::rpc::HealthService health;
  paperdb::rpc::ServerOptions options;
  options.listen = absl::GetFlag(FLAGS_listen);
  options.max_message_bytes = absl::GetFlag(FLAGS_max_message_mib) << 20;
  options.tls = security->tls;
  options.keepalive_time =
      absl::Seconds(absl::GetFlag(FLAGS_keepalive_seconds));
  options.keepalive_timeout =
      absl::Seconds(absl::GetFlag(FLAGS_keepalive_timeout_seconds));
  options.max_connection_age =
      absl::Seconds(absl::GetFlag(FLAGS_max_connection_age_seconds));
  options.metrics = &metrics;
  auto server = paperdb::rpc::StartServer(options, {&service}, &health);
  if (!server.ok()) {
    std::cerr << "ingest_service: " << server.status().message() << "\n";
    return 1;
  }
  health.SetServing("", true);
  health.SetServing("paperdb.v1.IngestService", true);
  std::unique_ptr<paperdb::ingest::CheckpointPublisher> publisher;
  if (!absl::GetFlag(FLAGS_checkpoint_dir).empty()) {
    publisher = std::make_unique<paperdb::ingest::CheckpointPublisher>(
        store->get(), absl::GetFlag(FLAGS_checkpoint_dir),
        static_cast<size_t>(absl::GetFlag(FLAGS_checkpoint_keep)));
    publisher->Start(
        absl::Seconds(absl::GetFlag(FLAGS_checkpoint_interval_seconds)),
        [](const absl::StatusOr<
            std::optional<paperdb::storage::CheckpointInfo>>& result) {
          if (!result.ok()) {
            paperdb::LogError(
                absl::StrCat("checkpoint: ", result.status().message()));
          } else if (result->has_value()) {
            paperdb::LogInfo(
                absl::StrCat("checkpoint published: ", (*result)->path, ", ",
                             (*result)->papers, " papers"));
          }
        });
  }
  paperdb::LogInfo(absl::StrCat(
      "ingest_service listening on port ", server->port, " of ",
      paperdb::rpc::HostOf(absl::GetFlag(FLAGS_listen)),
      security->tls.cert_file.empty() ? " (plaintext" : " (TLS",
      authenticator.enabled() ? ", authentication required)"
                              : ", no authentication: any client may write)"));
  paperdb::rpc::WaitForTerminationAndDrain(
      signals, server->server.get(), &health, absl::ZeroDuration(),
      absl::Seconds(absl::GetFlag(FLAGS_drain_seconds)));
  return 0;
}
