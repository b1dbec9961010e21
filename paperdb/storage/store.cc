#include "paperdb/storage/store.h"

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
#include "paperdb/storage/store_internal.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"

// Store: opening and creating the store (primary or secondary), its schema,
// bulk loads, flushes and compaction.

namespace paperdb::storage {
namespace {

using internal::ToSlice;
using internal::ToView;

rocksdb::ColumnFamilyOptions ColumnOptions() {
  rocksdb::ColumnFamilyOptions options;
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = rocksdb::NewLRUCache(128 << 20);  // Shared by all CFs.
  table.block_size = 16 << 10;
  table.cache_index_and_filter_blocks = true;
  static const std::shared_ptr<rocksdb::TableFactory> kFactory(
      rocksdb::NewBlockBasedTableFactory(table));
  options.table_factory = kFactory;
  // LZ4 where data is rewritten often, ZSTD where it settles (RocksDB's
  // tuning guide): a one-shot ingest's final compaction writes everything
  // there. At 100k abstracts the store is 25% smaller (339 to 255 MiB: the
  // records and the postings alike) for up to 15% more ingest CPU
  // (docs/performance.md#store-size).
  options.compression = rocksdb::kLZ4Compression;
  options.bottommost_compression = rocksdb::kZSTD;
  return options;
}

bool IsOurColumn(absl::string_view name) {
  for (int i = 0; i < kColumnCount; ++i) {
    if (name == ColumnName(static_cast<Column>(i))) return true;
  }
  return false;
}

// True if `dir` holds nothing but files RocksDB creates before CURRENT.
// True if `name` is all decimal digits (RocksDB numbers its files).
bool AllDigits(absl::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return c >= '0' && c <= '9';
  });
}

// True if `dir` holds nothing but files RocksDB creates before CURRENT:
// LOCK, IDENTITY, LOG (and LOG.old.*), MANIFEST-N, OPTIONS-N, N.log,
// N.dbtmp.
bool OnlyRocksDbFiles(const std::string& dir) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    absl::string_view rest = name;
    const bool rocksdb_file =
        name == "LOCK" || name == "IDENTITY" || name == "LOG" ||
        absl::StartsWith(name, "LOG.old.") ||
        (absl::ConsumePrefix(&rest, "MANIFEST-") && AllDigits(rest)) ||
        (absl::ConsumePrefix(&rest, "OPTIONS-") && AllDigits(rest)) ||
        (absl::ConsumeSuffix(&rest, ".log") && AllDigits(rest)) ||
        (absl::ConsumeSuffix(&rest, ".dbtmp") && AllDigits(rest));
    if (!rocksdb_file) return false;
  }
  return !error;
}

// True if the RocksDB database at `path`, with column families `families`,
// holds data in "default", which paperdb never writes: someone else's.
// Opened read-only, so that refusing it changes nothing.
absl::StatusOr<bool> HasDefaultFamilyData(
    const std::string& path, const std::vector<std::string>& families) {
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& family : families) {
    descriptors.emplace_back(family, rocksdb::ColumnFamilyOptions());
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  const rocksdb::Status s = rocksdb::DB::OpenForReadOnly(
      rocksdb::DBOptions(), path, descriptors, &handles, &raw);
  if (!s.ok()) {
    return FromRocksDbStatus(s, absl::StrCat("opening ", path, " to check it"));
  }
  std::unique_ptr<rocksdb::DB> db(raw);
  bool has_data = false;
  for (size_t i = 0; i < handles.size(); ++i) {
    if (families[i] == rocksdb::kDefaultColumnFamilyName) {
      std::unique_ptr<rocksdb::Iterator> it(
          db->NewIterator(rocksdb::ReadOptions(), handles[i]));
      it->SeekToFirst();
      has_data = it->Valid();
    }
  }
  for (rocksdb::ColumnFamilyHandle* handle : handles) {
    db->DestroyColumnFamilyHandle(handle).PermitUncheckedError();
  }
  return has_data;
}

}  // namespace

namespace internal {

std::vector<rocksdb::ColumnFamilyDescriptor> Descriptors() {
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  descriptors.emplace_back(rocksdb::kDefaultColumnFamilyName, ColumnOptions());
  for (int i = 0; i < kColumnCount; ++i) {
    descriptors.emplace_back(ColumnName(static_cast<Column>(i)),
                             ColumnOptions());
  }
  return descriptors;
}

std::string ReadIdentity(const std::string& path) {
  std::ifstream in(std::filesystem::path(path) / "IDENTITY");
  std::string identity;
  std::getline(in, identity);
  return identity;
}

}  // namespace internal

using internal::Descriptors;
using internal::PrimaryChangeStamp;
using internal::ReadIdentity;

uint64_t Store::NextInstanceId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

Store::Store(std::string path, bool secondary)
    : path_(std::move(path)),
      secondary_(secondary),
      instance_id_(NextInstanceId()) {}

