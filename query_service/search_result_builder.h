// Fills the API's SearchResult for one hit: the paper, its score, highlight
// spans and snippet, with every span given in UTF-8 bytes, code points and
// UTF-16 code units.

#ifndef PAPERDB_QUERY_SERVICE_SEARCH_RESULT_BUILDER_H_
#define PAPERDB_QUERY_SERVICE_SEARCH_RESULT_BUILDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "google/protobuf/field_mask.pb.h"
#include "paperdb/search/highlighter.h"
#include "paperdb/search/query.h"
#include "paperdb/storage/record_fields.h"
#include "paperdb/storage/store.h"
#include "paperdb/storage/v1/records.pb.h"
#include "paperdb/v1/paper.pb.h"
#include "paperdb/v1/query_service.pb.h"

namespace paperdb::query {

// A method: or dataset: filter of a query: its field and NameKey().
struct NameFilter {
  std::string field;
  std::string key;
};

// The method: and dataset: filters of `node` that are not excluded.
std::vector<NameFilter> NameFiltersOf(const search::QueryNode& node);

// What a read_mask (AIP-157) asks of each SearchResult.
struct ResultMask {
  bool all = true;           // No mask: every field.
  bool highlights = true;    // "highlights" or a path under it is asked for.
  bool snippet = true;       // "snippet" or a path under it is asked for.
  bool match_source = true;  // "match_source" is asked for.
  bool explanation = true;   // "explanation" or a path under it.
  // The parts of each stored record the fields asked for are read from:
  // the Paper fields named, and the abstract and its token spans for
  // highlights or a snippet.
  storage::RecordFields record;
};

// Reads a SearchPapersRequest.read_mask: paths of SearchResult fields
// ("paper.venue", "snippet"); no paths, or "*" alone, means every field.
// INVALID_ARGUMENT naming (up to 100 bytes of) the first path that
// SearchResult lacks, including empty ones.
absl::StatusOr<ResultMask> ParseResultMask(
    const google::protobuf::FieldMask& mask);

// Clears the fields of SearchResults that a read_mask does not name, from a
// plan made once per request: FieldMaskUtil::TrimMessage() parses the mask
// again for every message (8% of a results page's server time). Masks of
// SearchResult fields and of Paper fields under "paper." are applied with
// the plan; deeper paths ("snippet.text") by TrimMessage(), with the same
// outcome.
class ResultTrimmer {
 public:
  // REQUIRES: ParseResultMask(mask).ok(). `mask` must outlive the trimmer.
  explicit ResultTrimmer(const google::protobuf::FieldMask& mask);

  // Clears every field of `result` that the mask does not name; a no-op for
  // a mask of every field.
  void Trim(v1::SearchResult* result) const;

 private:
  const google::protobuf::FieldMask& mask_;
  bool all_ = true;    // No mask, or "*": nothing to clear.
  bool deep_ = false;  // Paths deeper than the plan: TrimMessage().
  std::vector<const google::protobuf::FieldDescriptor*> clear_;  // Whole.
  // Fields of Paper to clear, when "paper" is named only by paths under it.
  std::vector<const google::protobuf::FieldDescriptor*> paper_clear_;
};

// Where `units` (search::CollectMatchUnits() of a query: its highlightable
// terms and phrases) match the abstract of `record`, paper `doc` of
// `store`: from the record's stored token spans and the postings, or, for a
// record written before token spans were stored (or whose spans do not
// decode), by analysing the abstract again. Errors: DATA_LOSS for malformed
// postings, INTERNAL for store errors.
absl::StatusOr<std::vector<search::ByteSpan>> HighlightsOf(
    const storage::Store& store, uint32_t doc,
    const storage::v1::PaperRecord& record,
    const std::vector<search::MatchUnit>& units);

// Fills `result` for `paper`, which matched a query with BM25 `score`:
// `highlights` from HighlightsOf(), with the mentions (Paper.methods,
// Paper.datasets) that `name_filters` match added; `units` are the query's
// (their count numbers the mentions' clause); `snippet_code_points` is the
// snippet length. Highlights and the snippet are filled only if `mask`
// asks for them (the rest is left to TrimResult()).
void BuildSearchResult(v1::Paper paper, double score,
                       std::vector<search::ByteSpan> highlights,
                       const std::vector<search::MatchUnit>& units,
                       const std::vector<NameFilter>& name_filters,
                       uint32_t snippet_code_points, const ResultMask& mask,
                       v1::SearchResult* result);

}  // namespace paperdb::query

#endif  // PAPERDB_QUERY_SERVICE_SEARCH_RESULT_BUILDER_H_
