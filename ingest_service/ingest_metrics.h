// Prometheus metrics of the ingest service (registered in the server's
// ServerMetrics registry, paperdb/rpc/metrics.h):
//   paperdb_ingest_files_total{result="stored"|"refused"}
//   paperdb_ingest_paragraphs_total{outcome="added"|"updated"|"unchanged"|
//                                   "removed"|"skipped"|"rejected"}
//   paperdb_ingest_bytes_total        bytes of files stored
//   paperdb_ingest_files_in_progress  IngestFile calls accepted and not yet
//                                     answered (uploading or ingesting)
//   paperdb_documents                 papers in the store
//   paperdb_store_bytes           bytes of the store's data (SST files,
//   memtables)
//
// Thread safety: all methods may be called concurrently.

#ifndef PAPERDB_INGEST_SERVICE_INGEST_METRICS_H_
#define PAPERDB_INGEST_SERVICE_INGEST_METRICS_H_

#include <cstddef>

#include "paperdb/index/index_writer.h"
#include "paperdb/rpc/metrics.h"
#include "paperdb/storage/store.h"
#include "paperdb/v1/ingest_service.pb.h"

namespace paperdb::ingest {

class IngestMetrics {
 public:
  // `metrics`, `writer` and `store` must outlive this object.
  IngestMetrics(rpc::ServerMetrics* metrics, const index::IndexWriter* writer,
                const storage::Store* store);

  // A file of `bytes` bytes was stored with `response`.
  void FileStored(const v1::IngestFileResponse& response, size_t bytes);
  // A file was refused (bad input, limits, cancellation, store error).
  void FileRefused();
  // An accepted IngestFile call began, or ended (answered or cancelled).
  void CallStarted();
  void CallEnded();
  // Refreshes the document and size gauges (after a delete, say).
  void UpdateGauges();

 private:
  const index::IndexWriter* writer_;
  const storage::Store* store_;
  prometheus::Family<prometheus::Counter>& files_;
  prometheus::Family<prometheus::Counter>& paragraphs_;
  prometheus::Counter& bytes_;
  prometheus::Gauge& documents_;
  prometheus::Gauge& store_bytes_;
  prometheus::Gauge& in_progress_;
};

}  // namespace paperdb::ingest

#endif  // PAPERDB_INGEST_SERVICE_INGEST_METRICS_H_
