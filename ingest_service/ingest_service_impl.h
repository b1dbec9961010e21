// gRPC handlers of paperdb.v1.IngestService: thin wrappers over Ingester.
//
// Thread safety: handlers may run concurrently.

#ifndef PAPERDB_INGEST_SERVICE_INGEST_SERVICE_IMPL_H_
#define PAPERDB_INGEST_SERVICE_INGEST_SERVICE_IMPL_H_

#include "ingest_service/ingester.h"
#include "paperdb/v1/ingest_service.grpc.pb.h"

namespace paperdb::ingest {

class IngestServiceImpl final : public v1::IngestService::Service {
 public:
  // `ingester` must outlive the service.
  explicit IngestServiceImpl(Ingester* ingester) : ingester_(ingester) {}

  // INVALID_ARGUMENT for an empty file_name or a malformed file.
  grpc::Status IngestFile(grpc::ServerContext* context,
                          const v1::IngestFileRequest* request,
                          v1::IngestFileResponse* response) override;

 private:
  Ingester* ingester_;  // Not owned.
};

}  // namespace paperdb::ingest

#endif  // PAPERDB_INGEST_SERVICE_INGEST_SERVICE_IMPL_H_
