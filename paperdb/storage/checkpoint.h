// Published checkpoints: copies of a store that readers on other machines
// serve from their own disk. A publish directory holds one subdirectory per
// checkpoint, named "ckpt-" and the store's sequence number in 20 digits (so
// names sort in publish order), each a complete RocksDB store plus a marker
// file, COMPLETE, that lists every file of the checkpoint with its size.
// A file STORE among them holds the RocksDB IDENTITY of the store it was
// taken from, so a publisher tells its own checkpoints from another store's.
//
// Publishing writes the checkpoint under a hidden temporary name
// (".tmp-ckpt-..."), writes the marker last, syncs, and renames the
// directory into place, so a reader of the publish directory never sees a
// partial one. A reader of a copy (a transport that copies files one by one
// may create the final name first) still opens a checkpoint only once every
// file the marker lists is present with its size: a half-copied checkpoint
// is never opened.

#ifndef PAPERDB_STORAGE_CHECKPOINT_H_
#define PAPERDB_STORAGE_CHECKPOINT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/storage/store.h"

namespace paperdb::storage {

// The marker file a complete checkpoint holds.
inline constexpr char kCheckpointMarker[] = "COMPLETE";
// The file holding the source store's identity, one line.
inline constexpr char kCheckpointStoreFile[] = "STORE";
// Prefix of a checkpoint's directory name.
inline constexpr char kCheckpointPrefix[] = "ckpt-";

struct CheckpointInfo {
  std::string name;       // "ckpt-00000000000000001234"
  std::string path;       // Its directory.
  uint64_t sequence = 0;  // The store's sequence number it holds.
  uint64_t papers = 0;    // Papers it holds.
  // The RocksDB IDENTITY of the store it was taken from; "" for a
  // checkpoint without a STORE file (published by an older paperdb).
  std::string store_identity;
};

// The directory name of the checkpoint at `sequence`.
std::string CheckpointName(uint64_t sequence);

// Writes a checkpoint of `store` into `publish_dir` (created if missing) and
// publishes it atomically, as the file comment says. If a complete
// checkpoint of the same sequence number is already there, returns it and
// writes nothing. Reads and writes of `store` may run during the call.
// FAILED_PRECONDITION if `publish_dir`'s newest complete checkpoint has a
// higher sequence number than the store's, or the same one but another
// store's identity (published from another store).
// INTERNAL on file-system errors; the store's errors
// (Store::CreateCheckpoint); nothing is published on error.
absl::StatusOr<CheckpointInfo> PublishCheckpoint(
    const Store& store, const std::string& publish_dir);

// The checkpoint in directory `path` if it is complete: its marker parses
// and every file it lists is present with the listed size.
// FAILED_PRECONDITION naming what is missing otherwise.
absl::StatusOr<CheckpointInfo> ReadCompleteCheckpoint(const std::string& path);

// The complete checkpoints in `publish_dir`, oldest first (by name).
// Incomplete ones and hidden temporary directories are skipped. An empty
// list if the directory does not exist; INTERNAL if it cannot be read.
absl::StatusOr<std::vector<CheckpointInfo>> ListCompleteCheckpoints(
    const std::string& publish_dir);

// Removes every checkpoint directory in `publish_dir` older than the
// newest `keep` complete ones (incomplete ones among them too), and hidden
// temporary directories that have not changed for an hour (left by a
// publisher that died). `keep` >= 1. INTERNAL on file-system errors.
absl::Status PruneCheckpoints(const std::string& publish_dir, size_t keep);

}  // namespace paperdb::storage

#endif  // PAPERDB_STORAGE_CHECKPOINT_H_
