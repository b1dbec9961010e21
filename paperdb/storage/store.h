// Store: the RocksDB database that holds paperdb's records and index, opened
// either as the single writer (primary) or as a read-only secondary that
// follows the writer (RocksDB's DB::OpenAsSecondary).

#ifndef PAPERDB_STORAGE_STORE_H_
#define PAPERDB_STORAGE_STORE_H_

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "paperdb/storage/keys.h"

namespace rocksdb {
class ColumnFamilyHandle;
class DB;
class Iterator;
class WriteBatch;
}  // namespace rocksdb

namespace paperdb::storage {

class Store;

// A set of writes that Store::Write() applies atomically, made for one
// store. Puts and deletes are encoded straight into a RocksDB WriteBatch,
// which Write() hands to RocksDB without another copy. Each batch also puts
// a fresh random stamp under kBatchStampKey in every family (keys.h). Not
// thread-safe; must not outlive its store.
class WriteBatch {
 public:
  explicit WriteBatch(const Store& store);
  WriteBatch(const WriteBatch&) = delete;
  WriteBatch& operator=(const WriteBatch&) = delete;
  ~WriteBatch();

  void Put(Column column, absl::string_view key, absl::string_view value);
  // Puts the concatenation of `value_parts` without concatenating them
  // first (RocksDB's SliceParts).
  void Put(Column column, absl::string_view key,
           absl::Span<const absl::string_view> value_parts);
  void Delete(Column column, absl::string_view key);
  // Bytes the batch will write: keys, values and RocksDB's framing.
  size_t ByteSize() const;

 private:
  friend class Store;
  const Store* store_;
  std::unique_ptr<rocksdb::WriteBatch> rep_;
  // The first error RocksDB gave a Put or Delete (a key or value over its
  // 4 GiB limit); Write() returns it and writes nothing.
  absl::Status status_;
};

// Iterates one column family in key order, without kBatchStampKey. Views
// returned by key() and value() stay valid until the next call that moves
// the iterator.
// Not thread-safe; must be destroyed before its Store.
class StoreIterator {
 public:
  explicit StoreIterator(std::unique_ptr<rocksdb::Iterator> it);
  StoreIterator(const StoreIterator&) = delete;
  StoreIterator& operator=(const StoreIterator&) = delete;
  ~StoreIterator();

  // Positions at the first key >= `target`.
  void Seek(absl::string_view target);
  // Positions at the last key <= `target`.
  void SeekForPrev(absl::string_view target);
  bool Valid() const;
  void Next();
  absl::string_view key() const;
  absl::string_view value() const;
  // Non-OK if iteration stopped because of an error (not at the end).
  absl::Status status() const;

 private:
  std::unique_ptr<rocksdb::Iterator> it_;
};

// Owns the RocksDB instance and its column families.
// Thread safety: all methods may run concurrently, except that CatchUp()
// must not run concurrently with reads that need one consistent view
// (callers serialize them; see query_service's catch-up lock).
class Store {
 public:
  friend class WriteBatch;  // Resolves columns to handles_.

  // Opens the store at `path` for writing, creating it (with every column
  // family and the schema version) if missing. FAILED_PRECONDITION if it
  // holds another schema version, a RocksDB database that is not paperdb's,
  // or other files;
  // UNAVAILABLE if another process holds the writer lock; INTERNAL for I/O
  // errors.
  static absl::StatusOr<std::unique_ptr<Store>> OpenPrimary(
      const std::string& path);

  // Opens the existing store at `path` read-only as a secondary instance
  // that keeps its own info log and state in `secondary_path` (created if
  // missing). Call CatchUp() to see later writes. NOT_FOUND if `path` holds
  // no store; FAILED_PRECONDITION on a schema version mismatch; ABORTED if
  // its families never showed the same write (see CatchUp()).
  static absl::StatusOr<std::unique_ptr<Store>> OpenSecondary(
      const std::string& path, const std::string& secondary_path);

  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;
  ~Store();

  // The value of `key`. NOT_FOUND if absent; INTERNAL on I/O errors.
  absl::StatusOr<std::string> Get(Column column, absl::string_view key) const;

