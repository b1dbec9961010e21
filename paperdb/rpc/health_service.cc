#include "paperdb/rpc/health_service.h"

#include <utility>

namespace paperdb::rpc {

using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;

// One Watch stream. It owns itself through `self_` from Start() until
// OnDone(); HealthService holds weak references and pins a stream only while
// it hands it news. No lock is held across StartWrite or Finish, since gRPC
// may run OnWriteDone and OnDone inline.
class HealthWatch final : public grpc::ServerWriteReactor<HealthCheckResponse> {
 public:
  HealthWatch(HealthService* owner, std::string service)
      : owner_(owner), service_(std::move(service)) {}

  void Start(std::shared_ptr<HealthWatch> self) {
    self_ = std::move(self);
    Pump();
  }

  // Writes the newest status unless a write is in flight (its OnWriteDone
  // pumps again) or that status was already sent.
  // A change that leaves this service's status as sent is not sent again;
  // at shutdown the stream then just ends.
  void Pump() {
    const HealthService::Snapshot next = owner_->SnapshotOf(service_);
    bool write = false;
    {
      absl::MutexLock lock(&mu_);
      if (writing_ || finished_) return;
      if (sent_any_ && next.version <= sent_version_) return;
      const bool unchanged = sent_any_ && next.status == response_.status();
      sent_any_ = true;
      sent_version_ = next.version;
      if (unchanged && !next.final) return;
      write = !unchanged;
      if (write) {
        writing_ = true;
        last_ = next.final;
        response_.set_status(next.status);
      } else {
        finished_ = true;
      }
    }
    if (write) {
      StartWrite(&response_);
    } else {
      Finish(grpc::Status::OK);
    }
  }

  void OnWriteDone(bool ok) override {
    bool more;
    {
      absl::MutexLock lock(&mu_);
      writing_ = false;
      more = ok && !last_ && !cancelled_;
      if (!more) finished_ = true;
    }
    if (more) {
      Pump();  // Sends what changed while this write was in flight.
      return;
    }
    Finish(grpc::Status::OK);
  }

  void OnCancel() override {
    {
      absl::MutexLock lock(&mu_);
      cancelled_ = true;
      if (writing_ || finished_) return;  // OnWriteDone finishes.
      finished_ = true;
    }
    Finish(grpc::Status::CANCELLED);
  }

  void OnDone() override {
    owner_->Unregister(this);
    // Drops the stream's own reference last; `this` may be gone after.
    std::shared_ptr<HealthWatch> self = std::move(self_);
  }

 private:
  HealthService* const owner_;
  const std::string service_;
  std::shared_ptr<HealthWatch> self_;
  absl::Mutex mu_;
  HealthCheckResponse response_;  // Alive until its OnWriteDone.
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;
  bool sent_any_ ABSL_GUARDED_BY(mu_) = false;
  bool last_ ABSL_GUARDED_BY(mu_) = false;  // The write in flight ends it.
  uint64_t sent_version_ ABSL_GUARDED_BY(mu_) = 0;
};

namespace {

// Ends a Watch call at once with `status`.
class RefusedWatch final
    : public grpc::ServerWriteReactor<HealthCheckResponse> {
 public:
  explicit RefusedWatch(const grpc::Status& status) { Finish(status); }
  void OnDone() override { delete this; }
};

}  // namespace

void HealthService::SetServing(const std::string& service, bool serving) {
  {
    absl::MutexLock lock(&mu_);
    if (shut_down_) return;
    serving_[service] = serving;
    ++version_;
  }
  NotifyWatchers();
}

void HealthService::Shutdown() {
  {
    absl::MutexLock lock(&mu_);
    for (auto& [service, serving] : serving_) serving = false;
    shut_down_ = true;
    ++version_;
  }
  NotifyWatchers();
}

void HealthService::NotifyWatchers() {
  std::vector<std::shared_ptr<HealthWatch>> open;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& weak : watchers_) {
      if (auto watch = weak.lock()) open.push_back(std::move(watch));
    }
  }
  for (const auto& watch : open) watch->Pump();
}

void HealthService::Unregister(const HealthWatch* watch) {
  absl::MutexLock lock(&mu_);
  std::erase_if(watchers_, [watch](const std::weak_ptr<HealthWatch>& weak) {
    const std::shared_ptr<HealthWatch> open = weak.lock();
    return open == nullptr || open.get() == watch;
  });
}

HealthService::Snapshot HealthService::SnapshotOf(
    const std::string& service) const {
  absl::ReaderMutexLock lock(&mu_);
  return {StatusOf(service), version_, shut_down_};
}

HealthService::ServingStatus HealthService::StatusOf(
    const std::string& service) const {
  const auto it = serving_.find(service);
  if (it == serving_.end()) return HealthCheckResponse::SERVICE_UNKNOWN;
  return it->second ? HealthCheckResponse::SERVING
                    : HealthCheckResponse::NOT_SERVING;
}

grpc::ServerUnaryReactor* HealthService::Check(
    grpc::CallbackServerContext* context, const HealthCheckRequest* request,
    HealthCheckResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  ServingStatus status;
  {
    absl::ReaderMutexLock lock(&mu_);
    status = StatusOf(request->service());
  }
  if (status == HealthCheckResponse::SERVICE_UNKNOWN) {
    const std::string& name = request->service();
    reactor->Finish(grpc::Status(
        grpc::StatusCode::NOT_FOUND,
        "unknown service '" +
            (name.size() > 200 ? name.substr(0, 200) + "..." : name) + "'"));
    return reactor;
  }
  response->set_status(status);
  reactor->Finish(grpc::Status::OK);
  return reactor;
}

grpc::ServerWriteReactor<HealthCheckResponse>* HealthService::Watch(
    grpc::CallbackServerContext* /*context*/,
    const HealthCheckRequest* request) {
  auto watch = std::make_shared<HealthWatch>(this, request->service());
  {
    absl::MutexLock lock(&mu_);
    std::erase_if(watchers_, [](const std::weak_ptr<HealthWatch>& weak) {
      return weak.expired();
    });
    if (watchers_.size() >= static_cast<size_t>(kMaxWatchers)) {
      return new RefusedWatch(
          grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                       "too many open health Watch streams; use Check"));
    }
    watchers_.push_back(watch);
  }
  HealthWatch* reactor = watch.get();
  reactor->Start(std::move(watch));
  return reactor;
}

}  // namespace paperdb::rpc