uint64_t Store::LatestSequenceNumber() const {
  return db_->GetLatestSequenceNumber();
}

Store::~Store() {
  CloseInstance(&pending_);
  CloseDb();
}

absl::StatusOr<std::unique_ptr<Store>> Store::OpenPrimary(
    const std::string& path) {
  std::error_code error;
  std::filesystem::create_directories(path, error);
  if (error) {
    return absl::InternalError(
        absl::StrCat("creating store directory ", path, ": ", error.message()));
  }
  // A directory that holds files but no RocksDB database is someone else's
  // (or the input files): refuse it rather than write a store among them.
  // Only the files RocksDB writes before CURRENT are allowed: a creation
  // killed early left them, and opening again finishes it.
  if (!std::filesystem::exists(std::filesystem::path(path) / "CURRENT") &&
      !OnlyRocksDbFiles(path)) {
    return absl::FailedPreconditionError(
        absl::StrCat(path,
                     " is not empty and holds no paperdb store; give a new or "
                     "empty directory"));
  }
  // An existing RocksDB database with column families other than paperdb's
  // is someone else's: refuse it rather than add families to it. (One with
  // only some of paperdb's is a store whose creation was interrupted.)
  std::vector<std::string> families;
  if (rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &families)
          .ok()) {
    for (const std::string& family : families) {
      if (family != rocksdb::kDefaultColumnFamilyName && !IsOurColumn(family)) {
        return absl::FailedPreconditionError(absl::StrCat(
            path, " holds a RocksDB database that is not a paperdb store"));
      }
    }
    if (families.size() < kColumnCount + 1) {
      // Not all of paperdb's families: an interrupted creation, or a foreign
      // database with only "default". Tell them apart before adding any.
      PAPERDB_ASSIGN_OR_RETURN(const bool foreign,
                               HasDefaultFamilyData(path, families));
      if (foreign) {
        return absl::FailedPreconditionError(absl::StrCat(
            path, " holds a RocksDB database that is not a paperdb store"));
      }
    }
  }
  rocksdb::DBOptions options;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  options.max_background_jobs = 2;
  options.max_log_file_size = 8 << 20;
  options.keep_log_file_num = 3;
  // The small "meta" family is written by every batch but rarely fills a
  // memtable; without a cap on the WAL it would keep every old log alive.
  options.max_total_wal_size = 64 << 20;
  // Flushes of all families commit to the MANIFEST together, so a query
  // side catching up never sees one family flushed and another not.
  options.atomic_flush = true;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  const rocksdb::Status s =
      rocksdb::DB::Open(options, path, Descriptors(), &handles, &db);
  if (!s.ok()) {
    if (s.IsIOError() && s.ToString().find("lock") != std::string::npos) {
      return absl::UnavailableError(absl::StrCat(
          "store ", path, " is locked by another writer: ", s.ToString()));
    }
    return FromRocksDbStatus(s, absl::StrCat("opening store ", path));
  }
  // paperdb never writes the "default" family: data there means the
  // database is someone else's, which a foreign database with only that
  // family would otherwise not reveal.
  std::unique_ptr<rocksdb::Iterator> foreign(
      db->NewIterator(rocksdb::ReadOptions(), handles[0]));
  foreign->SeekToFirst();
  const bool is_foreign = foreign->Valid();
  foreign.reset();
  std::unique_ptr<Store> store(new Store(path, /*secondary=*/false));
  store->db_.reset(db);
  store->db_->DestroyColumnFamilyHandle(handles[0]);  // "default" is unused.
  store->handles_.assign(handles.begin() + 1, handles.end());
  if (is_foreign) {
    return absl::FailedPreconditionError(absl::StrCat(
        path, " holds a RocksDB database that is not a paperdb store"));
  }
  PAPERDB_RETURN_IF_ERROR(store->CheckSchema(/*create=*/true));
  return store;
}

absl::StatusOr<std::unique_ptr<Store>> Store::OpenSecondary(
    const std::string& path, const std::string& secondary_path) {
  if (!std::filesystem::exists(std::filesystem::path(path) / "CURRENT")) {
    return absl::NotFoundError(absl::StrCat("no paperdb store at ", path,
                                            " (run ingest_service first)"));
  }
  std::vector<std::string> families;
  if (rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &families)
          .ok()) {
    for (int i = 0; i < kColumnCount; ++i) {
      const char* name = ColumnName(static_cast<Column>(i));
      if (std::find(families.begin(), families.end(), name) == families.end()) {
        return absl::FailedPreconditionError(absl::StrCat(
            "store ", path, " is incomplete (no \"", name,
            "\" column family): its creation was interrupted, and "
            "ingest_service finishes it when it next opens the store; or an "
            "older paperdb wrote it (schema version 1), and it must be "
            "ingested again into a new directory; or it is not a paperdb "
            "store"));
      }
    }
  }
  std::unique_ptr<Store> store(new Store(path, /*secondary=*/true));
  store->secondary_path_ = secondary_path;
  store->identity_ = ReadIdentity(path);
  {
    // Taken before opening, which replays the writer's logs: the first
    // CatchUp() is needed only if the writer changed something since.
    absl::MutexLock lock(&store->catch_up_mu_);
    store->caught_up_stamp_ = PrimaryChangeStamp(path);
  }
  PAPERDB_RETURN_IF_ERROR(store->OpenSecondaryDb());
  PAPERDB_RETURN_IF_ERROR(store->CheckSchema(/*create=*/false));
  return store;
}

