#include "query_service/checkpoint_follower.h"

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "paperdb/common/status_macros.h"
#include "query_service/query_engine.h"

namespace paperdb::query {

CheckpointFollower::CheckpointFollower(std::string dir, std::string work_dir,
                                       EngineSlot* slot)
    : dir_(std::move(dir)), work_dir_(std::move(work_dir)), slot_(slot) {}

CheckpointFollower::~CheckpointFollower() {
  stop_.Notify();
  if (thread_.joinable()) thread_.join();
}

std::optional<storage::CheckpointInfo> CheckpointFollower::served() const {
  absl::MutexLock lock(&mu_);
  return served_;
}

absl::StatusOr<std::optional<CheckpointFollower::Switch>>
CheckpointFollower::Poll() {
  PAPERDB_ASSIGN_OR_RETURN(std::vector<storage::CheckpointInfo> complete,
                           storage::ListCompleteCheckpoints(dir_));
  if (complete.empty()) return std::nullopt;
  storage::CheckpointInfo newest = std::move(complete.back());
  {
    absl::MutexLock lock(&mu_);
    if (served_.has_value() && served_->name == newest.name) {
      return std::nullopt;
    }
  }
  const std::string secondary = (std::filesystem::path(work_dir_) /
                                 absl::StrCat(newest.name, "-", opened_++))
                                    .string();
  const absl::Time start = absl::Now();
  absl::StatusOr<std::unique_ptr<QueryEngine>> opened =
      QueryEngine::Open(newest.path, secondary);
  if (!opened.ok()) {
    std::error_code ignored;
    std::filesystem::remove_all(secondary, ignored);
    return opened.status();
  }
  // The engine's own files go when the last call holding it lets go.
  std::shared_ptr<const QueryEngine> engine(
      opened->release(), [secondary](const QueryEngine* engine) {
        delete engine;
        std::error_code ignored;
        std::filesystem::remove_all(secondary, ignored);
      });
  const absl::Duration open_time = absl::Now() - start;
  slot_->Set(std::move(engine));
  absl::MutexLock lock(&mu_);
  served_ = newest;
  return Switch{std::move(newest), open_time};
}

void CheckpointFollower::Start(
    absl::Duration interval,
    std::function<void(const absl::StatusOr<std::optional<Switch>>&)>
        on_result) {
  thread_ = std::thread([this, interval, on_result = std::move(on_result)] {
    do {
      on_result(Poll());
    } while (!stop_.WaitForNotificationWithTimeout(interval));
  });
}

}  // namespace paperdb::query
