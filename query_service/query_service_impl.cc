#include "query_service/query_service_impl.h"

#include "paperdb/rpc/grpc_status.h"

namespace paperdb::query {

using rpc::ToGrpcStatus;

grpc::Status QueryServiceImpl::GetPaper(grpc::ServerContext* /*context*/,
                                        const v1::GetPaperRequest* request,
                                        v1::Paper* response) {
  absl::StatusOr<v1::Paper> paper = engine_->GetPaper(request->name());
  if (!paper.ok()) return ToGrpcStatus(paper.status());
  *response = *std::move(paper);
  return grpc::Status::OK;
}

grpc::Status QueryServiceImpl::BatchGetPapers(
    grpc::ServerContext* /*context*/, const v1::BatchGetPapersRequest* request,
    v1::BatchGetPapersResponse* response) {
  return ToGrpcStatus(engine_->BatchGetPapers(*request, response));
}

grpc::Status QueryServiceImpl::ListPapers(grpc::ServerContext* /*context*/,
                                          const v1::ListPapersRequest* request,
                                          v1::ListPapersResponse* response) {
  return ToGrpcStatus(engine_->ListPapers(*request, response));
}

grpc::Status QueryServiceImpl::SearchPapers(
    grpc::ServerContext* context, const v1::SearchPapersRequest* request,
    v1::SearchPapersResponse* response) {
  return ToGrpcStatus(engine_->SearchPapers(
      *request, response, [context] { return context->IsCancelled(); }));
}

}  // namespace paperdb::query
