// CheckpointFollower: serves the newest complete checkpoint
// (paperdb/storage/checkpoint.h) found in a directory on local disk, and
// switches to a newer one when it appears. A switch opens the new
// checkpoint first and then replaces the engine in an EngineSlot, so calls
// never wait for an open and never fail for a switch: calls running on the
// old checkpoint finish on it, and it closes after the last of them.
//
// Each checkpoint is opened as a RocksDB secondary instance that is never
// caught up, which reads it without writing to it: its own files (RocksDB's
// info log) go to a directory under `work_dir`, removed when it closes. So
// the checkpoint directory may be read-only and stays byte for byte what
// the transport delivered.
//
// Thread safety: Poll() and the background loop must not run concurrently
// (Start() owns polling once called); served() may be called from any
// thread.

#ifndef PAPERDB_QUERY_SERVICE_CHECKPOINT_FOLLOWER_H_
#define PAPERDB_QUERY_SERVICE_CHECKPOINT_FOLLOWER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/random/random.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "paperdb/storage/checkpoint.h"
#include "query_service/engine_slot.h"

namespace paperdb::query {

class CheckpointFollower {
 public:
  // A switch to a newer checkpoint.
  struct Switch {
    storage::CheckpointInfo checkpoint;
    absl::Duration open_time;  // Opening it, before it served.
  };

  // Follows checkpoints in `dir`, serving them through `slot` (which must
  // outlive the follower); secondary instances keep their files under
  // `work_dir` (created if missing).
  CheckpointFollower(std::string dir, std::string work_dir, EngineSlot* slot);
  CheckpointFollower(const CheckpointFollower&) = delete;
  CheckpointFollower& operator=(const CheckpointFollower&) = delete;
  ~CheckpointFollower();  // Stops the loop; the slot keeps its engine.

  // Serves the newest complete checkpoint in the directory if it is not the
  // one served (by name: a store recreated with lower sequence numbers is
  // followed too). Returns the checkpoint switched to, or nullopt if there
  // was nothing new. Errors of listing the directory or opening the
  // checkpoint; the one served before keeps serving then.
  absl::StatusOr<std::optional<Switch>> Poll();

  // Starts a thread that calls Poll() now and then every `interval`, and
  // reports each outcome to `on_result`; stopped by the destructor.
  void Start(absl::Duration interval,
             std::function<void(const absl::StatusOr<std::optional<Switch>>&)>
                 on_result);

  // The checkpoint served; nullopt before the first.
  std::optional<storage::CheckpointInfo> served() const
      ABSL_LOCKS_EXCLUDED(mu_);

 private:
  const std::string dir_;
  const std::string work_dir_;
  EngineSlot* const slot_;
  uint64_t opened_ = 0;  // Instances opened, naming their work directories.
  absl::BitGen bitgen_;  // Names work directories apart from other processes.
  mutable absl::Mutex mu_;
  std::optional<storage::CheckpointInfo> served_ ABSL_GUARDED_BY(mu_);
  absl::Notification stop_;
  std::thread thread_;
};

}  // namespace paperdb::query

#endif  // PAPERDB_QUERY_SERVICE_CHECKPOINT_FOLLOWER_H_
