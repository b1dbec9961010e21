// Store::CreateCheckpoint (store.h): RocksDB's Checkpoint utility.

#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "paperdb/storage/rocksdb_status.h"
#include "paperdb/storage/store.h"
#include "rocksdb/db.h"
#include "rocksdb/utilities/checkpoint.h"

namespace paperdb::storage {

absl::StatusOr<uint64_t> Store::CreateCheckpoint(const std::string& dir) const {
  rocksdb::Checkpoint* raw = nullptr;
  rocksdb::Status s = rocksdb::Checkpoint::Create(db_.get(), &raw);
  std::unique_ptr<rocksdb::Checkpoint> checkpoint(raw);
  if (!s.ok()) {
    return FromRocksDbStatus(s, absl::StrCat("checkpoint of store ", path_));
  }
  uint64_t sequence = 0;
  // log_size_for_flush 0: always flush memtables, so the checkpoint holds
  // its data in SST files rather than in a write-ahead log to replay.
  s = checkpoint->CreateCheckpoint(dir, /*log_size_for_flush=*/0, &sequence);
  if (!s.ok()) {
    return FromRocksDbStatus(
        s, absl::StrCat("checkpoint of store ", path_, " into ", dir));
  }
  return sequence;
}

}  // namespace paperdb::storage
