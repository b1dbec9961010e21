// grpc.health.v1.Health
// (https://github.com/grpc/grpc/blob/master/doc/health-checking.md), compiled
// from Debian's grpc-proto so that server reflection can describe it and
// grpcurl can call it. gRPC 1.51's built-in health service registers no
// descriptor, so paperdb serves its own.
//
// It is a callback service: Check and Watch run on gRPC's own threads, never
// on the sync server's request threads (ServerOptions::max_threads). A
// server whose every request thread is busy with searches still answers its
// probes, so Kubernetes does not restart a pod for being loaded.
//
// Thread safety: all methods may be called concurrently.

#ifndef PAPERDB_RPC_HEALTH_SERVICE_H_
#define PAPERDB_RPC_HEALTH_SERVICE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "grpc/health/v1/health.grpc.pb.h"

namespace paperdb::rpc {

class HealthWatch;

class HealthService final : public grpc::health::v1::Health::CallbackService {
 public:
  // Open Watch streams at most; more get RESOURCE_EXHAUSTED. A stream holds
  // no thread, only a little memory (Kubernetes probes use Check).
  static constexpr int kMaxWatchers = 64;

  HealthService() = default;

  // Sets the status reported for `service` ("" is the whole server) and
  // sends it to the Watch streams of that service.
  void SetServing(const std::string& service, bool serving)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Makes every service NOT_SERVING for good, sends that to every Watch
  // stream and ends it with OK.
  void Shutdown() ABSL_LOCKS_EXCLUDED(mu_);

  // NOT_FOUND naming a service never set.
  grpc::ServerUnaryReactor* Check(
      grpc::CallbackServerContext* context,
      const grpc::health::v1::HealthCheckRequest* request,
      grpc::health::v1::HealthCheckResponse* response) override;

  // Sends the current status, then every change, until the client cancels or
  // Shutdown() is called. Unknown services are reported SERVICE_UNKNOWN.
  grpc::ServerWriteReactor<grpc::health::v1::HealthCheckResponse>* Watch(
      grpc::CallbackServerContext* context,
      const grpc::health::v1::HealthCheckRequest* request) override;

 private:
  friend class HealthWatch;
  using ServingStatus = grpc::health::v1::HealthCheckResponse::ServingStatus;

  // What a Watch stream of `service` sends next: the status, the version it
  // reflects, and whether the service is shut down (the last message).
  struct Snapshot {
    ServingStatus status;
    uint64_t version;
    bool final;
  };
  Snapshot SnapshotOf(const std::string& service) const
      ABSL_LOCKS_EXCLUDED(mu_);
  ServingStatus StatusOf(const std::string& service) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // Bumps the version and hands every open stream the news, outside mu_.
  void NotifyWatchers() ABSL_LOCKS_EXCLUDED(mu_);
  void Unregister(const HealthWatch* watch) ABSL_LOCKS_EXCLUDED(mu_);

  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, bool> serving_ ABSL_GUARDED_BY(mu_);
  bool shut_down_ ABSL_GUARDED_BY(mu_) = false;
  uint64_t version_ ABSL_GUARDED_BY(mu_) = 0;  // Bumped on every change.
  // Open Watch streams; each entry keeps its stream alive while in use here.
  std::vector<std::weak_ptr<HealthWatch>> watchers_ ABSL_GUARDED_BY(mu_);
};

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_HEALTH_SERVICE_H_
