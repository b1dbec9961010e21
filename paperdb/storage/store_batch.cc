#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/random/random.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/storage/rocksdb_status.h"
#include "paperdb/storage/store.h"
#include "paperdb/storage/store_internal.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"

// Store reads and writes: write batches over column families, iterators,
// Get, MultiGet and Write.

namespace paperdb::storage {
namespace {

using internal::ToSlice;
using internal::ToView;

}  // namespace

WriteBatch::WriteBatch(const Store& store)
    : store_(&store), rep_(std::make_unique<rocksdb::WriteBatch>()) {
  if (store.secondary_) return;  // Write() refuses the batch.
  const uint64_t random = absl::Uniform<uint64_t>(absl::BitGen());
  std::string stamp(sizeof(random), '\0');
  for (size_t i = 0; i < sizeof(random); ++i) {
    stamp[i] = static_cast<char>(random >> (8 * i));
  }
  for (int i = 0; i < kColumnCount; ++i) {
    Put(static_cast<Column>(i), kBatchStampKey, stamp);
  }
}
WriteBatch::~WriteBatch() = default;

void WriteBatch::Put(Column column, absl::string_view key,
                     absl::string_view value) {
  const rocksdb::Status s = rep_->Put(
      store_->handles_[static_cast<int>(column)], ToSlice(key), ToSlice(value));
  if (!s.ok() && status_.ok()) status_ = FromRocksDbStatus(s, "batch put");
}

void WriteBatch::Put(Column column, absl::string_view key,
                     absl::Span<const absl::string_view> value_parts) {
  absl::InlinedVector<rocksdb::Slice, 4> slices;
  for (absl::string_view part : value_parts) slices.push_back(ToSlice(part));
  const rocksdb::Slice key_slice = ToSlice(key);
  const rocksdb::Status s = rep_->Put(
      store_->handles_[static_cast<int>(column)],
      rocksdb::SliceParts(&key_slice, 1),
      rocksdb::SliceParts(slices.data(), static_cast<int>(slices.size())));
  if (!s.ok() && status_.ok()) status_ = FromRocksDbStatus(s, "batch put");
}

void WriteBatch::Delete(Column column, absl::string_view key) {
  const rocksdb::Status s =
      rep_->Delete(store_->handles_[static_cast<int>(column)], ToSlice(key));
  if (!s.ok() && status_.ok()) status_ = FromRocksDbStatus(s, "batch delete");
}

size_t WriteBatch::ByteSize() const { return rep_->GetDataSize(); }

StoreIterator::StoreIterator(std::unique_ptr<rocksdb::Iterator> it)
    : it_(std::move(it)) {}
StoreIterator::~StoreIterator() = default;
void StoreIterator::Seek(absl::string_view target) {
  it_->Seek(ToSlice(target));
}
void StoreIterator::SeekForPrev(absl::string_view target) {
  it_->SeekForPrev(ToSlice(target));
  if (it_->Valid() && ToView(it_->key()) == kBatchStampKey) it_->Prev();
}
// The stamp sorts last: a scan that reaches it is at its end.
bool StoreIterator::Valid() const {
  return it_->Valid() && ToView(it_->key()) != kBatchStampKey;
}
void StoreIterator::Next() { it_->Next(); }
absl::string_view StoreIterator::key() const { return ToView(it_->key()); }
absl::string_view StoreIterator::value() const { return ToView(it_->value()); }
absl::Status StoreIterator::status() const {
  return FromRocksDbStatus(it_->status(), "iterating store");
}

absl::StatusOr<std::string> Store::Get(Column column,
                                       absl::string_view key) const {
  std::string value;
  const rocksdb::Status s =
      db_->Get(rocksdb::ReadOptions(), handles_[static_cast<int>(column)],
               ToSlice(key), &value);
  if (!s.ok()) {
    return FromRocksDbStatus(s, absl::StrCat("reading ", ColumnName(column)));
  }
  return value;
}

absl::Status Store::MultiGet(
    Column column, const std::vector<std::string>& keys,
    const std::function<absl::Status(size_t, absl::string_view)>& visit) const {
  std::vector<rocksdb::Slice> slices;
  slices.reserve(keys.size());
  for (const std::string& key : keys) slices.push_back(ToSlice(key));
  std::vector<rocksdb::PinnableSlice> values(keys.size());
  std::vector<rocksdb::Status> statuses(keys.size());
  db_->MultiGet(rocksdb::ReadOptions(), handles_[static_cast<int>(column)],
                keys.size(), slices.data(), values.data(), statuses.data());
  for (size_t i = 0; i < keys.size(); ++i) {
    if (!statuses[i].ok()) {
      return FromRocksDbStatus(statuses[i],
                               absl::StrCat("reading ", ColumnName(column)));
    }
    PAPERDB_RETURN_IF_ERROR(
        visit(i, absl::string_view(values[i].data(), values[i].size())));
  }
  return absl::OkStatus();
}

absl::Status Store::Write(const WriteBatch& batch) {
  if (secondary_) {
    return absl::InvalidArgumentError("store is open read-only (secondary)");
  }
  if (batch.store_ != this) {
    return absl::InvalidArgumentError("write batch made for another store");
  }
  PAPERDB_RETURN_IF_ERROR(batch.status_);
  rocksdb::WriteOptions options;
  options.sync = true;
  // RocksDB stamps the batch's sequence number in place: the puts and
  // deletes it holds are unchanged.
  return FromRocksDbStatus(db_->Write(options, batch.rep_.get()),
                           "writing batch");
}

std::unique_ptr<StoreIterator> Store::NewIterator(Column column) const {
  return std::make_unique<StoreIterator>(
      std::unique_ptr<rocksdb::Iterator>(db_->NewIterator(
          rocksdb::ReadOptions(), handles_[static_cast<int>(column)])));
}

}  // namespace paperdb::storage
