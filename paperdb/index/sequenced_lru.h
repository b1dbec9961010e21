// SequencedLru: a least-recently-used map from StoreKey to a value read
// from a Store, each entry valid only at the Store sequence number it was
// read at. A lookup at another sequence number misses and drops the entry,
// so a cache never answers with data older than the store it is asked
// about. Thread-safe.

#ifndef PAPERDB_INDEX_SEQUENCED_LRU_H_
#define PAPERDB_INDEX_SEQUENCED_LRU_H_

#include <cstddef>
#include <cstdint>
#include <list>
#include <optional>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "paperdb/index/store_key.h"

namespace paperdb::index {

template <typename Value>
class SequencedLru {
 public:
  // Holds at most `max_entries` entries; 0 caches nothing.
  explicit SequencedLru(size_t max_entries) : max_entries_(max_entries) {}
  SequencedLru(const SequencedLru&) = delete;
  SequencedLru& operator=(const SequencedLru&) = delete;

  // A copy of the value of `key` if it was read at `sequence`; nullopt
  // otherwise (an entry of another sequence number is dropped).
  std::optional<Value> Lookup(const StoreKey& key, uint64_t sequence)
      ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    auto found = index_.find(key);
    if (found == index_.end()) return std::nullopt;
    if (found->second->sequence != sequence) {
      lru_.erase(found->second);
      index_.erase(found);
      return std::nullopt;
    }
    lru_.splice(lru_.begin(), lru_, found->second);
    return found->second->value;
  }

  // Stores `value` as read at `sequence`, replacing any entry of `key` and
  // dropping the least recently used entries beyond the limit.
  void Insert(StoreKey key, uint64_t sequence, Value value)
      ABSL_LOCKS_EXCLUDED(mu_) {
    if (max_entries_ == 0) return;
    absl::MutexLock lock(&mu_);
    if (auto found = index_.find(key); found != index_.end()) {
      lru_.erase(found->second);
      index_.erase(found);
    }
    lru_.push_front(Entry{key, sequence, std::move(value)});
    index_.emplace(std::move(key), lru_.begin());
    while (index_.size() > max_entries_) {
      index_.erase(lru_.back().key);
      lru_.pop_back();
    }
  }

  // Entries held.
  size_t size() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return index_.size();
  }

 private:
  struct Entry {
    StoreKey key;
    uint64_t sequence = 0;  // Store::LatestSequenceNumber() when read.
    Value value;
  };
  using Lru = std::list<Entry>;  // Most recently used first.

  const size_t max_entries_;
  mutable absl::Mutex mu_;
  Lru lru_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<StoreKey, typename Lru::iterator> index_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_SEQUENCED_LRU_H_