absl::Status Store::CheckSchema(bool create) {
  absl::StatusOr<std::string> stored = Get(Column::kMeta, kSchemaVersionKey);
  if (absl::IsNotFound(stored.status()) && create) {
    WriteBatch batch(*this);
    batch.Put(Column::kMeta, kSchemaVersionKey, absl::StrCat(kSchemaVersion));
    return Write(batch);
  }
  if (absl::IsNotFound(stored.status())) {
    return absl::FailedPreconditionError(absl::StrCat(
        "store ", path_,
        " is incomplete (no schema version): its creation was interrupted; "
        "ingest_service finishes it when it next opens the store"));
  }
  if (!stored.ok()) return stored.status();
  int version = 0;
  if (!absl::SimpleAtoi(*stored, &version) || version != kSchemaVersion) {
    return absl::FailedPreconditionError(
        absl::StrCat("store ", path_, " has schema version '", *stored,
                     "', this build reads version ", kSchemaVersion,
                     ": ingest the files again into a new directory"));
  }
  return absl::OkStatus();
}

absl::Status Store::BeginBulkLoad() {
  if (secondary_) return absl::InvalidArgumentError("store is open read-only");
  return FromRocksDbStatus(
      db_->SetOptions(handles_[static_cast<int>(Column::kPostings)],
                      {{"disable_auto_compactions", "true"}}),
      "starting bulk load");
}

absl::Status Store::EndBulkLoad(std::atomic<bool>* cancel) {
  if (secondary_) return absl::InvalidArgumentError("store is open read-only");
  rocksdb::ColumnFamilyHandle* postings =
      handles_[static_cast<int>(Column::kPostings)];
  // Compacted before automatic compaction is back: otherwise it would take
  // the level-0 files first, in one job, and this compaction then rewrite
  // its output.
  absl::Status compacted = Flush();
  if (compacted.ok()) {
    rocksdb::CompactRangeOptions options;
    options.canceled = cancel;
    compacted = FromRocksDbStatus(
        db_->CompactRange(options, postings, nullptr, nullptr),
        "compacting postings after bulk load");
    if (!compacted.ok() && cancel != nullptr && cancel->load()) {
      compacted = absl::CancelledError(
          "compaction after bulk load cancelled; the store's next writer "
          "compacts it");
    }
  }
  PAPERDB_RETURN_IF_ERROR(FromRocksDbStatus(
      db_->SetOptions(postings, {{"disable_auto_compactions", "false"}}),
      "ending bulk load"));
  return compacted;
}

absl::Status Store::Flush() {
  if (secondary_) return absl::InvalidArgumentError("store is open read-only");
  rocksdb::FlushOptions options;
  options.wait = true;
  std::vector<rocksdb::ColumnFamilyHandle*> handles(handles_.begin(),
                                                    handles_.end());
  return FromRocksDbStatus(db_->Flush(options, handles), "flushing store");
}

uint64_t Store::Level0Files(Column column) const {
  std::string files;
  uint64_t count = 0;
  if (db_->GetProperty(handles_[static_cast<int>(column)],
                       "rocksdb.num-files-at-level0", &files)) {
    (void)absl::SimpleAtoi(files, &count);
  }
  return count;
}

uint64_t Store::DataBytes() const {
  uint64_t total = 0;
  for (rocksdb::ColumnFamilyHandle* handle : handles_) {
    for (const char* property :
         {"rocksdb.total-sst-files-size", "rocksdb.cur-size-all-mem-tables"}) {
      uint64_t bytes = 0;
      if (db_->GetIntProperty(handle, property, &bytes)) total += bytes;
    }
  }
  return total;
}

absl::Status Store::Compact() {
  if (secondary_) return absl::InvalidArgumentError("store is open read-only");
  for (rocksdb::ColumnFamilyHandle* handle : handles_) {
    PAPERDB_RETURN_IF_ERROR(
        FromRocksDbStatus(db_->CompactRange(rocksdb::CompactRangeOptions(),
                                            handle, nullptr, nullptr),
                          "compacting store"));
  }
  return absl::OkStatus();
}

}  // namespace paperdb::storage
