// query_service: answers paperdb.v1.QueryService calls over a paperdb store,
// following the writer (ingest_service) as a RocksDB secondary instance, or
// serving the newest of the checkpoints the writer publishes.
//
//   query_service --db=DIR [--listen=HOST:PORT]
//   query_service --follow_checkpoints=DIR [--listen=HOST:PORT]

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "paperdb/common/logging.h"
#include "paperdb/index/posting_cache.h"
#include "paperdb/rpc/auth.h"
#include "paperdb/rpc/metrics.h"
#include "paperdb/rpc/security_flags.h"
#include "paperdb/rpc/server_runner.h"
#include "paperdb/rpc/service_main.h"
#include "query_service/checkpoint_follower.h"
#include "query_service/engine_slot.h"
#include "query_service/query_engine.h"
#include "query_service/query_service_impl.h"

ABSL_FLAG(std::string, db, "",
          "paperdb store directory written by ingest_service, followed as a "
          "secondary instance; this or --follow_checkpoints is required");
ABSL_FLAG(std::string, follow_checkpoints, "",
          "directory of checkpoints published by ingest_service (on local "
          "disk): serve the newest complete one and switch to newer ones");
ABSL_FLAG(int, checkpoint_poll_ms, 1000,
          "with --follow_checkpoints: how often to look for a newer "
          "checkpoint, in milliseconds");
ABSL_FLAG(std::string, listen, "127.0.0.1:50051", "host:port to listen on");
ABSL_FLAG(
    std::string, secondary_dir, "",
    "directory for the RocksDB secondary instances' own files; default: a "
    "fresh directory under $TMPDIR, removed at exit");
ABSL_FLAG(int, catch_up_interval_ms, 500,
          "how often to catch up with the writer, in milliseconds");
ABSL_FLAG(int, max_threads, 256, "maximum gRPC server threads");
ABSL_FLAG(int, max_search_ms, 10000,
          "longest a search may run when the client sets no earlier "
          "deadline; then it fails with DEADLINE_EXCEEDED");
ABSL_FLAG(int, posting_cache_mib, 512,
          "memory for posting lists kept between searches (LRU), in MiB; "
          "0: read every list from the store each time");
ABSL_FLAG(int, keepalive_seconds, 60,
          "ping idle client connections this often");
ABSL_FLAG(int, keepalive_timeout_seconds, 20,
          "drop a client that does not answer a ping within this time");
ABSL_FLAG(int, max_connection_age_seconds, 0,
          "close client connections older than this (gracefully), so that "
          "clients reconnect and spread over new replicas; 0: never");
ABSL_FLAG(std::string, metrics_listen, "",
          "host:port for Prometheus metrics over HTTP (/metrics); empty: "
          "none");
ABSL_FLAG(int, max_concurrent_streams, 100,
          "calls in flight per client connection");
ABSL_FLAG(int, drain_seconds, 10, "on SIGTERM, time given to in-flight calls");
ABSL_FLAG(int, shutdown_notice_seconds, 0,
          "on SIGTERM, seconds to keep serving while health reports "
          "NOT_SERVING, before draining (e.g. 5 behind a load balancer)");

