#include "paperdb/storage/rocksdb_status.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace paperdb::storage {

absl::Status FromRocksDbStatus(const rocksdb::Status& status,
                               absl::string_view context) {
  if (status.ok()) return absl::OkStatus();
  const std::string message = absl::StrCat(context, ": ", status.ToString());
  switch (status.code()) {
    case rocksdb::Status::kNotFound:
      return absl::NotFoundError(message);
    case rocksdb::Status::kCorruption:
      return absl::DataLossError(message);
    case rocksdb::Status::kInvalidArgument:
      return absl::InvalidArgumentError(message);
    case rocksdb::Status::kBusy:
    case rocksdb::Status::kTryAgain:
    case rocksdb::Status::kTimedOut:
      return absl::UnavailableError(message);
    case rocksdb::Status::kNotSupported:
      return absl::UnimplementedError(message);
    default:
      return absl::InternalError(message);
  }
}

}  // namespace paperdb::storage
