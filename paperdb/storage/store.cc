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
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"

namespace paperdb::storage {
namespace {

rocksdb::Slice ToSlice(absl::string_view s) {
  return rocksdb::Slice(s.data(), s.size());
}

absl::string_view ToView(const rocksdb::Slice& s) {
  return absl::string_view(s.data(), s.size());
}

rocksdb::ColumnFamilyOptions ColumnOptions() {
  rocksdb::ColumnFamilyOptions options;
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = rocksdb::NewLRUCache(128 << 20);  // Shared by all CFs.
  table.block_size = 16 << 10;
  table.cache_index_and_filter_blocks = true;
  static const std::shared_ptr<rocksdb::TableFactory> kFactory(
      rocksdb::NewBlockBasedTableFactory(table));
  options.table_factory = kFactory;
  options.compression = rocksdb::kLZ4Compression;
  return options;
}

// OK if every family of `db` holds the same batch stamp (or none); ABORTED
// naming each family's stamp otherwise; INTERNAL on read errors.
absl::Status CheckBatchStamps(
    rocksdb::DB* db, const std::vector<rocksdb::ColumnFamilyHandle*>& handles,
    const std::string& path) {
  std::vector<std::string> stamps(handles.size());
  for (size_t i = 0; i < handles.size(); ++i) {
    const rocksdb::Status s = db->Get(rocksdb::ReadOptions(), handles[i],
                                      ToSlice(kBatchStampKey), &stamps[i]);
    if (s.IsNotFound()) {
      stamps[i].clear();
    } else if (!s.ok()) {
      return FromRocksDbStatus(s, "reading batch stamps");
    }
  }
  if (std::all_of(stamps.begin(), stamps.end(),
                  [&](const std::string& s) { return s == stamps[0]; })) {
    return absl::OkStatus();
  }
  std::vector<std::string> named;
  for (size_t i = 0; i < stamps.size(); ++i) {
    named.push_back(absl::StrCat(
        ColumnName(static_cast<Column>(i)), " at ",
        stamps[i].empty() ? "none" : absl::BytesToHexString(stamps[i])));
  }
  return absl::AbortedError(absl::StrCat(
      "store ", path, ": its column families show different writes (",
      absl::StrJoin(named, ", "), "), a partial view of the writer's work"));
}

// The unique id RocksDB writes when it creates a database ("" if absent).
std::string ReadIdentity(const std::string& path) {
  std::ifstream in(std::filesystem::path(path) / "IDENTITY");
  std::string identity;
  std::getline(in, identity);
  return identity;
}

// What a secondary must reopen for: the primary's write-ahead logs, whose set
// changes when the primary switches memtables (a flush) or reopens the
// store, and its current MANIFEST (named in CURRENT), which changes when it
// reopens or rolls the MANIFEST over. RocksDB 7.8's TryCatchUpWithPrimary
// can then keep serving entries it replayed from an old log over newer
// flushed ones, or miss edits of a new MANIFEST (facebook/rocksdb#14444,
// #7815); a fresh secondary reads the state as it is.
std::string PrimaryFingerprint(const std::string& path) {
  std::ifstream in(std::filesystem::path(path) / "CURRENT");
  std::string fingerprint;
  std::getline(in, fingerprint);
  std::vector<std::string> logs;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    const std::string name = entry.path().filename().string();
    if (absl::EndsWith(name, ".log")) logs.push_back(name);
  }
  std::sort(logs.begin(), logs.end());
  for (const std::string& log : logs) absl::StrAppend(&fingerprint, " ", log);
  return fingerprint;
}

// Everything a secondary could have to catch up with: the fingerprint, the
// store's identity, and the sizes of the write-ahead logs (appended to on
// every write) and MANIFESTs (appended to on every flush and compaction).
std::string PrimaryChangeStamp(const std::string& path) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    const std::string name = entry.path().filename().string();
    if (!absl::EndsWith(name, ".log") && !absl::StartsWith(name, "MANIFEST-")) {
      continue;
    }
    std::error_code size_error;
    const uintmax_t size = std::filesystem::file_size(entry.path(), size_error);
    files.push_back(absl::StrCat(name, ":", size_error ? 0 : size));
  }
  std::sort(files.begin(), files.end());
  return absl::StrCat(PrimaryFingerprint(path), "|", ReadIdentity(path), "|",
                      absl::StrJoin(files, " "));
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

std::vector<rocksdb::ColumnFamilyDescriptor> Descriptors() {
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  descriptors.emplace_back(rocksdb::kDefaultColumnFamilyName, ColumnOptions());
  for (int i = 0; i < kColumnCount; ++i) {
    descriptors.emplace_back(ColumnName(static_cast<Column>(i)),
                             ColumnOptions());
  }
  return descriptors;
}

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

absl::Status Store::OpenSecondaryInstance(SecondaryInstance* out) const {
  // Taken before opening: a change in between shows at the next CatchUp().
  out->fingerprint = PrimaryFingerprint(path_);
  std::error_code ignored;
  std::filesystem::create_directories(secondary_path_, ignored);
  rocksdb::DBOptions options;
  options.max_open_files = -1;  // Required by secondary instances.
  // A secondary logs every catch-up: rotate its info log by size.
  options.max_log_file_size = 8 << 20;
  options.keep_log_file_num = 3;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  const rocksdb::Status s = rocksdb::DB::OpenAsSecondary(
      options, path_, secondary_path_, Descriptors(), &handles, &db);
  if (!s.ok()) {
    return FromRocksDbStatus(
        s, absl::StrCat("opening store ", path_, " as secondary"));
  }
  out->db.reset(db);
  out->db->DestroyColumnFamilyHandle(handles[0]);
  out->handles.assign(handles.begin() + 1, handles.end());
  return absl::OkStatus();
}

