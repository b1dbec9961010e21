#include "paperdb/search/facet_counter.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/error_details.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/field_terms.h"
#include "paperdb/index/posting_iterator.h"

namespace paperdb::search {
namespace {

// Number of `matches` that `term`'s postings hold (a sorted intersection).
absl::StatusOr<uint64_t> CountIn(const storage::Store& store,
                                 const std::string& term,
                                 const std::vector<uint32_t>& matches) {
  index::PostingIterator postings(store, term);
  uint64_t count = 0;
  size_t i = 0;
  while (postings.doc() != index::kNoMoreDocs && i < matches.size()) {
    if (postings.doc() < matches[i]) {
      postings.Advance(matches[i]);
    } else if (postings.doc() > matches[i]) {
      i = static_cast<size_t>(
          std::lower_bound(matches.begin() + static_cast<ptrdiff_t>(i),
                           matches.end(), postings.doc()) -
          matches.begin());
    } else {
      ++count;
      ++i;
      postings.Next();
    }
  }
  PAPERDB_RETURN_IF_ERROR(postings.status());
  return count;
}

}  // namespace

absl::StatusOr<FacetResult> CountFacet(const storage::Store& store,
                                       absl::string_view asked,
                                       const std::vector<uint32_t>& matches,
                                       size_t limit,
                                       const CancelFn& cancelled) {
  const std::string field = FacetFieldName(asked);
  absl::string_view index_field;
  if (field == "venue") {
    index_field = index::kVenueField;
  } else if (field == "year") {
    index_field = index::kYearField;
  } else if (field == "has_code") {
    index_field = index::kHasField;
  } else if (field == "host") {
    index_field = index::kHostField;
  } else if (field == "dataset") {
    index_field = index::kDatasetField;
  } else if (field == "method") {
    index_field = index::kMethodField;
  } else {
    return WithField(absl::InvalidArgumentError(
                         absl::StrCat("facet_fields: unknown field '", asked,
                                      "': expected one of ", kFacetFields)),
                     "facet_fields");
  }
  // key -> (count, spelling counts).
  std::map<std::string, std::pair<uint64_t, std::map<std::string, uint64_t>>>
      by_key;
  const std::string prefix = index::FieldPrefix(index_field);
  std::unique_ptr<storage::StoreIterator> it =
      store.NewIterator(storage::Column::kTerms);
  std::vector<std::string> terms;
  for (it->Seek(prefix); it->Valid() && absl::StartsWith(it->key(), prefix);
       it->Next()) {
    terms.emplace_back(it->key());
  }
  PAPERDB_RETURN_IF_ERROR(it->status());
  for (const std::string& term : terms) {
    if (cancelled && cancelled()) {
      return absl::CancelledError("search cancelled while counting facets");
    }
    index::FieldTermParts parts;
    if (!index::ParseFieldTerm(term, &parts)) continue;
    PAPERDB_ASSIGN_OR_RETURN(const uint64_t count,
                             CountIn(store, term, matches));
    if (count == 0) continue;
    auto& entry = by_key[std::string(parts.key)];
    entry.first += count;
    entry.second[std::string(parts.display)] += count;
  }
  FacetResult result;
  result.field = std::string(field);
  for (const auto& [key, entry] : by_key) {
    const auto best = std::max_element(
        entry.second.begin(), entry.second.end(),
        [](const auto& a, const auto& b) { return a.second < b.second; });
    result.values.push_back({best->first, entry.first});
  }
  if (field == "has_code") {
    const uint64_t with = result.values.empty() ? 0 : result.values[0].count;
    result.values.clear();
    if (with > 0) result.values.push_back({"true", with});
    if (matches.size() > with) {
      result.values.push_back({"false", matches.size() - with});
    }
  }
  std::sort(result.values.begin(), result.values.end(),
            [](const FacetCount& a, const FacetCount& b) {
              return a.count > b.count ||
                     (a.count == b.count && a.value < b.value);
            });
  result.distinct_values = result.values.size();
  if (result.values.size() > limit) result.values.resize(limit);
  return result;
}

}  // namespace paperdb::search
