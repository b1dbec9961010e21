#include "query_service/query_service_impl.h"

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/rpc/grpc_status.h"
#include "query_service/read_mask.h"

namespace paperdb::query {

using rpc::ToGrpcStatus;

QueryServiceImpl::QueryServiceImpl(const QueryEngine* engine,
                                   QueryServiceOptions options)
    : own_slot_(std::make_unique<EngineSlot>(
          // Not owned: the shared_ptr deletes nothing.
          std::shared_ptr<const QueryEngine>(engine,
                                             [](const QueryEngine*) {}))),
      slot_(own_slot_.get()),
      options_(options) {
  RegisterCheckedRequests();
}

QueryServiceImpl::QueryServiceImpl(const EngineSlot* slot,
                                   QueryServiceOptions options)
    : slot_(slot), options_(options) {
  RegisterCheckedRequests();
}

void QueryServiceImpl::RegisterCheckedRequests() {
  CheckRequests<v1::GetPaperRequest, v1::Paper>(
      0, "/paperdb.v1.QueryService/GetPaper",
      [this](grpc::ServerContext* c, const v1::GetPaperRequest* r,
             v1::Paper* p) { return GetPaper(c, r, p); });
  CheckRequests<v1::BatchGetPapersRequest, v1::BatchGetPapersResponse>(
      1, "/paperdb.v1.QueryService/BatchGetPapers",
      [this](grpc::ServerContext* c, const v1::BatchGetPapersRequest* r,
             v1::BatchGetPapersResponse* p) {
        return BatchGetPapers(c, r, p);
      });
  CheckRequests<v1::ListPapersRequest, v1::ListPapersResponse>(
      2, "/paperdb.v1.QueryService/ListPapers",
      [this](grpc::ServerContext* c, const v1::ListPapersRequest* r,
             v1::ListPapersResponse* p) { return ListPapers(c, r, p); });
  CheckRequests<v1::SearchPapersRequest, v1::SearchPapersResponse>(
      3, "/paperdb.v1.QueryService/SearchPapers",
      [this](grpc::ServerContext* c, const v1::SearchPapersRequest* r,
             v1::SearchPapersResponse* p) { return SearchPapers(c, r, p); });
  CheckRequests<v1::SimilarPapersRequest, v1::SimilarPapersResponse>(
      4, "/paperdb.v1.QueryService/SimilarPapers",
      [this](grpc::ServerContext* c, const v1::SimilarPapersRequest* r,
             v1::SimilarPapersResponse* p) { return SimilarPapers(c, r, p); });
}

absl::StatusOr<std::shared_ptr<const QueryEngine>> QueryServiceImpl::Admit(
    const grpc::ServerContext& context) const {
  if (options_.authenticator != nullptr) {
    PAPERDB_RETURN_IF_ERROR(
        options_.authenticator->Authorize(context, rpc::Scope::kRead));
  }
  std::shared_ptr<const QueryEngine> engine = slot_->Get();
  if (engine == nullptr) {
    return absl::UnavailableError(
        "no store to serve yet: waiting for the first complete checkpoint");
  }
  PAPERDB_RETURN_IF_ERROR(engine->Available());
  return engine;
}

grpc::Status QueryServiceImpl::GetPaper(grpc::ServerContext* context,
                                        const v1::GetPaperRequest* request,
                                        v1::Paper* response) {
  auto engine = Admit(*context);
  if (!engine.ok()) return ToGrpcStatus(engine.status());
  if (absl::Status mask = CheckPaperMask(request->read_mask()); !mask.ok()) {
    return ToGrpcStatus(mask);
  }
  absl::StatusOr<v1::Paper> paper = (*engine)->GetPaper(
      request->name(), PaperRecordFields(request->read_mask()));
  if (!paper.ok()) return ToGrpcStatus(paper.status());
  *response = *std::move(paper);
  PaperTrimmer(request->read_mask()).Trim(response);
  return grpc::Status::OK;
}

grpc::Status QueryServiceImpl::BatchGetPapers(
    grpc::ServerContext* context, const v1::BatchGetPapersRequest* request,
    v1::BatchGetPapersResponse* response) {
  auto engine = Admit(*context);
  if (!engine.ok()) return ToGrpcStatus(engine.status());
  return ToGrpcStatus((*engine)->BatchGetPapers(*request, response));
}

grpc::Status QueryServiceImpl::ListPapers(grpc::ServerContext* context,
                                          const v1::ListPapersRequest* request,
                                          v1::ListPapersResponse* response) {
  auto engine = Admit(*context);
  if (!engine.ok()) return ToGrpcStatus(engine.status());
  return ToGrpcStatus((*engine)->ListPapers(*request, response));
}

grpc::Status QueryServiceImpl::SearchPapers(
    grpc::ServerContext* context, const v1::SearchPapersRequest* request,
    v1::SearchPapersResponse* response) {
  return WithSearchLimit(
      *context, "search", " (--max_search_ms); try fewer or rarer terms",
      [&](const QueryEngine& engine, const search::CancelFn& cancelled) {
        return engine.SearchPapers(*request, response, cancelled);
      });
}

grpc::Status QueryServiceImpl::SimilarPapers(
    grpc::ServerContext* context, const v1::SimilarPapersRequest* request,
    v1::SimilarPapersResponse* response) {
  return WithSearchLimit(
      *context, "similar papers", " (--max_search_ms)",
      [&](const QueryEngine& engine, const search::CancelFn& cancelled) {
        return engine.SimilarPapers(*request, response, cancelled);
      });
}

grpc::Status QueryServiceImpl::WithSearchLimit(
    const grpc::ServerContext& context, absl::string_view what,
    absl::string_view hint,
    const std::function<absl::Status(const QueryEngine&,
                                     const search::CancelFn&)>& call) {
  auto engine = Admit(context);
  if (!engine.ok()) return ToGrpcStatus(engine.status());
  // A sync server's IsCancelled() polls the call's completion queue, a
  // futex wait that cost a third of a small search's time under load
  // (docs/performance.md), so it is asked at most every few milliseconds.
  constexpr absl::Duration kCancelPollInterval = absl::Milliseconds(5);
  const absl::Time start = absl::Now();
  const absl::Time give_up = start + options_.max_search_time;
  absl::Time next_poll = start + kCancelPollInterval;
  bool timed_out = false;
  const absl::Status status = call(**engine, [&] {
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
