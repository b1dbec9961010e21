// gRPC handlers of paperdb.v1.QueryService: validate, call QueryEngine,
// convert the status. No search or storage logic here.
//
// Thread safety: handlers may run concurrently.

#ifndef PAPERDB_QUERY_SERVICE_QUERY_SERVICE_IMPL_H_
#define PAPERDB_QUERY_SERVICE_QUERY_SERVICE_IMPL_H_

#include "paperdb/v1/query_service.grpc.pb.h"
#include "query_service/query_engine.h"

namespace paperdb::query {

class QueryServiceImpl final : public v1::QueryService::Service {
 public:
  // `engine` must outlive the service.
  explicit QueryServiceImpl(const QueryEngine* engine) : engine_(engine) {}

  grpc::Status GetPaper(grpc::ServerContext* context,
                        const v1::GetPaperRequest* request,
                        v1::Paper* response) override;
  grpc::Status BatchGetPapers(grpc::ServerContext* context,
                              const v1::BatchGetPapersRequest* request,
                              v1::BatchGetPapersResponse* response) override;
  grpc::Status ListPapers(grpc::ServerContext* context,
                          const v1::ListPapersRequest* request,
                          v1::ListPapersResponse* response) override;
  grpc::Status SearchPapers(grpc::ServerContext* context,
                            const v1::SearchPapersRequest* request,
                            v1::SearchPapersResponse* response) override;

 private:
  const QueryEngine* engine_;  // Not owned.
};

}  // namespace paperdb::query

#endif  // PAPERDB_QUERY_SERVICE_QUERY_SERVICE_IMPL_H_
