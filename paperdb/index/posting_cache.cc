#include "paperdb/index/posting_cache.h"

namespace paperdb::index {

PostingCache& PostingCache::Default() {
  static PostingCache* const cache = new PostingCache(kDefaultCapacityBytes);
  return *cache;
}

absl::StatusOr<std::shared_ptr<const PostingList>> PostingCache::Get(
    const storage::Store& store, absl::string_view term) {
  const uint64_t sequence = store.LatestSequenceNumber();
  Key key{store.instance_id(), std::string(term)};
  {
    absl::MutexLock lock(&mu_);
    auto found = index_.find(key);
    if (found != index_.end()) {
      if (found->second->sequence == sequence) {
        lru_.splice(lru_.begin(), lru_, found->second);
        return found->second->list;
      }
      Erase(found->second);  // Stale.
    }
  }
  // Read outside the lock; two readers missing at once both read.
  absl::StatusOr<std::shared_ptr<const PostingList>> list =
      ReadPostingList(store, term);
  if (!list.ok()) return list;
  absl::MutexLock lock(&mu_);
  const size_t bytes = (*list)->ByteSize();
  if (bytes > capacity_bytes_ / 8 || index_.contains(key)) return list;
  lru_.push_front(Entry{key, sequence, *list});
  index_.emplace(std::move(key), lru_.begin());
  bytes_ += bytes;
  EvictTo(capacity_bytes_);
  return list;
}

std::shared_ptr<const PostingList> PostingCache::Peek(
    const storage::Store& store, absl::string_view term) {
  const uint64_t sequence = store.LatestSequenceNumber();
  Key key{store.instance_id(), std::string(term)};
  absl::MutexLock lock(&mu_);
  auto found = index_.find(key);
  if (found == index_.end() || found->second->sequence != sequence) {
    return nullptr;
  }
  lru_.splice(lru_.begin(), lru_, found->second);
  return found->second->list;
}

void PostingCache::SetCapacity(size_t capacity_bytes) {
  absl::MutexLock lock(&mu_);
  capacity_bytes_ = capacity_bytes;
  EvictTo(capacity_bytes_);
}

size_t PostingCache::ByteSize() const {
  absl::MutexLock lock(&mu_);
  return bytes_;
}

size_t PostingCache::size() const {
  absl::MutexLock lock(&mu_);
  return index_.size();
}

void PostingCache::EvictTo(size_t capacity_bytes) {
  while (bytes_ > capacity_bytes && !lru_.empty()) {
    Erase(std::prev(lru_.end()));
  }
}

void PostingCache::Erase(Lru::iterator it) {
  bytes_ -= it->list->ByteSize();
  index_.erase(it->key);
  lru_.erase(it);
}

}  // namespace paperdb::index
