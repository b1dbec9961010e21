// The IngestFile call: a client stream of IngestFileRequest messages read as
// raw bytes and parsed here, so that a message that does not parse (a
// file_name that is not UTF-8, corrupt bytes) fails the call with
// INVALID_ARGUMENT. gRPC's generated synchronous reader would report such a
// message as the end of the stream, and the file received so far would be
// stored as if complete.
//
// gRPC callback API: reactions never block. Once the stream ends, the file is
// ingested on a thread of its own (there are at most
// IngestServiceOptions::max_concurrent_ingests), which then finishes the
// call. The reactor deletes itself when the call is done.

#ifndef PAPERDB_INGEST_SERVICE_INGEST_FILE_REACTOR_H_
#define PAPERDB_INGEST_SERVICE_INGEST_FILE_REACTOR_H_

#include <atomic>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/impl/codegen/proto_utils.h"
#include "grpcpp/support/server_callback.h"
#include "ingest_service/ingester.h"

namespace paperdb::ingest {

class IngestFileReactor final
    : public grpc::ServerReadReactor<grpc::ByteBuffer> {
 public:
  // Starts the call: finishes it at once with `refusal` if that is not OK
  // (authentication, concurrency), else reads the stream. `running` counts
  // calls in progress; the reactor holds one count until it is done.
  // Every pointer must outlive the call.
  IngestFileReactor(grpc::CallbackServerContext* context,
                    grpc::ByteBuffer* response, Ingester* ingester,
                    absl::Duration max_ingest_time, std::atomic<int>* running,
                    const absl::Status& refusal);

  void OnReadDone(bool ok) override;
  void OnDone() override;

 private:
  // Parses and checks the message just read.
  absl::Status Accept();
  // On its own thread: ingests the file and finishes the call.
  void IngestAndFinish();
  void FinishWith(const absl::Status& status);

  grpc::CallbackServerContext* const context_;
  grpc::ByteBuffer* const response_;
  Ingester* const ingester_;
  const absl::Duration max_ingest_time_;
  const absl::Time start_;
  std::atomic<int>* const running_;

  grpc::ByteBuffer message_;
  int64_t messages_ = 0;
  std::string file_name_;
  std::string content_;
  std::thread worker_;  // Detached: it finishes the call and touches
                        // nothing after Finish().
};

}  // namespace paperdb::ingest

#endif  // PAPERDB_INGEST_SERVICE_INGEST_FILE_REACTOR_H_