  // Reads the values of `keys` of `column` in one batched lookup (RocksDB
  // MultiGet: one snapshot, and each SST block searched once for all keys
  // in it), calling `visit(i, value)` for each key found, in order; the
  // value is valid during the call only. NOT_FOUND naming the first
  // absent key; INTERNAL on I/O errors.
  absl::Status MultiGet(
      Column column, const std::vector<std::string>& keys,
      const std::function<absl::Status(size_t, absl::string_view)>& visit)
      const;

  // Applies `batch` atomically and durably (synced WAL). INVALID_ARGUMENT on
  // a secondary instance or for a batch made for another store; the error
  // of a failed Put or Delete (nothing is written then).
  absl::Status Write(const WriteBatch& batch);

  // A new iterator over `column`, reading the state at the time of the call.
  std::unique_ptr<StoreIterator> NewIterator(Column column) const;

  // Secondary only: applies the writer's changes made since the last call.
  // Each WriteBatch of the writer becomes visible whole or not at all. After
  // the writer flushed or reopened the store (its write-ahead logs, or the
  // MANIFEST named in CURRENT, changed), a fresh secondary instance replaces
  // this one instead (the one PrepareCatchUp() opened, if still current),
  // working around RocksDB 7.8 catch-ups that can keep serving older
  // entries (facebook/rocksdb#14444); the store then has a new
  // instance_id(). Every family must then show the same batch stamp
  // (keys.h): an instance that sees families at different writes is replaced
  // by a fresh one, up to 7 times, 1 to 64 ms apart. No read and no
  // StoreIterator may be live during the call. FAILED_PRECONDITION if the
  // store at path() was removed or recreated since it was opened (the
  // instance keeps serving the old data until restarted); ABORTED, naming
  // the families, if no instance showed one write; RocksDB's open or
  // catch-up errors otherwise, the current instance still serving.
  absl::Status CatchUp() ABSL_LOCKS_EXCLUDED(catch_up_mu_);

  // Secondary only (false on a primary): true once CatchUp() found the
  // store at path() removed or recreated. The instance still reads the old
  // data, which is no longer the store's: callers should refuse to answer
  // from it.
  bool replaced() const { return replaced_.load(std::memory_order_acquire); }

  // Secondary only (false on a primary): whether the writer may have changed
  // anything since the store was opened or last caught up successfully:
  // its write-ahead logs, MANIFEST or CURRENT file changed size or name.
  // A few file-system stats; reads may run during the call. When false,
  // CatchUp() would apply nothing.
  bool WriterChangedSinceCatchUp() ABSL_LOCKS_EXCLUDED(catch_up_mu_);

  // Secondary only: if the writer flushed or reopened the store since the
  // last CatchUp(), opens the fresh secondary instance that the next
  // CatchUp() will switch to, so that readers wait only for the switch, not
  // for the open. Reads may run during this call. Errors as for opening;
  // CatchUp() then opens the instance itself.
  absl::Status PrepareCatchUp() ABSL_LOCKS_EXCLUDED(catch_up_mu_);

  // Flushes memtables to SST files and compacts the whole store: smaller and
  // faster to read. Primary only.
  absl::Status Compact();

  // Bulk loading, for an ingest that adds as much as the store holds or
  // more. While on, the postings family is not compacted: a posting block
  // is written once, to a level-0 file, instead of being merged into level 1
  // again every few flushes (each batch writes blocks across the whole key
  // range, so level compaction rewrote the family three to four times over
  // a 1M ingest). Reads stay correct but slow down as level-0 files pile
  // up. EndBulkLoad() flushes, compacts the whole family once (before
  // automatic compaction is back, which would take the level-0 files first
  // and leave its output to be rewritten) and turns automatic compaction
  // back on. Setting `*cancel` (if given) to true stops that compaction:
  // CANCELLED then, automatic compaction still turned back on. A store
  // closed in between is compacted by its next writer: RocksDB records the
  // setting in its OPTIONS file, but paperdb opens a store with its own
  // options. Primary only; RocksDB's errors otherwise.
  absl::Status BeginBulkLoad();
  absl::Status EndBulkLoad(std::atomic<bool>* cancel = nullptr);

