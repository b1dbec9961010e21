#include "paperdb/rpc/health_service.h"

#include "absl/time/time.h"

namespace paperdb::rpc {

using grpc::health::v1::HealthCheckResponse;

void HealthService::SetServing(const std::string& service, bool serving) {
  absl::MutexLock lock(&mu_);
  if (shut_down_) return;
  serving_[service] = serving;
  ++version_;
}

void HealthService::Shutdown() {
  absl::MutexLock lock(&mu_);
  for (auto& [service, serving] : serving_) serving = false;
  shut_down_ = true;
  ++version_;
}

HealthService::ServingStatus HealthService::StatusOf(
    const std::string& service) const {
  const auto it = serving_.find(service);
  if (it == serving_.end()) return HealthCheckResponse::SERVICE_UNKNOWN;
  return it->second ? HealthCheckResponse::SERVING
                    : HealthCheckResponse::NOT_SERVING;
}

grpc::Status HealthService::Check(
    grpc::ServerContext* /*context*/,
    const grpc::health::v1::HealthCheckRequest* request,
    HealthCheckResponse* response) {
  absl::ReaderMutexLock lock(&mu_);
  const ServingStatus status = StatusOf(request->service());
  if (status == HealthCheckResponse::SERVICE_UNKNOWN) {
    const std::string& name = request->service();
    return grpc::Status(
        grpc::StatusCode::NOT_FOUND,
        "unknown service '" +
            (name.size() > 200 ? name.substr(0, 200) + "..." : name) + "'");
  }
  response->set_status(status);
  return grpc::Status::OK;
}

grpc::Status HealthService::Watch(
    grpc::ServerContext* context,
    const grpc::health::v1::HealthCheckRequest* request,
    grpc::ServerWriter<HealthCheckResponse>* writer) {
  {
    absl::MutexLock lock(&mu_);
    if (watchers_ >= kMaxWatchers) {
      return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                          "too many open health Watch streams; use Check");
    }
    ++watchers_;
  }
  struct Release {
    HealthService* self;
    ~Release() {
      absl::MutexLock lock(&self->mu_);
      --self->watchers_;
    }
  } release{this};
  uint64_t seen = UINT64_MAX;
  while (!context->IsCancelled()) {
    HealthCheckResponse response;
    bool done = false;
    {
      absl::MutexLock lock(&mu_);
      // Wake on a change, or every 200 ms to notice cancellation.
      struct Changed {
        const uint64_t* version;
        uint64_t seen;
        bool operator()() const { return *version != seen; }
      };
      const Changed changed{&version_, seen};
      mu_.AwaitWithTimeout(absl::Condition(&changed), absl::Milliseconds(200));
      if (version_ == seen) continue;
      seen = version_;
      response.set_status(StatusOf(request->service()));
      done = shut_down_;
    }
    if (!writer->Write(response) || done) break;
  }
  return grpc::Status::OK;
}

}  // namespace paperdb::rpc
