// CheckpointPublisher: the serving writer's checkpoints. `ingest_service
// serve --checkpoint_dir=DIR` publishes a checkpoint of its store
// (paperdb/storage/checkpoint.h) every interval in which the store changed,
// and keeps the newest few. The writer does it itself because it holds the
// store's lock: no other process can open the store as primary while it
// runs.
//
// Thread safety: PublishIfChanged() and the background loop must not run
// concurrently (Start() owns publishing once called).

#ifndef PAPERDB_INGEST_SERVICE_CHECKPOINT_PUBLISHER_H_
#define PAPERDB_INGEST_SERVICE_CHECKPOINT_PUBLISHER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "paperdb/storage/checkpoint.h"
#include "paperdb/storage/store.h"

namespace paperdb::ingest {

class CheckpointPublisher {
 public:
  // Publishes checkpoints of `store` (which must outlive the publisher)
  // into `publish_dir`, keeping the newest `keep` (>= 1).
  CheckpointPublisher(const storage::Store* store, std::string publish_dir,
                      size_t keep);
  CheckpointPublisher(const CheckpointPublisher&) = delete;
  CheckpointPublisher& operator=(const CheckpointPublisher&) = delete;
  ~CheckpointPublisher();  // Stops the loop after the publish under way.

  // Publishes a checkpoint if the store's sequence number differs from the
  // newest published one's (the first call looks at the directory), then
  // prunes older ones. Returns the checkpoint published, or nullopt if the
  // store had not changed. Errors of PublishCheckpoint() and
  // PruneCheckpoints().
  absl::StatusOr<std::optional<storage::CheckpointInfo>> PublishIfChanged();

  // Starts a thread that calls PublishIfChanged() now and then every
  // `interval`, reporting each outcome to `on_result`.
  void Start(absl::Duration interval,
             std::function<void(
                 const absl::StatusOr<std::optional<storage::CheckpointInfo>>&)>
                 on_result);

 private:
  const storage::Store* const store_;
  const std::string publish_dir_;
  const size_t keep_;
  std::optional<uint64_t> published_sequence_;
  absl::Notification stop_;
  std::thread thread_;
};

}  // namespace paperdb::ingest

#endif  // PAPERDB_INGEST_SERVICE_CHECKPOINT_PUBLISHER_H_
