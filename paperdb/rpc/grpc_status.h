// The one conversion from absl::Status to grpc::Status, used at the service
// edge only.

#ifndef PAPERDB_RPC_GRPC_STATUS_H_
#define PAPERDB_RPC_GRPC_STATUS_H_

#include <string>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace paperdb::rpc {

// absl::StatusCode and grpc::StatusCode share the google.rpc.Code numbering,
// so the code converts by value; the message is copied unchanged.
inline grpc::Status ToGrpcStatus(const absl::Status& status) {
  static_assert(static_cast<int>(absl::StatusCode::kNotFound) ==
                static_cast<int>(grpc::StatusCode::NOT_FOUND));
  static_assert(static_cast<int>(absl::StatusCode::kUnauthenticated) ==
                static_cast<int>(grpc::StatusCode::UNAUTHENTICATED));
  if (status.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                      std::string(status.message()));
}

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_GRPC_STATUS_H_
