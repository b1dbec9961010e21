// Facet counts: how many papers of a match set have each value of a typed
// field (venue, year, code, host, dataset, method), read from the field
// terms' posting lists (field_terms.h) intersected with the match set.
// Cost: linear in the field's postings and the match set, whatever the page.

#ifndef PAPERDB_SEARCH_FACET_COUNTER_H_
#define PAPERDB_SEARCH_FACET_COUNTER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/string_view.h"
#include "paperdb/search/searcher.h"
#include "paperdb/storage/store.h"

namespace paperdb::search {

struct FacetCount {
  std::string value;  // As papers give it; "true"/"false" for has_code.
  uint64_t count = 0;
};

struct FacetResult {
  std::string field;               // As requested.
  std::vector<FacetCount> values;  // Count descending, then value.
  size_t distinct_values = 0;      // Before truncation to the limit.
};

// The facet fields SearchPapers accepts, comma-separated (for messages).
inline constexpr absl::string_view kFacetFields =
    "venue, year, has_code, host, dataset, method";

// The facet field `name` names, as kFacetFields spells it: in any case, as
// field filters are ("VENUE" is venue), and "hasCode" (as JSON spells field
// names, and a read_mask must be written) is has_code; any other name is
// itself, lower-cased.
inline std::string FacetFieldName(absl::string_view name) {
  std::string field = absl::AsciiStrToLower(name);
  return field == "hascode" ? "has_code" : field;
}

// Counts `field`'s values over `matches` (sorted doc ids), keeping the
// `limit` most frequent. Values with the same folded key count together
// under their most frequent spelling. `field` is read by FacetFieldName(),
// and the result names the field as kFacetFields does. INVALID_ARGUMENT for a
// field not in kFacetFields; CANCELLED via `cancelled`; store errors.
absl::StatusOr<FacetResult> CountFacet(const storage::Store& store,
                                       absl::string_view field,
                                       const std::vector<uint32_t>& matches,
                                       size_t limit,
                                       const CancelFn& cancelled = nullptr);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_FACET_COUNTER_H_