  // Writes a RocksDB checkpoint of the store into `dir`, which must not
  // exist (RocksDB creates it): a consistent copy that opens as a store of
  // its own, its SST files hard-linked where the file system allows and
  // copied otherwise, memtables flushed first on a primary. Returns the
  // sequence number it holds (LatestSequenceNumber() at the time). Reads
  // and writes may run during the call. RocksDB's errors (UNIMPLEMENTED
  // where it cannot checkpoint a secondary instance).
  absl::StatusOr<uint64_t> CreateCheckpoint(const std::string& dir) const;

  // Writes memtables to SST files, so that readers (secondary instances
  // included) find the data in indexed files instead of replaying the log.
  // Primary only.
  absl::Status Flush();

  // Bytes the store's data takes: its SST files plus its memtables (data
  // written or, on a secondary, replayed but not yet flushed), summed over
  // the column families ("rocksdb.total-sst-files-size" and
  // "rocksdb.cur-size-all-mem-tables").
  uint64_t DataBytes() const;

  // Files in level 0 of `column` ("rocksdb.num-files-at-level0"): each
  // flush adds one, compaction takes them away.
  uint64_t Level0Files(Column column) const;

  bool is_secondary() const { return secondary_; }
  const std::string& path() const { return path_; }

  // Names this open instance among every Store opened in the process; never
  // reused, so caches of read data can key on it. A secondary gets a new
  // one whenever CatchUp() reopens it.
  uint64_t instance_id() const { return instance_id_; }
  // A secondary's store identity (RocksDB's IDENTITY of the primary it
  // follows): the same for every replica of one store. Empty for a primary.
  const std::string& identity() const { return identity_; }

  // RocksDB's latest sequence number. It changes whenever data changes (a
  // Write(), or a CatchUp() that applied something): data read and cached
  // under one value is current while the store still reports it.
  uint64_t LatestSequenceNumber() const;

 private:
  Store(std::string path, bool secondary);
  absl::Status CheckSchema(bool create);
  absl::Status CatchUpLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(catch_up_mu_);
  static uint64_t NextInstanceId();
  // An open secondary RocksDB instance, not yet serving.
  struct SecondaryInstance {
    std::unique_ptr<rocksdb::DB> db;
    std::vector<rocksdb::ColumnFamilyHandle*> handles;  // By Column; owned.
    std::string fingerprint;  // PrimaryFingerprint() (store.cc) at open.
  };
  absl::Status OpenSecondaryInstance(SecondaryInstance* out) const;
  static void CloseInstance(SecondaryInstance* instance);
  // Closes the serving instance and serves `instance` instead.
  void Adopt(SecondaryInstance instance);
  // Opens a secondary instance and serves it, replacing the current one
  // only once the new one is open and its families agree.
  absl::Status OpenSecondaryDb();
  // Serves `candidate` (if open) once its families show the same batch
  // stamp; otherwise opens fresh instances until one does, up to 7 times.
  // ABORTED if none did, the current instance still serving.
  absl::Status AdoptConsistent(SecondaryInstance candidate);
  void CloseDb();

  std::string path_;
  bool secondary_;
  uint64_t instance_id_;
  std::string identity_;  // Secondary: the store's RocksDB IDENTITY at open.
  std::string secondary_path_;  // Secondary: its own files.
  // Secondary: PrimaryFingerprint() (store.cc) when db_ was opened.
  std::string fingerprint_;
  std::atomic<bool> replaced_{false};  // See replaced().
  absl::Mutex catch_up_mu_;  // Serializes CatchUp() and PrepareCatchUp().
  // Secondary: PrimaryChangeStamp() (store.cc) taken at the start of the
  // last successful CatchUp(); empty before the first.
  std::string caught_up_stamp_ ABSL_GUARDED_BY(catch_up_mu_);
  SecondaryInstance pending_ ABSL_GUARDED_BY(catch_up_mu_);
  // Handles must be destroyed before db_; ~Store() does it explicitly.
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;  // By Column; owned.
};

}  // namespace paperdb::storage

#endif  // PAPERDB_STORAGE_STORE_H_
