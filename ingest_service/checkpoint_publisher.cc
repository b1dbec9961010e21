#include "ingest_service/checkpoint_publisher.h"

#include <utility>

#include "paperdb/common/status_macros.h"

namespace paperdb::ingest {

CheckpointPublisher::CheckpointPublisher(const storage::Store* store,
                                         std::string publish_dir, size_t keep)
    : store_(store), publish_dir_(std::move(publish_dir)), keep_(keep) {}

CheckpointPublisher::~CheckpointPublisher() {
  stop_.Notify();
  if (thread_.joinable()) thread_.join();
}

absl::StatusOr<std::optional<storage::CheckpointInfo>>
CheckpointPublisher::PublishIfChanged() {
  if (!published_sequence_.has_value()) {
    PAPERDB_ASSIGN_OR_RETURN(
        const std::vector<storage::CheckpointInfo> existing,
        storage::ListCompleteCheckpoints(publish_dir_));
    if (!existing.empty()) published_sequence_ = existing.back().sequence;
  }
  if (published_sequence_ == store_->LatestSequenceNumber()) {
    return std::nullopt;
  }
  PAPERDB_ASSIGN_OR_RETURN(storage::CheckpointInfo published,
                           storage::PublishCheckpoint(*store_, publish_dir_));
  published_sequence_ = published.sequence;
  PAPERDB_RETURN_IF_ERROR(storage::PruneCheckpoints(publish_dir_, keep_));
  return published;
}

void CheckpointPublisher::Start(
    absl::Duration interval,
    std::function<
        void(const absl::StatusOr<std::optional<storage::CheckpointInfo>>&)>
        on_result) {
  thread_ = std::thread([this, interval, on_result = std::move(on_result)] {
    do {
      on_result(PublishIfChanged());
    } while (!stop_.WaitForNotificationWithTimeout(interval));
  });
}

}  // namespace paperdb::ingest
