// A health probe for containers (Docker HEALTHCHECK, or Kubernetes exec
// probes where native gRPC probes cannot be used): asks a server's
// grpc.health.v1.Health/Check over plaintext gRPC.

#ifndef PAPERDB_RPC_HEALTH_PROBE_H_
#define PAPERDB_RPC_HEALTH_PROBE_H_

#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace paperdb::rpc {

// The address to probe for a server listening on `listen` (host:port): a
// wildcard host (0.0.0.0, [::], empty) becomes 127.0.0.1.
std::string ProbeAddress(absl::string_view listen);

// Checks `service` ("" for the whole server) at `address`. Prints
// "SERVING", "NOT_SERVING" or the error to stdout; returns the exit status:
// 0 if serving, 1 otherwise.
int ProbeHealth(absl::string_view address, absl::string_view service,
                absl::Duration timeout);

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_HEALTH_PROBE_H_
