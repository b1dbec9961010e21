#include "paperdb/index/terms_cache.h"

#include <memory>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/varint.h"

namespace paperdb::index {

absl::StatusOr<uint32_t> ParseDocumentFrequency(absl::string_view value) {
  const char* p = value.data();
  uint32_t df = 0;
  if (!GetVarint32(&p, value.data() + value.size(), &df)) {
    return absl::DataLossError("document frequency does not parse");
  }
  return df;
}

TermsCache& TermsCache::Default() {
  static TermsCache* const cache = new TermsCache(kDefaultMaxEntries);
  return *cache;
}

absl::StatusOr<uint32_t> TermsCache::DocumentFrequency(
    const storage::Store& store, absl::string_view term) {
  const uint64_t sequence = store.LatestSequenceNumber();
  StoreKey key{store.instance_id(), absl::StrCat("d", term)};
  if (std::optional<std::vector<TermDf>> cached = lru_.Lookup(key, sequence)) {
    return cached->empty() ? 0 : (*cached)[0].df;
  }
  absl::StatusOr<std::string> value = store.Get(storage::Column::kTerms, term);
  uint32_t df = 0;
  if (value.ok()) {
    PAPERDB_ASSIGN_OR_RETURN(df, ParseDocumentFrequency(*value));
  } else if (!absl::IsNotFound(value.status())) {
    return value.status();
  }
  std::vector<TermDf> entry;
  if (df > 0) entry.push_back({std::string(term), df});
  lru_.Insert(std::move(key), sequence, std::move(entry));
  return df;
}

absl::StatusOr<std::vector<TermDf>> TermsCache::Scan(
    const storage::Store& store, absl::string_view prefix, size_t limit) {
  const uint64_t sequence = store.LatestSequenceNumber();
  StoreKey key{store.instance_id(), absl::StrCat("s", limit, ":", prefix)};
  if (limit <= kMaxCachedScan) {
    if (std::optional<std::vector<TermDf>> cached =
            lru_.Lookup(key, sequence)) {
      return *std::move(cached);
    }
  }
  std::vector<TermDf> out;
  std::unique_ptr<storage::StoreIterator> it =
      store.NewIterator(storage::Column::kTerms);
  for (it->Seek(prefix);
       it->Valid() && absl::StartsWith(it->key(), prefix) && out.size() < limit;
       it->Next()) {
    PAPERDB_ASSIGN_OR_RETURN(const uint32_t df,
                             ParseDocumentFrequency(it->value()));
    if (df > 0) out.push_back({std::string(it->key()), df});
  }
  PAPERDB_RETURN_IF_ERROR(it->status());
  if (limit <= kMaxCachedScan) lru_.Insert(std::move(key), sequence, out);
  return out;
}

}  // namespace paperdb::index
