#include "ingest_service/ingest_metrics.h"

namespace paperdb::ingest {

IngestMetrics::IngestMetrics(rpc::ServerMetrics* metrics,
                             const index::IndexWriter* writer,
                             const storage::Store* store)
    : writer_(writer),
      store_(store),
      files_(prometheus::BuildCounter()
                 .Name("paperdb_ingest_files_total")
                 .Help("IngestFile calls, by result")
                 .Register(metrics->registry())),
      paragraphs_(prometheus::BuildCounter()
                      .Name("paperdb_ingest_paragraphs_total")
                      .Help("Paragraphs of stored files, by outcome")
                      .Register(metrics->registry())),
      bytes_(prometheus::BuildCounter()
                 .Name("paperdb_ingest_bytes_total")
                 .Help("Bytes of the files stored")
                 .Register(metrics->registry())
                 .Add({})),
      documents_(prometheus::BuildGauge()
                     .Name("paperdb_documents")
                     .Help("Papers in the store")
                     .Register(metrics->registry())
                     .Add({})),
      store_bytes_(
          prometheus::BuildGauge()
              .Name("paperdb_store_bytes")
              .Help("Bytes of the store's data: SST files and memtables")
              .Register(metrics->registry())
              .Add({})),
      in_progress_(prometheus::BuildGauge()
                       .Name("paperdb_ingest_files_in_progress")
                       .Help("IngestFile calls accepted and not yet answered")
                       .Register(metrics->registry())
                       .Add({})) {
  UpdateGauges();
}

void IngestMetrics::FileStored(const v1::IngestFileResponse& response,
                               size_t bytes) {
  files_.Add({{"result", "stored"}}).Increment();
  paragraphs_.Add({{"outcome", "added"}}).Increment(response.added());
  paragraphs_.Add({{"outcome", "updated"}}).Increment(response.updated());
  paragraphs_.Add({{"outcome", "unchanged"}}).Increment(response.unchanged());
  paragraphs_.Add({{"outcome", "removed"}}).Increment(response.removed());
  paragraphs_.Add({{"outcome", "skipped"}}).Increment(response.skipped());
  paragraphs_.Add({{"outcome", "rejected"}}).Increment(response.rejected());
  bytes_.Increment(static_cast<double>(bytes));
  UpdateGauges();
}

void IngestMetrics::FileRefused() {
  files_.Add({{"result", "refused"}}).Increment();
}

void IngestMetrics::CallStarted() { in_progress_.Increment(); }

void IngestMetrics::CallEnded() { in_progress_.Decrement(); }

void IngestMetrics::UpdateGauges() {
  documents_.Set(static_cast<double>(writer_->stats().doc_count()));
  store_bytes_.Set(static_cast<double>(store_->DataBytes()));
}

}  // namespace paperdb::ingest
