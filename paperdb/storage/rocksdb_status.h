// The one conversion from rocksdb::Status to absl::Status.

#ifndef PAPERDB_STORAGE_ROCKSDB_STATUS_H_
#define PAPERDB_STORAGE_ROCKSDB_STATUS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rocksdb/status.h"

namespace paperdb::storage {

// Maps `status` to the closest canonical code, prefixing `context` to the
// message: NotFound -> NOT_FOUND, Corruption -> DATA_LOSS, InvalidArgument ->
// INVALID_ARGUMENT, Busy/TryAgain/TimedOut -> UNAVAILABLE, NotSupported ->
// UNIMPLEMENTED, everything else (IO errors included) -> INTERNAL.
absl::Status FromRocksDbStatus(const rocksdb::Status& status,
                               absl::string_view context);

}  // namespace paperdb::storage

#endif  // PAPERDB_STORAGE_ROCKSDB_STATUS_H_
