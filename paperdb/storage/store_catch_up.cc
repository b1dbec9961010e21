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
#include "paperdb/common/free_memory.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/storage/rocksdb_status.h"
#include "paperdb/storage/store.h"
#include "paperdb/storage/store_internal.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"

// Store as a secondary: catching up with the primary, and the stamps that
// tell whether it changed (and whether a catch-up saw whole batches).

namespace paperdb::storage {
namespace {

using internal::ToSlice;
using internal::ToView;

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

}  // namespace

namespace internal {

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

}  // namespace internal

using internal::Descriptors;
using internal::PrimaryChangeStamp;
using internal::ReadIdentity;

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
  // The closed instance's memtables held what it replayed of the writer's
  // logs, up to the size of the last large write.
  ReleaseFreeMemory();
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

}  // namespace paperdb::storage
