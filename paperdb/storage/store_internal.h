// Helpers the store's files share (store.h): slices and views, the column
// family descriptors, and the identity and change stamp of a primary's
// directory. Internal to paperdb/storage.

#ifndef PAPERDB_STORAGE_STORE_INTERNAL_H_
#define PAPERDB_STORAGE_STORE_INTERNAL_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "rocksdb/db.h"
#include "rocksdb/slice.h"

namespace paperdb::storage::internal {

inline rocksdb::Slice ToSlice(absl::string_view s) {
  return rocksdb::Slice(s.data(), s.size());
}

inline absl::string_view ToView(const rocksdb::Slice& s) {
  return absl::string_view(s.data(), s.size());
}

std::vector<rocksdb::ColumnFamilyDescriptor> Descriptors();

// The unique id RocksDB writes when it creates a database ("" if absent).
std::string ReadIdentity(const std::string& path);

// Everything a secondary could have to catch up with: the fingerprint, the
// store's identity, and the sizes of the write-ahead logs (appended to on
// every write) and MANIFESTs (appended to on every flush and compaction).
std::string PrimaryChangeStamp(const std::string& path);

}  // namespace paperdb::storage::internal

#endif  // PAPERDB_STORAGE_STORE_INTERNAL_H_