void Store::CloseInstance(SecondaryInstance* instance) {
  if (instance->db == nullptr) return;
  for (rocksdb::ColumnFamilyHandle* handle : instance->handles) {
    instance->db->DestroyColumnFamilyHandle(handle);
  }
  instance->handles.clear();
  instance->db->Close().PermitUncheckedError();
  instance->db.reset();
}

void Store::Adopt(SecondaryInstance instance) {
  CloseDb();
  db_ = std::move(instance.db);
  handles_ = std::move(instance.handles);
  fingerprint_ = std::move(instance.fingerprint);
  instance_id_ = NextInstanceId();
}

absl::Status Store::OpenSecondaryDb() {
  SecondaryInstance instance;
  PAPERDB_RETURN_IF_ERROR(OpenSecondaryInstance(&instance));
  return AdoptConsistent(std::move(instance));
}

absl::Status Store::AdoptConsistent(SecondaryInstance candidate) {
  // RocksDB 7.8 secondaries that open or catch up while a writer flushes or
  // closes can show one family at one write and another at a later one
  // (facebook/rocksdb#14444); a fresh instance a little later reads the
  // state as it is.
  constexpr int kAttempts = 7;
  absl::Status agree = absl::AbortedError("no instance opened");
  for (int attempt = 0; attempt <= kAttempts; ++attempt) {
    if (candidate.db != nullptr) {
      agree = CheckBatchStamps(candidate.db.get(), candidate.handles, path_);
      if (agree.ok()) {
        Adopt(std::move(candidate));
        return absl::OkStatus();
      }
      CloseInstance(&candidate);
      if (!absl::IsAborted(agree)) return agree;
    }
    if (attempt == kAttempts) break;
    absl::SleepFor(absl::Milliseconds(1 << attempt));
    PAPERDB_RETURN_IF_ERROR(OpenSecondaryInstance(&candidate));
  }
  return absl::AbortedError(absl::StrCat(agree.message(), "; ", kAttempts,
                                         " fresh instances showed the same"));
}

void Store::CloseDb() {
  if (db_ == nullptr) return;
  for (rocksdb::ColumnFamilyHandle* handle : handles_) {
    db_->DestroyColumnFamilyHandle(handle);
  }
  handles_.clear();
  db_->Close().PermitUncheckedError();
  db_.reset();
}

absl::Status Store::PrepareCatchUp() {
  if (!secondary_) return absl::OkStatus();
  absl::MutexLock lock(&catch_up_mu_);
  const std::string fingerprint = PrimaryFingerprint(path_);
  if (fingerprint == fingerprint_ || ReadIdentity(path_) != identity_ ||
      (pending_.db != nullptr && pending_.fingerprint == fingerprint)) {
    return absl::OkStatus();
  }
  CloseInstance(&pending_);
  return OpenSecondaryInstance(&pending_);
}

bool Store::WriterChangedSinceCatchUp() {
  if (!secondary_) return false;
  absl::MutexLock lock(&catch_up_mu_);
  return PrimaryChangeStamp(path_) != caught_up_stamp_;
}

absl::Status Store::CatchUp() {
  if (!secondary_) return absl::OkStatus();
  absl::MutexLock lock(&catch_up_mu_);
  // Taken first: a change made during the catch-up shows at the next check.
  const std::string stamp = PrimaryChangeStamp(path_);
  absl::Status status = CatchUpLocked();
  if (status.ok()) caught_up_stamp_ = stamp;
  return status;
}

absl::Status Store::CatchUpLocked() {
  // A secondary instance cannot follow a store that was deleted and
  // recreated at the same path: it would keep serving the old one.
  if (ReadIdentity(path_) != identity_) {
    CloseInstance(&pending_);
    replaced_.store(true, std::memory_order_release);
    return absl::FailedPreconditionError(
        absl::StrCat("store ", path_,
                     " was removed or replaced since it was opened; "
                     "restart to serve the new one"));
  }
  const std::string fingerprint = PrimaryFingerprint(path_);
  SecondaryInstance fresh;
  if (pending_.db != nullptr && pending_.fingerprint == fingerprint) {
    // Opened by PrepareCatchUp() since the writer's last flush: take in what
    // the writer logged after it opened, then switch to it.
    fresh = std::move(pending_);
    pending_ = SecondaryInstance();
    const rocksdb::Status s = fresh.db->TryCatchUpWithPrimary();
    if (!s.ok()) {
      CloseInstance(&fresh);
      return FromRocksDbStatus(s, "catching up with writer");
    }
  } else {
    CloseInstance(&pending_);
    if (fingerprint != fingerprint_) {
      // The writer flushed or reopened the store: read it afresh. On
      // failure the old instance keeps serving.
      PAPERDB_RETURN_IF_ERROR(OpenSecondaryInstance(&fresh));
    } else {
      PAPERDB_RETURN_IF_ERROR(FromRocksDbStatus(db_->TryCatchUpWithPrimary(),
                                                "catching up with writer"));
      const absl::Status agree = CheckBatchStamps(db_.get(), handles_, path_);
      if (!absl::IsAborted(agree)) return agree;
    }
  }
  return AdoptConsistent(std::move(fresh));
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
