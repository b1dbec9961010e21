// gRPC handlers of paperdb.v1.QueryService: validate, call QueryEngine,
// convert the status. No search or storage logic here. They use gRPC's
// callback API: a sync server hands each call between threads, which cost
// more than a small search itself (docs/performance.md).
//
// Thread safety: handlers may run concurrently.

#ifndef PAPERDB_QUERY_SERVICE_QUERY_SERVICE_IMPL_H_
#define PAPERDB_QUERY_SERVICE_QUERY_SERVICE_IMPL_H_

#include <atomic>
#include <functional>

#include "absl/functional/any_invocable.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "paperdb/common/thread_pool.h"
#include "paperdb/rpc/auth.h"
#include "paperdb/v1/query_service.grpc.pb.h"
#include "query_service/query_engine.h"

namespace paperdb::query {

struct QueryServiceOptions {
  // Checks every call for read scope; null: every call is allowed. Not
  // owned.
  const rpc::Authenticator* authenticator = nullptr;
  // Longest a search may run when the client sets no earlier deadline;
  // then it fails with DEADLINE_EXCEEDED.
  absl::Duration max_search_time = absl::Seconds(10);
  // Runs SearchPapers and SimilarPapers, so that long searches do not hold
  // gRPC's callback threads (on gRPC 1.51, cores / 2 of them, at least 2),
  // which serve every other call; null: they run on gRPC's thread. Not
  // owned.
  ThreadPool* search_pool = nullptr;
  // Searches that may run on gRPC's threads at once, saving the hand-off to
  // search_pool; the rest go to the pool.
  int inline_searches = 1;
};

class QueryServiceImpl final : public v1::QueryService::CallbackService {
 public:
  // `engine` must outlive the service. Every handler first authorizes the
  // call (UNAUTHENTICATED or PERMISSION_DENIED).
  explicit QueryServiceImpl(const QueryEngine* engine,
                            QueryServiceOptions options = {})
      : engine_(engine), options_(options) {}

  grpc::ServerUnaryReactor* GetPaper(grpc::CallbackServerContext* context,
                                     const v1::GetPaperRequest* request,
                                     v1::Paper* response) override;
  grpc::ServerUnaryReactor* BatchGetPapers(
      grpc::CallbackServerContext* context,
      const v1::BatchGetPapersRequest* request,
      v1::BatchGetPapersResponse* response) override;
  grpc::ServerUnaryReactor* ListPapers(
      grpc::CallbackServerContext* context,
      const v1::ListPapersRequest* request,
      v1::ListPapersResponse* response) override;
  grpc::ServerUnaryReactor* SearchPapers(
      grpc::CallbackServerContext* context,
      const v1::SearchPapersRequest* request,
      v1::SearchPapersResponse* response) override;
  grpc::ServerUnaryReactor* SimilarPapers(
      grpc::CallbackServerContext* context,
      const v1::SimilarPapersRequest* request,
      v1::SimilarPapersResponse* response) override;

 private:
  absl::Status Authorize(const grpc::ServerContextBase& context) const;
  // Runs `search` on options_.search_pool (or here) and finishes the call
  // with its status.
  grpc::ServerUnaryReactor* RunSearch(
      grpc::CallbackServerContext* context,
      absl::AnyInvocable<grpc::Status() &&> search);
  // Authorizes, then runs `call` with a cancel function that fires when
  // the client leaves or --max_search_ms passes; the latter becomes
  // DEADLINE_EXCEEDED naming `what` ("search") and ending with `hint`.
  grpc::Status WithSearchLimit(
      grpc::CallbackServerContext& context, absl::string_view what,
      absl::string_view hint,
      const std::function<absl::Status(const search::CancelFn&)>& call);

  const QueryEngine* engine_;  // Not owned.
  const QueryServiceOptions options_;
  std::atomic<int> running_inline_{0};  // Searches on gRPC's threads.
};

}  // namespace paperdb::query

#endif  // PAPERDB_QUERY_SERVICE_QUERY_SERVICE_IMPL_H_
