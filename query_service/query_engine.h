// QueryEngine: the read side of paperdb behind QueryService. It owns the
// store opened as a RocksDB secondary instance, catches up with the writer
// on a background thread, and answers lookups and searches with API protos.
//
// Consistency: a catch-up applies the writer's batches under an exclusive
// lock and every request reads under a shared lock, so a request sees each
// ingested file entirely or not at all.
//
// Thread safety: all public methods may run concurrently.

#ifndef PAPERDB_QUERY_SERVICE_QUERY_ENGINE_H_
#define PAPERDB_QUERY_SERVICE_QUERY_ENGINE_H_

#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "paperdb/rpc/paper_name.h"
#include "paperdb/search/searcher.h"
#include "paperdb/storage/paper_table.h"
#include "paperdb/storage/store.h"
#include "paperdb/v1/query_service.pb.h"

namespace paperdb::query {

class QueryEngine {
 public:
  // Opens the store at `db_path` as a secondary instance keeping its state in
  // `secondary_path`. Errors as Store::OpenSecondary().
  static absl::StatusOr<std::unique_ptr<QueryEngine>> Open(
      const std::string& db_path, const std::string& secondary_path);

  QueryEngine(const QueryEngine&) = delete;
  QueryEngine& operator=(const QueryEngine&) = delete;
  ~QueryEngine();  // Stops the catch-up thread.

  // Applies the writer's changes made since the last catch-up.
  absl::Status CatchUp() ABSL_LOCKS_EXCLUDED(mu_);

  // OK while the engine can answer; UNAVAILABLE, naming the store, once a
  // catch-up found it removed or recreated at its path: what the engine
  // holds is then the old store's data, and only a restart serves the new
  // one.
  absl::Status Available() const;

  // Starts a thread that calls CatchUp() every `interval` and reports each
  // outcome to `on_result` (for health reporting); stopped by the destructor.
  void StartCatchUpLoop(absl::Duration interval,
                        std::function<void(const absl::Status&)> on_result);

  // Papers stored, as of the last catch-up. Store errors.
  absl::StatusOr<uint64_t> DocumentCount() const ABSL_LOCKS_EXCLUDED(mu_);
  // Bytes of the store's data: SST files and memtables (Store::DataBytes()).
  uint64_t StoreBytes() const ABSL_LOCKS_EXCLUDED(mu_);

  // AIP-131, only `fields` of the stored record read (PaperRecordFields()
  // of a read_mask). INVALID_ARGUMENT for an empty or malformed name;
  // NOT_FOUND.
  absl::StatusOr<v1::Paper> GetPaper(
      absl::string_view name, const storage::RecordFields& fields = {}) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // AIP-231: all or nothing, in request order.
  absl::Status BatchGetPapers(const v1::BatchGetPapersRequest& request,
                              v1::BatchGetPapersResponse* response) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // AIP-132/158, papers in ingest order.
  absl::Status ListPapers(const v1::ListPapersRequest& request,
                          v1::ListPapersResponse* response) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Full-text search; see SearchPapersRequest in query_service.proto.
  // CANCELLED as soon as `cancelled` (if set) returns true.
  absl::Status SearchPapers(const v1::SearchPapersRequest& request,
                            v1::SearchPapersResponse* response,
                            const search::CancelFn& cancelled = nullptr) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Papers like a stored paper or a text; see SimilarPapers in
  // query_service.proto. CANCELLED as soon as `cancelled` returns true.
  absl::Status SimilarPapers(const v1::SimilarPapersRequest& request,
                             v1::SimilarPapersResponse* response,
                             const search::CancelFn& cancelled = nullptr) const
      ABSL_LOCKS_EXCLUDED(mu_);

 private:
  explicit QueryEngine(std::unique_ptr<storage::Store> store);
  // The paper `name`, only `fields` of its record read.
  absl::StatusOr<v1::Paper> GetPaperLocked(
      absl::string_view name, const storage::RecordFields& fields = {}) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);

  // Reads the corpus statistics into stats_ after the store changed.
  void RefreshStats() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // stats_ if it holds the store's statistics, else nullptr (a Searcher
  // then reads them itself).
  const storage::v1::CorpusStats* StatsOrNull() const
      ABSL_SHARED_LOCKS_REQUIRED(mu_) {
    return stats_valid_ ? &stats_ : nullptr;
  }

  mutable absl::Mutex mu_;  // Shared by requests, exclusive for catch-up.
  std::unique_ptr<storage::Store> store_;
  storage::PaperTable table_;
  // The store's corpus statistics, read once per catch-up rather than once
  // per search (a RocksDB read was 5% of a small search's server time).
  storage::v1::CorpusStats stats_ ABSL_GUARDED_BY(mu_);
  bool stats_valid_ ABSL_GUARDED_BY(mu_) = false;
  absl::Notification stop_;
  std::thread catch_up_thread_;
};

using rpc::PaperIdFromName;

}  // namespace paperdb::query

#endif  // PAPERDB_QUERY_SERVICE_QUERY_ENGINE_H_
