#include "ingest_service/ingest_service_impl.h"

#include <algorithm>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "ingest_service/ingest_file_reactor.h"
#include "paperdb/common/error_details.h"
#include "paperdb/common/free_memory.h"
#include "paperdb/common/page_token.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/rpc/grpc_status.h"
#include "paperdb/rpc/list_page_state.h"
#include "paperdb/rpc/paper_name.h"
#include "paperdb/storage/paper_table.h"

namespace paperdb::ingest {
namespace {}  // namespace

absl::Status IngestServiceImpl::Authorize(
    const grpc::ServerContextBase& context, rpc::Scope scope) const {
  if (options_.authenticator == nullptr) return absl::OkStatus();
  return options_.authenticator->Authorize(context, scope);
}

IngestServiceImpl::IngestServiceImpl(Ingester* ingester,
                                     index::IndexWriter* writer,
                                     const storage::Store* store,
                                     IngestServiceOptions options)
    : ingester_(ingester), writer_(writer), store_(store), options_(options) {
  CheckRequests<v1::DeletePaperRequest, v1::DeletePaperResponse>(
      1, "/paperdb.v1.IngestService/DeletePaper",
      [this](grpc::ServerContext* c, const v1::DeletePaperRequest* r,
             v1::DeletePaperResponse* p) { return DeletePaper(c, r, p); });
  CheckRequests<v1::DeleteSourceRequest, v1::DeleteSourceResponse>(
      2, "/paperdb.v1.IngestService/DeleteSource",
      [this](grpc::ServerContext* c, const v1::DeleteSourceRequest* r,
             v1::DeleteSourceResponse* p) { return DeleteSource(c, r, p); });
  CheckRequests<v1::ListSourcesRequest, v1::ListSourcesResponse>(
      3, "/paperdb.v1.IngestService/ListSources",
      [this](grpc::ServerContext* c, const v1::ListSourcesRequest* r,
             v1::ListSourcesResponse* p) { return ListSources(c, r, p); });
}

grpc::ServerReadReactor<grpc::ByteBuffer>* IngestServiceImpl::IngestFile(
    grpc::CallbackServerContext* context, grpc::ByteBuffer* response) {
  absl::Status refusal = Authorize(*context, rpc::Scope::kWrite);
  const int running = running_ingests_.fetch_add(1) + 1;
  if (refusal.ok() && running > options_.max_concurrent_ingests) {
    refusal = WithReason(
        absl::ResourceExhaustedError(absl::StrCat(
            options_.max_concurrent_ingests,
            " ingests are running already (--max_concurrent_ingests); retry "
            "later")),
        "TOO_MANY_INGESTS");
  }
  return new IngestFileReactor(context, response, ingester_,
                               options_.max_ingest_time,
                               options_.max_upload_idle_time, &running_ingests_,
                               &watchdog_, options_.metrics, refusal);
}

grpc::Status IngestServiceImpl::DeletePaper(
    grpc::ServerContext* context, const v1::DeletePaperRequest* request,
    v1::DeletePaperResponse* response) {
  if (absl::Status auth = Authorize(*context, rpc::Scope::kWrite); !auth.ok()) {
    return rpc::ToGrpcStatus(auth);
  }
  absl::StatusOr<std::string> id = rpc::PaperIdFromName(request->name());
  if (!id.ok()) return rpc::ToGrpcStatus(id.status());
  absl::StatusOr<index::DeletePaperResult> result = writer_->DeletePaper(*id);
  if (!result.ok()) return rpc::ToGrpcStatus(result.status());
  if (options_.metrics != nullptr) options_.metrics->UpdateGauges();
  response->set_paper_id(result->paper_id);
  for (std::string& file : result->file_names) {
    response->add_file_names(std::move(file));
  }
  return grpc::Status::OK;
}

grpc::Status IngestServiceImpl::DeleteSource(
    grpc::ServerContext* context, const v1::DeleteSourceRequest* request,
    v1::DeleteSourceResponse* response) {
  if (absl::Status auth = Authorize(*context, rpc::Scope::kWrite); !auth.ok()) {
    return rpc::ToGrpcStatus(auth);
  }
  if (request->file_name().empty()) {
    return rpc::ToGrpcStatus(WithField(
        absl::InvalidArgumentError("file_name is required"), "file_name"));
  }
  absl::StatusOr<index::DeleteSourceResult> result =
      writer_->DeleteSource(request->file_name());
  ReleaseFreeMemory();  // The delete's batch can be as large as the file's.
  if (!result.ok()) return rpc::ToGrpcStatus(result.status());
  if (options_.metrics != nullptr) options_.metrics->UpdateGauges();
  response->set_papers_deleted(result->papers_deleted);
  response->set_papers_kept(result->papers_kept);
  return grpc::Status::OK;
}

grpc::Status IngestServiceImpl::ListSources(
    grpc::ServerContext* context, const v1::ListSourcesRequest* request,
    v1::ListSourcesResponse* response) {
  if (absl::Status auth = Authorize(*context, rpc::Scope::kRead); !auth.ok()) {
    return rpc::ToGrpcStatus(auth);
  }
  if (request->page_size() < 0) {
    return rpc::ToGrpcStatus(WithField(
        absl::InvalidArgumentError(absl::StrCat(
            "page_size must not be negative, got ", request->page_size())),
        "page_size"));
  }
  const size_t page_size =
      request->page_size() == 0 ? 50 : std::min(request->page_size(), 1000);
  // A keyset cursor: the file name the next page starts after.
  storage::v1::ListPageState state;
  if (!request->page_token().empty()) {
    absl::StatusOr<PageCursor> cursor =
        DecodePageCursor(request->page_token(), "sources", 0);
    if (!cursor.ok()) return rpc::ToGrpcStatus(cursor.status());
    absl::StatusOr<storage::v1::ListPageState> decoded =
        rpc::DecodeListPageState(cursor->state);
    if (!decoded.ok()) return rpc::ToGrpcStatus(decoded.status());
    if (decoded->after_name().empty()) {
      return rpc::ToGrpcStatus(absl::InvalidArgumentError(
          "page_token: not a token issued by this service (no cursor); start "
          "again from the first page"));
    }
    state = *std::move(decoded);
  }
  size_t total = 0;
  storage::PaperTable table(store_);
  // One more than the page: whether a next page exists.
  absl::StatusOr<std::vector<v1::SourceFile>> sources =
      table.ListSources(state.after_name(), page_size + 1, &total);
  if (!sources.ok()) return rpc::ToGrpcStatus(sources.status());
  const bool more = sources->size() > page_size;
  if (more) sources->pop_back();
  for (v1::SourceFile& source : *sources) {
    *response->add_sources() = std::move(source);
  }
  response->set_total_size(static_cast<int64_t>(total));
  if (request->page_token().empty()) {
    state.set_first_total_size(response->total_size());
  } else {
    response->set_total_size_changed(state.first_total_size() !=
                                     response->total_size());
  }
  if (more) {
    state.set_after_name(response->sources().rbegin()->file_name());
    response->set_next_page_token(EncodePageToken(
        "sources", 0, PageCursor{0, state.SerializeAsString()}));
  }
  return grpc::Status::OK;
}

}  // namespace paperdb::ingest
