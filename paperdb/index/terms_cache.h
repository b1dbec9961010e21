// TermsCache: recent answers read from the "terms" column family (document
// frequencies, and short prefix scans such as a word's acronym
// expansions), kept in memory between searches. Every query word costs a
// few of these reads, and a RocksDB Get or iterator costs microseconds: on
// small corpora they were half of a search's time.
//
// Like PostingCache, an entry is valid for the Store instance and sequence
// number it was read at (SequencedLru); least recently used entries go
// first once the entry limit is reached. Thread-safe.

#ifndef PAPERDB_INDEX_TERMS_CACHE_H_
#define PAPERDB_INDEX_TERMS_CACHE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "paperdb/index/sequenced_lru.h"
#include "paperdb/storage/store.h"

namespace paperdb::index {

// A stored term and its document frequency.
struct TermDf {
  std::string term;
  uint32_t df = 0;
  bool operator==(const TermDf& other) const = default;
};

// Parses a "terms" value (a varint32 document frequency). DATA_LOSS if it
// does not parse.
absl::StatusOr<uint32_t> ParseDocumentFrequency(absl::string_view value);

class TermsCache {
 public:
  static constexpr size_t kDefaultMaxEntries = 1 << 16;

  explicit TermsCache(size_t max_entries) : lru_(max_entries) {}
  TermsCache(const TermsCache&) = delete;
  TermsCache& operator=(const TermsCache&) = delete;

  // The process-wide cache searches read through.
  static TermsCache& Default();

  // The number of papers holding `term` in `store` (0 if none). DATA_LOSS
  // for a malformed value, INTERNAL for store errors.
  absl::StatusOr<uint32_t> DocumentFrequency(const storage::Store& store,
                                             absl::string_view term);

  // The first `limit` stored terms starting with `prefix` whose document
  // frequency is above 0, in key order. Cached only if
  // `limit` is at most kMaxCachedScan. Errors as DocumentFrequency().
  static constexpr size_t kMaxCachedScan = 100;
  absl::StatusOr<std::vector<TermDf>> Scan(const storage::Store& store,
                                           absl::string_view prefix,
                                           size_t limit);

  // Entries held, for tests.
  size_t size() const { return lru_.size(); }

 private:
  SequencedLru<std::vector<TermDf>> lru_;
};

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_TERMS_CACHE_H_
