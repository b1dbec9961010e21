#include "ingest_service/ingest_service_impl.h"

#include <algorithm>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "paperdb/common/page_token.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/rpc/grpc_status.h"
#include "paperdb/storage/paper_table.h"

namespace paperdb::ingest {
namespace {

// Counts a running call for as long as it lives.
class RunningCall {
 public:
  explicit RunningCall(std::atomic<int>* running) : running_(running) {
    count_ = running_->fetch_add(1) + 1;
  }
  ~RunningCall() { running_->fetch_sub(1); }
  int count() const { return count_; }

 private:
  std::atomic<int>* running_;
  int count_;
};

absl::Status ReadStream(grpc::ServerReader<v1::IngestFileRequest>* reader,
                        size_t max_file_bytes, std::string* file_name,
                        std::string* content) {
  v1::IngestFileRequest message;
  int64_t index = 0;
  for (; reader->Read(&message); ++index) {
    if (index == 0) {
      if (message.file_name().empty()) {
        return absl::InvalidArgumentError(
            "the first IngestFileRequest must set file_name");
      }
      *file_name = message.file_name();
      PAPERDB_RETURN_IF_ERROR(ValidateFileName(*file_name));
    } else if (!message.file_name().empty() &&
               message.file_name() != *file_name) {
      return absl::InvalidArgumentError(absl::StrCat(
          "message ", index + 1, " of the stream names file \"",
          absl::CHexEscape(message.file_name()), "\"; the stream is for \"",
          absl::CHexEscape(*file_name), "\""));
    }
    if (message.content().size() > max_file_bytes - content->size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          *file_name, ": file is larger than the limit of ", max_file_bytes,
          " bytes (--max_file_mib); stopped reading at byte ",
          content->size()));
    }
    content->append(message.content());
  }
  if (index == 0) {
    return absl::InvalidArgumentError(
        "IngestFile stream is empty: the first message must set file_name");
  }
  return absl::OkStatus();
}

// The paper id in `name`: "papers/{id}" or a bare id.
absl::string_view PaperIdOf(absl::string_view name) {
  absl::ConsumePrefix(&name, "papers/");
  return name;
}

}  // namespace

absl::Status IngestServiceImpl::Authorize(const grpc::ServerContext& context,
                                          rpc::Scope scope) const {
  if (options_.authenticator == nullptr) return absl::OkStatus();
  return options_.authenticator->Authorize(context, scope);
}

grpc::Status IngestServiceImpl::IngestFile(
    grpc::ServerContext* context,
    grpc::ServerReader<v1::IngestFileRequest>* reader,
    v1::IngestFileResponse* response) {
  if (absl::Status auth = Authorize(*context, rpc::Scope::kWrite); !auth.ok()) {
    return rpc::ToGrpcStatus(auth);
  }
  RunningCall call(&running_ingests_);
  if (call.count() > options_.max_concurrent_ingests) {
    return rpc::ToGrpcStatus(absl::ResourceExhaustedError(absl::StrCat(
        options_.max_concurrent_ingests,
        " ingests are running already (--max_concurrent_ingests); retry "
        "later")));
  }
  const absl::Time give_up = absl::Now() + options_.max_ingest_time;
  std::string file_name;
  std::string content;
  if (absl::Status read = ReadStream(
          reader, ingester_->options().max_file_bytes, &file_name, &content);
      !read.ok()) {
    return rpc::ToGrpcStatus(read);
  }
  if (context->IsCancelled()) {
    return rpc::ToGrpcStatus(absl::CancelledError(absl::StrCat(
        file_name,
        ": the client left before sending the whole file; nothing stored")));
  }
  bool timed_out = false;
  const CancelledFn cancelled = [&] {
    timed_out = absl::Now() > give_up;
    return timed_out || context->IsCancelled();
  };
  absl::StatusOr<v1::IngestFileResponse> result =
      ingester_->IngestContent(file_name, content, cancelled);
  if (absl::IsCancelled(result.status()) && timed_out) {
    return rpc::ToGrpcStatus(absl::DeadlineExceededError(absl::StrCat(
        file_name, ": ingest took longer than the server's limit of ",
        absl::FormatDuration(options_.max_ingest_time), "; nothing stored")));
  }
  if (!result.ok()) return rpc::ToGrpcStatus(result.status());
  *response = std::move(*result);
  return grpc::Status::OK;
}

grpc::Status IngestServiceImpl::DeletePaper(
    grpc::ServerContext* context, const v1::DeletePaperRequest* request,
    v1::DeletePaperResponse* response) {
  if (absl::Status auth = Authorize(*context, rpc::Scope::kWrite); !auth.ok()) {
    return rpc::ToGrpcStatus(auth);
  }
  const absl::string_view id = PaperIdOf(request->name());
  if (id.empty()) {
    return rpc::ToGrpcStatus(absl::InvalidArgumentError(
        "name is required: \"papers/{id}\" or a bare id"));
  }
  absl::StatusOr<index::DeletePaperResult> result = writer_->DeletePaper(id);
  if (!result.ok()) return rpc::ToGrpcStatus(result.status());
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
    return rpc::ToGrpcStatus(
        absl::InvalidArgumentError("file_name is required"));
  }
  absl::StatusOr<index::DeleteSourceResult> result =
      writer_->DeleteSource(request->file_name());
  if (!result.ok()) return rpc::ToGrpcStatus(result.status());
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
    return rpc::ToGrpcStatus(absl::InvalidArgumentError(absl::StrCat(
        "page_size must not be negative, got ", request->page_size())));
  }
  const size_t page_size =
      request->page_size() == 0 ? 50 : std::min(request->page_size(), 1000);
  uint64_t skip = 0;
  if (!request->page_token().empty()) {
    absl::StatusOr<uint64_t> position =
        DecodePageToken(request->page_token(), "sources", 0);
    if (!position.ok()) return rpc::ToGrpcStatus(position.status());
    skip = *position;
  }
  size_t total = 0;
  storage::PaperTable table(store_);
  absl::StatusOr<std::vector<v1::SourceFile>> sources =
      table.ListSources(skip, page_size, &total);
  if (!sources.ok()) return rpc::ToGrpcStatus(sources.status());
  for (v1::SourceFile& source : *sources) {
    *response->add_sources() = std::move(source);
  }
  response->set_total_size(static_cast<int32_t>(total));
  if (skip + sources->size() < total) {
    response->set_next_page_token(
        EncodePageToken("sources", 0, skip + sources->size()));
  }
  return grpc::Status::OK;
}

}  // namespace paperdb::ingest
