// grpc.health.v1.Health
// (https://github.com/grpc/grpc/blob/master/doc/health-checking.md), compiled
// from Debian's grpc-proto so that server reflection can describe it and
// grpcurl can call it. gRPC 1.51's built-in health service registers no
// descriptor, so paperdb serves its own.
//
// Thread safety: all methods may be called concurrently.

#ifndef PAPERDB_RPC_HEALTH_SERVICE_H_
#define PAPERDB_RPC_HEALTH_SERVICE_H_

#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "grpc/health/v1/health.grpc.pb.h"

namespace paperdb::rpc {

class HealthService final : public grpc::health::v1::Health::Service {
 public:
  static constexpr int kMaxWatchers = 8;

  HealthService() = default;

  // Sets the status reported for `service` ("" is the whole server).
  void SetServing(const std::string& service, bool serving)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Makes every service NOT_SERVING for good and ends open Watch streams.
  void Shutdown() ABSL_LOCKS_EXCLUDED(mu_);

  // NOT_FOUND for a service never set.
  grpc::Status Check(grpc::ServerContext* context,
                     const grpc::health::v1::HealthCheckRequest* request,
                     grpc::health::v1::HealthCheckResponse* response) override;

  // Sends the current status, then every change, until the client cancels or
  // Shutdown() is called. Unknown services are reported SERVICE_UNKNOWN.
  // Each stream holds a server thread, so at most kMaxWatchers run at once;
  // more get RESOURCE_EXHAUSTED (Kubernetes probes use Check, not Watch).
  grpc::Status Watch(grpc::ServerContext* context,
                     const grpc::health::v1::HealthCheckRequest* request,
                     grpc::ServerWriter<grpc::health::v1::HealthCheckResponse>*
                         writer) override;

 private:
  using ServingStatus = grpc::health::v1::HealthCheckResponse::ServingStatus;
  ServingStatus StatusOf(const std::string& service) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, bool> serving_ ABSL_GUARDED_BY(mu_);
  bool shut_down_ ABSL_GUARDED_BY(mu_) = false;
  uint64_t version_ ABSL_GUARDED_BY(mu_) = 0;  // Bumped on every change.
  int watchers_ ABSL_GUARDED_BY(mu_) = 0;      // Open Watch streams.
};

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_HEALTH_SERVICE_H_
