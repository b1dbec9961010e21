// The one conversion from absl::Status to grpc::Status, used at the service
// edge only.

#ifndef PAPERDB_RPC_GRPC_STATUS_H_
#define PAPERDB_RPC_GRPC_STATUS_H_

#include <cstddef>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace paperdb::rpc {

// absl::StatusCode and grpc::StatusCode share the google.rpc.Code numbering,
// so the code converts by value. The message is copied, cut after
// kMaxErrorMessageBytes (at a character boundary, with "..." added): it
// travels in response metadata several times over, and a message quoting a
// huge request would exceed the client's metadata limit and arrive as
// RESOURCE_EXHAUSTED instead. An
// error also carries google.rpc.Status details (the grpc-status-details-bin
// trailer that gRPC clients expose as error details): a google.rpc.ErrorInfo
// (domain "paperdb.dev"; reason and metadata from WithReason(), else the
// code's name) and, if WithField() named one, a google.rpc.BadRequest with
// that field and the message as its description (error_details.h).
inline constexpr size_t kMaxErrorMessageBytes = 1024;
grpc::Status ToGrpcStatus(const absl::Status& status);

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_GRPC_STATUS_H_