namespace {

// The usage message: the command forms, for --help and usage errors.
constexpr char kUsage[] =
    "query_service --db=DIR [--listen=HOST:PORT]\n"
    "  query_service --follow_checkpoints=DIR [--listen=HOST:PORT]\n"
    "  query_service probe [--listen=HOST:PORT]   (health check of a "
    "running query_service: exit 0 if SERVING)";

// Opens the store (or, following checkpoints, starts without one), serves
// until SIGINT/SIGTERM, drains, runs `stopped` and exits 0 at once; returns
// the exit status of a failure to start.
int Serve(const std::string& secondary, const sigset_t& signals,
          const std::function<void()>& stopped) {
  const std::string follow_dir = absl::GetFlag(FLAGS_follow_checkpoints);
  absl::StatusOr<std::unique_ptr<paperdb::query::QueryEngine>> engine;
  paperdb::query::EngineSlot slot;
  if (follow_dir.empty()) {
    engine =
        paperdb::query::QueryEngine::Open(absl::GetFlag(FLAGS_db), secondary);
    if (!engine.ok()) {
      std::cerr << "query_service: " << engine.status().message() << "\n";
      return 1;
    }
    slot.Set(std::shared_ptr<const paperdb::query::QueryEngine>(
        engine->get(), [](const paperdb::query::QueryEngine*) {}));
  }
  absl::StatusOr<paperdb::rpc::SecurityConfig> security =
      paperdb::rpc::SecurityConfigFromFlags();
  if (!security.ok()) {
    std::cerr << "query_service: " << security.status().message() << "\n";
    return 2;
  }
  const paperdb::rpc::Authenticator authenticator(security->auth);
  paperdb::index::PostingCache::Default().SetCapacity(
      static_cast<size_t>(std::max(0, absl::GetFlag(FLAGS_posting_cache_mib)))
      << 20);
  paperdb::query::QueryServiceOptions service_options;
  service_options.authenticator = &authenticator;
  service_options.max_search_time =
      absl::Milliseconds(absl::GetFlag(FLAGS_max_search_ms));
  paperdb::query::QueryServiceImpl service(&slot, service_options);
  paperdb::rpc::ServerMetrics metrics("query_service");
  auto& documents = prometheus::BuildGauge()
                        .Name("paperdb_documents")
                        .Help("Papers in the store, as of the last catch-up")
                        .Register(metrics.registry())
                        .Add({});
  auto& store_bytes =
      prometheus::BuildGauge()
          .Name("paperdb_store_bytes")
          .Help("Bytes of the store's data: SST files and memtables")
          .Register(metrics.registry())
          .Add({});
  auto& caught_up = prometheus::BuildGauge()
                        .Name("paperdb_catch_up_last_success_seconds")
                        .Help(
                            "Unix time of the last successful catch-up with "
                            "the writer; now minus this is the lag bound")
                        .Register(metrics.registry())
                        .Add({});
  auto& catch_up_failures = prometheus::BuildCounter()
                                .Name("paperdb_catch_up_failures_total")
                                .Help("Catch-ups with the writer that failed")
                                .Register(metrics.registry())
                                .Add({});
  paperdb::rpc::MetricsServer metrics_server;
  if (!absl::GetFlag(FLAGS_metrics_listen).empty()) {
    auto started = paperdb::rpc::StartMetricsServer(
        absl::GetFlag(FLAGS_metrics_listen), &metrics);
    if (!started.ok()) {
      std::cerr << "query_service: " << started.status().message() << "\n";
      return 1;
    }
    metrics_server = std::move(*started);
    paperdb::LogInfo(absl::StrCat("metrics on port ", metrics_server.port));
  }
  paperdb::rpc::HealthService health;
  paperdb::rpc::ServerOptions options;
  options.listen = absl::GetFlag(FLAGS_listen);
  options.max_threads = absl::GetFlag(FLAGS_max_threads);
  options.max_concurrent_streams = absl::GetFlag(FLAGS_max_concurrent_streams);
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
    std::cerr << "query_service: " << server.status().message() << "\n";
    return 1;
  }
  // Following checkpoints: NOT_SERVING until the first is served; then
  // SERVING, a checkpoint that fails to open leaving the last one serving.
  std::unique_ptr<paperdb::query::CheckpointFollower> follower;
  if (!follow_dir.empty()) {
    health.SetServing("", false);
    health.SetServing("paperdb.v1.QueryService", false);
    follower = std::make_unique<paperdb::query::CheckpointFollower>(
        follow_dir, secondary, &slot);
    follower->Start(
        absl::Milliseconds(absl::GetFlag(FLAGS_checkpoint_poll_ms)),
        [&, serving = false, last_error = std::string()](
            const absl::StatusOr<std::optional<
                paperdb::query::CheckpointFollower::Switch>>& result) mutable {
          if (!result.ok()) {
            // Once per distinct error, not once per poll.
            if (result.status().ToString() == last_error) return;
            last_error = result.status().ToString();
            paperdb::LogError(absl::StrCat("checkpoint: ", last_error));
            return;
          }
          last_error.clear();
          if (!result->has_value()) return;
          const paperdb::storage::CheckpointInfo& checkpoint =
              (*result)->checkpoint;
          paperdb::LogInfo(absl::StrFormat(
              "serving checkpoint %s, %d papers (opened in %.0f ms)",
              checkpoint.path, checkpoint.papers,
              absl::ToDoubleMilliseconds((*result)->open_time)));
          documents.Set(static_cast<double>(checkpoint.papers));
          caught_up.Set(absl::ToUnixMillis(absl::Now()) / 1000.0);
          if (auto served = slot.Get(); served != nullptr) {
            store_bytes.Set(static_cast<double>(served->StoreBytes()));
          }
          if (!serving) {
            health.SetServing("", true);
            health.SetServing("paperdb.v1.QueryService", true);
            serving = true;
          }
        });
  } else {
    health.SetServing("", true);
    health.SetServing("paperdb.v1.QueryService", true);
  }
  // Health follows the store: NOT_SERVING while catching up fails.
  if (follow_dir.empty())
    (*engine)->StartCatchUpLoop(
        absl::Milliseconds(absl::GetFlag(FLAGS_catch_up_interval_ms)),
        [&, last_ok = true](const absl::Status& result) mutable {
          if (result.ok()) {
            caught_up.Set(absl::ToUnixMillis(absl::Now()) / 1000.0);
            if (auto count = (*engine)->DocumentCount(); count.ok()) {
              documents.Set(static_cast<double>(*count));
            }
            store_bytes.Set(static_cast<double>((*engine)->StoreBytes()));
          } else {
            catch_up_failures.Increment();
          }
          if (result.ok() == last_ok) return;
          if (!result.ok()) paperdb::LogError(result.message());
          health.SetServing("", result.ok());
          health.SetServing("paperdb.v1.QueryService", result.ok());
          last_ok = result.ok();
        });
  paperdb::LogInfo(
      absl::StrCat("query_service listening on port ", server->port, " of ",
                   paperdb::rpc::HostOf(absl::GetFlag(FLAGS_listen)),
                   follow_dir.empty() ? ", store " : ", checkpoints in ",
                   follow_dir.empty() ? absl::GetFlag(FLAGS_db) : follow_dir,
                   security->tls.cert_file.empty() ? " (plaintext" : " (TLS",
                   authenticator.enabled() ? ", authentication required)"
                                           : ", no authentication)"));
  paperdb::rpc::WaitForTerminationAndDrain(
      signals, server->server.get(), &health,
      absl::Seconds(absl::GetFlag(FLAGS_shutdown_notice_seconds)),
      absl::Seconds(absl::GetFlag(FLAGS_drain_seconds)));
  // Every call has ended and the store is only read: nothing is left to
  // save. Tearing gRPC down can wait up to 10 s on its executor's timer
  // after a loaded run, so the process exits without it.
  stopped();
  std::cout.flush();
  std::fflush(nullptr);
  std::_Exit(0);
}

}  // namespace

