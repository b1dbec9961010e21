// PostingCache: posting lists (posting_list.h) kept in memory between
// searches, least recently used first out, within a byte budget. Queries
// then walk postings in memory instead of stepping and seeking RocksDB
// iterators block by block, which profiles of multi-term queries at a
// million abstracts showed at over half the time.
//
// An entry is valid for the Store instance and the store sequence number it
// was read at (Store::LatestSequenceNumber()): a write or a catch-up that
// changes anything makes every entry of that store stale, and the next
// reader reads the list again.
//
// Thread-safe.

#ifndef PAPERDB_INDEX_POSTING_CACHE_H_
#define PAPERDB_INDEX_POSTING_CACHE_H_

#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "paperdb/index/posting_list.h"
#include "paperdb/index/store_key.h"
#include "paperdb/storage/store.h"

namespace paperdb::index {

class PostingCache {
 public:
  // The default budget of Default(), in bytes.
  static constexpr size_t kDefaultCapacityBytes = size_t{512} << 20;

  explicit PostingCache(size_t capacity_bytes)
      : capacity_bytes_(capacity_bytes) {}
  PostingCache(const PostingCache&) = delete;
  PostingCache& operator=(const PostingCache&) = delete;

  // The process-wide cache that PostingIterator reads through.
  static PostingCache& Default();

  // The postings of `term` in `store`, from the cache if current, else read
  // (ReadPostingList()) and cached; a list larger than an eighth of the
  // budget is returned without being cached. Errors as ReadPostingList().
  absl::StatusOr<std::shared_ptr<const PostingList>> Get(
      const storage::Store& store, absl::string_view term)
      ABSL_LOCKS_EXCLUDED(mu_);

  // The postings of `term` in `store` if the cache holds them current, else
  // null; never reads the store.
  std::shared_ptr<const PostingList> Peek(const storage::Store& store,
                                          absl::string_view term)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Changes the budget, in bytes, evicting as needed; 0 turns caching off.
  void SetCapacity(size_t capacity_bytes) ABSL_LOCKS_EXCLUDED(mu_);

  // Bytes held and entries, for metrics and tests.
  size_t ByteSize() const ABSL_LOCKS_EXCLUDED(mu_);
  size_t size() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  // The store instance and the term.
  using Key = StoreKey;
  struct Entry {
    Key key;
    uint64_t sequence = 0;  // Store::LatestSequenceNumber() when read.
    std::shared_ptr<const PostingList> list;
  };
  using Lru = std::list<Entry>;  // Most recently used first.

  void EvictTo(size_t capacity_bytes) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Erase(Lru::iterator it) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  size_t capacity_bytes_ ABSL_GUARDED_BY(mu_);
  size_t bytes_ ABSL_GUARDED_BY(mu_) = 0;
  Lru lru_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<Key, Lru::iterator> index_ ABSL_GUARDED_BY(mu_);
};

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_POSTING_CACHE_H_
