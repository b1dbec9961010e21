// The key of a cache of what was read from a Store: the store instance
// (Store::instance_id(), new for each open or reopen) and a string naming
// what was read. Entries of another instance never match.

#ifndef PAPERDB_INDEX_STORE_KEY_H_
#define PAPERDB_INDEX_STORE_KEY_H_

#include <cstdint>
#include <string>
#include <utility>

namespace paperdb::index {

struct StoreKey {
  uint64_t store = 0;  // Store::instance_id().
  std::string name;    // A term, or what the cache makes of its request.

  template <typename H>
  friend H AbslHashValue(H h, const StoreKey& k) {
    return H::combine(std::move(h), k.store, k.name);
  }
  bool operator==(const StoreKey& other) const = default;
};

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_STORE_KEY_H_
