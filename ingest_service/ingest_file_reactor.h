// The IngestFile call: a client stream of IngestFileRequest messages read as
// raw bytes and parsed here, so that a message that does not parse (a
// file_name that is not UTF-8, corrupt bytes) fails the call with
// INVALID_ARGUMENT. gRPC's generated synchronous reader would report such a
// message as the end of the stream, and the file received so far would be
// stored as if complete.
//
// gRPC callback API: reactions never block. Once the stream ends, the file is
// ingested on a thread of its own (there are at most
// IngestServiceOptions::max_concurrent_ingests), which then finishes the
// call. The reactor deletes itself when the call is done. An UploadWatchdog
// ends uploads that are still being received after the time limit, or that
// have sent no file bytes for the idle limit, so a client that stalls cannot
// hold an ingest slot.

#ifndef PAPERDB_INGEST_SERVICE_INGEST_FILE_REACTOR_H_
#define PAPERDB_INGEST_SERVICE_INGEST_FILE_REACTOR_H_

#include <atomic>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/impl/codegen/proto_utils.h"
#include "grpcpp/support/server_callback.h"
#include "ingest_service/ingest_metrics.h"
#include "ingest_service/ingester.h"

namespace paperdb::ingest {

class UploadWatchdog;

class IngestFileReactor final
    : public grpc::ServerReadReactor<grpc::ByteBuffer> {
 public:
  // Starts the call: finishes it at once with `refusal` if that is not OK
  // (authentication, concurrency), else reads the stream. `running` counts
  // calls in progress; the reactor holds one count until it is done.
  // Every pointer must outlive the call.
  IngestFileReactor(grpc::CallbackServerContext* context,
                    grpc::ByteBuffer* response, Ingester* ingester,
                    absl::Duration max_ingest_time,
                    absl::Duration max_idle_time, std::atomic<int>* running,
                    UploadWatchdog* watchdog, IngestMetrics* metrics,
                    const absl::Status& refusal);

  void OnReadDone(bool ok) override;
  void OnDone() override;

  // For the watchdog: if the upload is still being received at `now`, past
  // the time limit or idle for the idle limit, claims the right to finish
  // the call and returns true;
  // the caller must then call Expire() (without holding its own locks).
  bool ClaimIfOverdue(absl::Time now) ABSL_LOCKS_EXCLUDED(mu_);
  // Finishes a claimed call with DEADLINE_EXCEEDED, naming the limit.
  void Expire();

 private:
  enum class Phase { kReading, kIngesting, kFinished };

  // Parses and checks the message just read.
  absl::Status Accept();
  // On its own thread: ingests the file and finishes the call.
  void IngestAndFinish();
  // Gives back the ingest slot counted in `running_`; once only.
  void ReleaseSlot();
  // Finishes the call with `status` unless it is finished already.
  void FinishWith(const absl::Status& status) ABSL_LOCKS_EXCLUDED(mu_);

  grpc::CallbackServerContext* const context_;
  grpc::ByteBuffer* const response_;
  Ingester* const ingester_;
  const absl::Duration max_ingest_time_;
  const absl::Duration max_idle_time_;
  const absl::Time start_;
  std::atomic<int>* const running_;
  UploadWatchdog* const watchdog_;
  IngestMetrics* const metrics_;  // May be null.
  std::atomic<bool> slot_released_{false};
  bool counted_ = false;  // In metrics_'s calls in progress.

  absl::Mutex mu_;
  Phase phase_ ABSL_GUARDED_BY(mu_) = Phase::kReading;
  // When the last message bringing file bytes (or the first) arrived, or
  // the call's start.
  absl::Time last_message_ ABSL_GUARDED_BY(mu_);
  bool idle_expired_ = false;  // Set by ClaimIfOverdue() before Expire().

  grpc::ByteBuffer message_;
  int64_t messages_ = 0;
  std::string file_name_;
  std::string content_;
  std::thread worker_;  // Detached: it finishes the call and touches
                        // nothing after Finish().
};

// Ends uploads that outlive their time limit: every 250 ms it looks at the
// registered reactors and expires the overdue ones. Thread-safe.
class UploadWatchdog {
 public:
  UploadWatchdog();
  ~UploadWatchdog();  // Stops the thread. REQUIRES: no reactor registered.

  void Add(IngestFileReactor* reactor) ABSL_LOCKS_EXCLUDED(mu_);
  void Remove(IngestFileReactor* reactor) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  void Run();

  absl::Mutex mu_;
  absl::flat_hash_set<IngestFileReactor*> reactors_ ABSL_GUARDED_BY(mu_);
  absl::Notification stop_;
  std::thread thread_;
};

}  // namespace paperdb::ingest

#endif  // PAPERDB_INGEST_SERVICE_INGEST_FILE_REACTOR_H_
