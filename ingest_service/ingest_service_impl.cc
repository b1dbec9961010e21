#include "ingest_service/ingest_service_impl.h"

#include "absl/status/status.h"
#include "paperdb/rpc/grpc_status.h"

namespace paperdb::ingest {

grpc::Status IngestServiceImpl::IngestFile(grpc::ServerContext* /*context*/,
                                           const v1::IngestFileRequest* request,
                                           v1::IngestFileResponse* response) {
  if (request->file_name().empty()) {
    return rpc::ToGrpcStatus(
        absl::InvalidArgumentError("file_name is required"));
  }
  absl::StatusOr<FileSummary> summary =
      ingester_->IngestContent(request->file_name(), request->content());
  if (!summary.ok()) return rpc::ToGrpcStatus(summary.status());
  response->set_added(summary->added);
  response->set_unchanged(summary->unchanged);
  response->set_skipped(summary->skipped);
  return grpc::Status::OK;
}

}  // namespace paperdb::ingest
