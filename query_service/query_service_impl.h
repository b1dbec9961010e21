// gRPC handlers of paperdb.v1.QueryService: validate, call QueryEngine,
// convert the status. No search or storage logic here.
//
// Thread safety: handlers may run concurrently.

#ifndef PAPERDB_QUERY_SERVICE_QUERY_SERVICE_IMPL_H_
#define PAPERDB_QUERY_SERVICE_QUERY_SERVICE_IMPL_H_

#include <functional>
#include <memory>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "paperdb/rpc/auth.h"
#include "paperdb/rpc/request_check.h"
#include "paperdb/v1/query_service.grpc.pb.h"
#include "query_service/engine_slot.h"
#include "query_service/query_engine.h"

namespace paperdb::query {

struct QueryServiceOptions {
  // Checks every call for read scope; null: every call is allowed. Not
  // owned.
  const rpc::Authenticator* authenticator = nullptr;
  // Longest a search may run when the client sets no earlier deadline;
  // then it fails with DEADLINE_EXCEEDED.
  absl::Duration max_search_time = absl::Seconds(10);
};

// Requests are read by rpc::CheckedRequestTraits: a malformed one is
// INVALID_ARGUMENT naming the field and byte.
class QueryServiceImpl final
    : public rpc::WithCheckedRequests<v1::QueryService::Service> {
 public:
  // `engine` must outlive the service. Every handler first authorizes the
  // call (UNAUTHENTICATED or PERMISSION_DENIED).
  explicit QueryServiceImpl(const QueryEngine* engine,
                            QueryServiceOptions options = {});
  // Answers each call from the engine in `slot` when the call starts, which
  // may change between calls (checkpoint following); UNAVAILABLE while the
  // slot is empty. `slot` must outlive the service.
  explicit QueryServiceImpl(const EngineSlot* slot,
                            QueryServiceOptions options = {});

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
  grpc::Status SimilarPapers(grpc::ServerContext* context,
                             const v1::SimilarPapersRequest* request,
                             v1::SimilarPapersResponse* response) override;

 private:
  void RegisterCheckedRequests();
  // The caller's authorization, then the engine that answers the call if it
  // can (QueryEngine::Available()); UNAVAILABLE if there is none yet.
  absl::StatusOr<std::shared_ptr<const QueryEngine>> Admit(
      const grpc::ServerContext& context) const;
  // Admits, then runs `call` on the call's engine with a cancel function
  // that fires when the client leaves or --max_search_ms passes; the latter
  // becomes DEADLINE_EXCEEDED naming `what` ("search") and ending with
  // `hint`.
  grpc::Status WithSearchLimit(
      const grpc::ServerContext& context, absl::string_view what,
      absl::string_view hint,
      const std::function<absl::Status(const QueryEngine&,
                                       const search::CancelFn&)>& call);

  // The slot of the first constructor, holding its engine (not owned).
  std::unique_ptr<EngineSlot> own_slot_;
  const EngineSlot* slot_;  // Not owned.
  const QueryServiceOptions options_;
};

}  // namespace paperdb::query

#endif  // PAPERDB_QUERY_SERVICE_QUERY_SERVICE_IMPL_H_
