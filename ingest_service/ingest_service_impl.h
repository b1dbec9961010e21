// gRPC handlers of paperdb.v1.IngestService: thin wrappers over Ingester and
// IndexWriter that receive streamed files, enforce limits and map errors to
// gRPC status codes.
//
// Thread safety: handlers may run concurrently; the IndexWriter serializes
// the commits.

#ifndef PAPERDB_INGEST_SERVICE_INGEST_SERVICE_IMPL_H_
#define PAPERDB_INGEST_SERVICE_INGEST_SERVICE_IMPL_H_

#include <atomic>

#include "absl/time/time.h"
#include "ingest_service/ingest_file_reactor.h"
#include "ingest_service/ingest_metrics.h"
#include "ingest_service/ingester.h"
#include "paperdb/index/index_writer.h"
#include "paperdb/rpc/auth.h"
#include "paperdb/rpc/request_check.h"
#include "paperdb/storage/store.h"
#include "paperdb/v1/ingest_service.grpc.pb.h"

namespace paperdb::ingest {

struct IngestServiceOptions {
  // IngestFile calls running at once; more get RESOURCE_EXHAUSTED. With the
  // file size limit this bounds the memory ingest can take: each running
  // call peaks at about 23 times its file.
  int max_concurrent_ingests = 2;
  // Longest an IngestFile call may take, from its first message to its
  // commit, when the client sets no earlier deadline.
  absl::Duration max_ingest_time = absl::Minutes(10);
  // Longest an upload may go without a message before it is ended (an
  // idle client must not hold an ingest slot for max_ingest_time).
  absl::Duration max_upload_idle_time = absl::Minutes(1);
  // Checks calls: write scope for IngestFile, DeletePaper and DeleteSource,
  // read scope for ListSources; null: every call is allowed. Not owned.
  const rpc::Authenticator* authenticator = nullptr;
  // Counts files and paragraphs; null: no metrics. Not owned.
  IngestMetrics* metrics = nullptr;
};

// IngestFile is served through the callback API on raw bytes
// (ingest_file_reactor.h); the other methods are synchronous, their
// requests read by rpc::CheckedRequestTraits (INVALID_ARGUMENT naming the
// field and byte of a malformed one).
class IngestServiceImpl final
    : public rpc::WithCheckedRequests<
          v1::IngestService::WithRawCallbackMethod_IngestFile<
              v1::IngestService::Service>> {
 public:
  // Every pointer must outlive the service; `store` is the primary that
  // `writer` writes and `ingester` commits through `writer`.
  IngestServiceImpl(Ingester* ingester, index::IndexWriter* writer,
                    const storage::Store* store,
                    IngestServiceOptions options = {});

  // Reads the stream (first message names the file), then ingests the file.
  // Errors as documented in ingest_service.proto.
  grpc::ServerReadReactor<grpc::ByteBuffer>* IngestFile(
      grpc::CallbackServerContext* context,
      grpc::ByteBuffer* response) override;

  // INVALID_ARGUMENT for an empty name, NOT_FOUND for an unknown paper.
  grpc::Status DeletePaper(grpc::ServerContext* context,
                           const v1::DeletePaperRequest* request,
                           v1::DeletePaperResponse* response) override;

  // INVALID_ARGUMENT for an empty name, NOT_FOUND for an unknown file.
  grpc::Status DeleteSource(grpc::ServerContext* context,
                            const v1::DeleteSourceRequest* request,
                            v1::DeleteSourceResponse* response) override;

  // INVALID_ARGUMENT for a negative page_size or a bad page_token.
  grpc::Status ListSources(grpc::ServerContext* context,
                           const v1::ListSourcesRequest* request,
                           v1::ListSourcesResponse* response) override;

 private:
  absl::Status Authorize(const grpc::ServerContextBase& context,
                         rpc::Scope scope) const;

  Ingester* ingester_;           // Not owned.
  index::IndexWriter* writer_;   // Not owned.
  const storage::Store* store_;  // Not owned.
  const IngestServiceOptions options_;
  std::atomic<int> running_ingests_{0};
  UploadWatchdog watchdog_;
};

}  // namespace paperdb::ingest

#endif  // PAPERDB_INGEST_SERVICE_INGEST_SERVICE_IMPL_H_