int main(int argc, char** argv) {
  const paperdb::rpc::ServiceMainStart start = paperdb::rpc::StartServiceMain(
      argc, argv,
      {"query_service", kUsage, "paperdb.v1.QueryService", &FLAGS_listen});
  if (start.exit_status.has_value()) return *start.exit_status;
  const sigset_t signals = paperdb::rpc::BlockTerminationSignals();
  if (absl::GetFlag(FLAGS_db).empty() ==
      absl::GetFlag(FLAGS_follow_checkpoints).empty()) {
    std::cerr << "query_service: give one of --db and --follow_checkpoints\n";
    return 2;
  }
  // Each numeric flag's least value; the first one below it is named.
  const struct {
    const char* name;
    int value;
    int minimum;
  } kLimits[] = {
      {"max_threads", absl::GetFlag(FLAGS_max_threads), 2},
      {"catch_up_interval_ms", absl::GetFlag(FLAGS_catch_up_interval_ms), 10},
      {"checkpoint_poll_ms", absl::GetFlag(FLAGS_checkpoint_poll_ms), 10},
      {"max_search_ms", absl::GetFlag(FLAGS_max_search_ms), 1},
      {"posting_cache_mib", absl::GetFlag(FLAGS_posting_cache_mib), 0},
      {"max_concurrent_streams", absl::GetFlag(FLAGS_max_concurrent_streams),
       1},
      {"keepalive_seconds", absl::GetFlag(FLAGS_keepalive_seconds), 1},
      {"keepalive_timeout_seconds",
       absl::GetFlag(FLAGS_keepalive_timeout_seconds), 1},
      {"max_connection_age_seconds",
       absl::GetFlag(FLAGS_max_connection_age_seconds), 0},
      {"drain_seconds", absl::GetFlag(FLAGS_drain_seconds), 0},
      {"shutdown_notice_seconds", absl::GetFlag(FLAGS_shutdown_notice_seconds),
       0},
  };
  for (const auto& limit : kLimits) {
    if (limit.value < limit.minimum) {
      std::cerr << "query_service: --" << limit.name << " must be at least "
                << limit.minimum << ", got " << limit.value << "\n";
      return 2;
    }
  }
  std::string secondary = absl::GetFlag(FLAGS_secondary_dir);
  const bool own_secondary = secondary.empty();
  if (own_secondary) {
    secondary = (std::filesystem::temp_directory_path() /
                 absl::StrCat("paperdb-secondary-", getpid()))
                    .string();
  }
  const auto remove_secondary = [&] {
    if (own_secondary) {
      std::error_code ignored;
      std::filesystem::remove_all(secondary, ignored);
    }
  };
  const int status = Serve(secondary, signals, remove_secondary);
  remove_secondary();
  return status;
}
