#include "query_service/query_service_impl.h"

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "paperdb/rpc/grpc_status.h"

namespace paperdb::query {

using rpc::ToGrpcStatus;

namespace {

grpc::ServerUnaryReactor* Finish(grpc::CallbackServerContext* context,
                                 const grpc::Status& status) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  reactor->Finish(status);
  return reactor;
}

}  // namespace

absl::Status QueryServiceImpl::Authorize(
    const grpc::ServerContextBase& context) const {
  if (options_.authenticator == nullptr) return absl::OkStatus();
  return options_.authenticator->Authorize(context, rpc::Scope::kRead);
}

grpc::ServerUnaryReactor* QueryServiceImpl::GetPaper(
    grpc::CallbackServerContext* context, const v1::GetPaperRequest* request,
    v1::Paper* response) {
  if (absl::Status auth = Authorize(*context); !auth.ok()) {
    return Finish(context, ToGrpcStatus(auth));
  }
  absl::StatusOr<v1::Paper> paper = engine_->GetPaper(request->name());
  if (!paper.ok()) return Finish(context, ToGrpcStatus(paper.status()));
  *response = *std::move(paper);
  return Finish(context, grpc::Status::OK);
}

grpc::ServerUnaryReactor* QueryServiceImpl::BatchGetPapers(
    grpc::CallbackServerContext* context,
    const v1::BatchGetPapersRequest* request,
    v1::BatchGetPapersResponse* response) {
  if (absl::Status auth = Authorize(*context); !auth.ok()) {
    return Finish(context, ToGrpcStatus(auth));
  }
  return Finish(context,
                ToGrpcStatus(engine_->BatchGetPapers(*request, response)));
}

grpc::ServerUnaryReactor* QueryServiceImpl::ListPapers(
    grpc::CallbackServerContext* context, const v1::ListPapersRequest* request,
    v1::ListPapersResponse* response) {
  if (absl::Status auth = Authorize(*context); !auth.ok()) {
    return Finish(context, ToGrpcStatus(auth));
  }
  return Finish(context, ToGrpcStatus(engine_->ListPapers(*request, response)));
}

grpc::ServerUnaryReactor* QueryServiceImpl::SearchPapers(
    grpc::CallbackServerContext* context,
    const v1::SearchPapersRequest* request,
    v1::SearchPapersResponse* response) {
  return RunSearch(context, [this, context, request, response] {
    return WithSearchLimit(
        *context, "search", " (--max_search_ms); try fewer or rarer terms",
        [&](const search::CancelFn& cancelled) {
          return engine_->SearchPapers(*request, response, cancelled);
        });
  });
}

grpc::ServerUnaryReactor* QueryServiceImpl::SimilarPapers(
    grpc::CallbackServerContext* context,
    const v1::SimilarPapersRequest* request,
    v1::SimilarPapersResponse* response) {
  return RunSearch(context, [this, context, request, response] {
    return WithSearchLimit(*context, "similar papers", " (--max_search_ms)",
                           [&](const search::CancelFn& cancelled) {
                             return engine_->SimilarPapers(*request, response,
                                                           cancelled);
                           });
  });
}

grpc::ServerUnaryReactor* QueryServiceImpl::RunSearch(
    grpc::CallbackServerContext* context,
    absl::AnyInvocable<grpc::Status() &&> search) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  auto run = [reactor, search = std::move(search)]() mutable {
    reactor->Finish(std::move(search)());
  };
  if (options_.search_pool == nullptr) {
    run();
  } else if (running_inline_.fetch_add(1, std::memory_order_relaxed) <
             options_.inline_searches) {
    run();
    running_inline_.fetch_sub(1, std::memory_order_relaxed);
  } else {
    running_inline_.fetch_sub(1, std::memory_order_relaxed);
    options_.search_pool->Schedule(std::move(run));
  }
  return reactor;
}

grpc::Status QueryServiceImpl::WithSearchLimit(
    grpc::CallbackServerContext& context, absl::string_view what,
    absl::string_view hint,
    const std::function<absl::Status(const search::CancelFn&)>& call) {
  if (absl::Status auth = Authorize(context); !auth.ok()) {
    return ToGrpcStatus(auth);
  }
  // IsCancelled() takes a lock (on a sync server it even polled the call's
  // completion queue, a third of a small search's time under load:
  // docs/performance.md), so it is asked at most every few milliseconds.
  constexpr absl::Duration kCancelPollInterval = absl::Milliseconds(5);
  const absl::Time start = absl::Now();
  const absl::Time give_up = start + options_.max_search_time;
  absl::Time next_poll = start + kCancelPollInterval;
  bool timed_out = false;
  const absl::Status status = call([&] {
    const absl::Time now = absl::Now();
    timed_out = now > give_up;
    if (timed_out) return true;
    if (now < next_poll) return false;
    next_poll = now + kCancelPollInterval;
    return context.IsCancelled();
  });
  if (absl::IsCancelled(status) && timed_out) {
    return ToGrpcStatus(absl::DeadlineExceededError(
        absl::StrCat(what, " took longer than the server's limit of ",
                     absl::FormatDuration(options_.max_search_time), hint)));
  }
  return ToGrpcStatus(status);
}

}  // namespace paperdb::query
