#include "query_service/search_result_builder.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/util/field_mask_util.h"
#include "paperdb/common/error_details.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/doc_positions.h"
#include "paperdb/index/field_terms.h"
#include "paperdb/index/token_spans.h"
#include "paperdb/search/highlighter.h"
#include "paperdb/text/utf8.h"
#include "query_service/read_mask.h"

namespace paperdb::query {
namespace {

// Converts sorted, non-overlapping byte spans of `text` to API spans.
void AddSpans(absl::string_view text,
              const std::vector<search::ByteSpan>& spans,
              google::protobuf::RepeatedPtrField<v1::TextSpan>* out) {
  text::OffsetConverter converter(text);
  for (const search::ByteSpan& span : spans) {
    const text::TextOffset start = converter.Convert(span.start);
    const text::TextOffset end = converter.Convert(span.end);
    v1::TextSpan* s = out->Add();
    s->set_start_byte(start.byte);
    s->set_end_byte(end.byte);
    s->set_start_code_point(start.code_point);
    s->set_end_code_point(end.code_point);
    s->set_start_utf16(start.utf16);
    s->set_end_utf16(end.utf16);
  }
}

}  // namespace

std::vector<NameFilter> NameFiltersOf(const search::QueryNode& node) {
  std::vector<NameFilter> out;
  if (node.excluded) return out;
  if (node.kind == search::QueryNode::Kind::kField &&
      (node.field == index::kMethodField ||
       node.field == index::kDatasetField)) {
    out.push_back({node.field, node.value});
  }
  for (const search::QueryNode& child : node.children) {
    std::vector<NameFilter> more = NameFiltersOf(child);
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

absl::StatusOr<ResultMask> ParseResultMask(
    const google::protobuf::FieldMask& mask) {
  PAPERDB_RETURN_IF_ERROR(WithField(
      CheckReadMask(v1::SearchResult::descriptor(), mask,
                    "paper.* as in Paper; a repeated field such as "
                    "paper.sources is named whole; \"*\" alone for all; in "
                    "JSON lowerCamelCase, e.g. partialMatch"),
      "read_mask"));
  ResultMask out;
  if (IsFullMask(mask)) return out;
  out = {.all = false,
         .highlights = false,
         .snippet = false,
         .match_source = false,
         .explanation = false,
         .record = {.all = false, .paper_fields = {}, .token_spans = false}};
  storage::RecordFields& record = out.record;
  for (const std::string& path : mask.paths()) {
    auto under = [&](absl::string_view field) {
      return path == field || absl::StartsWith(path, absl::StrCat(field, "."));
    };
    out.highlights |= under("highlights");
    out.snippet |= under("snippet");
    out.match_source |= under("match_source");
    out.explanation |= under("explanation");
    if (path == "paper") record.all = true;
    if (absl::StartsWith(path, "paper.") &&
        !AddPaperField(absl::string_view(path).substr(6), &record)) {
      record.all = true;  // CheckReadMask() refuses such a path.
    }
  }
  if (out.highlights || out.snippet) {
    record.paper_fields.push_back(v1::Paper::kAbstractFieldNumber);
    record.token_spans = true;
  }
  return out;
}

ResultTrimmer::ResultTrimmer(const google::protobuf::FieldMask& mask)
    : mask_(mask), all_(IsFullMask(mask)) {
  if (all_) return;
  const google::protobuf::Descriptor* result = v1::SearchResult::descriptor();
  const google::protobuf::Descriptor* paper = v1::Paper::descriptor();
  absl::flat_hash_set<std::string> whole;        // SearchResult fields.
  absl::flat_hash_set<std::string> paper_parts;  // Paper fields.
  for (const std::string& path : mask.paths()) {
    const std::vector<absl::string_view> parts = absl::StrSplit(path, '.');
    if (parts.size() == 1) {
      whole.insert(path);
    } else if (parts.size() == 2 && parts[0] == "paper") {
      paper_parts.insert(std::string(parts[1]));
    } else {
      deep_ = true;
      return;
    }
  }
  for (int i = 0; i < result->field_count(); ++i) {
    const google::protobuf::FieldDescriptor* field = result->field(i);
    if (whole.contains(field->name())) continue;
    if (field->name() == "paper" && !paper_parts.empty()) continue;
    clear_.push_back(field);
  }
  if (whole.contains("paper") || paper_parts.empty()) return;
  for (int i = 0; i < paper->field_count(); ++i) {
    if (!paper_parts.contains(paper->field(i)->name())) {
      paper_clear_.push_back(paper->field(i));
    }
  }
}

void ResultTrimmer::Trim(v1::SearchResult* result) const {
  if (all_) return;
  if (deep_) {
    google::protobuf::util::FieldMaskUtil::TrimMessage(mask_, result);
    return;
  }
  const google::protobuf::Reflection* reflection = result->GetReflection();
  for (const google::protobuf::FieldDescriptor* field : clear_) {
    reflection->ClearField(result, field);
  }
  if (paper_clear_.empty() || !result->has_paper()) return;
  v1::Paper* paper = result->mutable_paper();
  const google::protobuf::Reflection* paper_reflection = paper->GetReflection();
  for (const google::protobuf::FieldDescriptor* field : paper_clear_) {
    paper_reflection->ClearField(paper, field);
  }
}

absl::StatusOr<std::vector<search::ByteSpan>> HighlightsOf(
    const storage::Store& store, uint32_t doc,
    const storage::v1::PaperRecord& record,
    const std::vector<search::MatchUnit>& units) {
  const std::string& abstract = record.paper().abstract();
  absl::StatusOr<index::TokenSpans> spans = index::TokenSpans::Decode(
      record.token_spans(), static_cast<uint32_t>(abstract.size()));
  if (record.token_spans().empty() || !spans.ok()) {
    // Written before token spans were stored, or spans that do not decode
    // (`ingest_service verify` reports those): the abstract is analyzed
    // again, which gives the same highlights.
    return search::Highlight(abstract, units);
  }
  absl::flat_hash_map<std::string, std::vector<uint32_t>> positions;
  for (const search::MatchUnit& unit : units) {
    for (const std::string& term : unit.terms) {
      if (positions.contains(term)) continue;
      PAPERDB_ASSIGN_OR_RETURN(
          std::vector<uint32_t> found,
          index::TermPositionsInDoc(store, index::PostingCache::Default(), term,
                                    doc));
      positions.emplace(term, std::move(found));
    }
  }
  return search::HighlightAt(*spans, units, positions);
}

void BuildSearchResult(v1::Paper paper, double score,
                       std::vector<search::ByteSpan> highlights,
                       const std::vector<search::MatchUnit>& units,
                       const std::vector<NameFilter>& name_filters,
                       uint32_t snippet_code_points, const ResultMask& mask,
                       v1::SearchResult* result) {
  result->set_score(score);
  if (!mask.highlights && !mask.snippet) {
    *result->mutable_paper() = std::move(paper);
    return;
  }
  const absl::string_view abstract = paper.abstract();
  // The mentions a method: or dataset: filter matched.
  bool added = false;
  for (const NameFilter& filter : name_filters) {
    const auto& mentions = filter.field == index::kMethodField
                               ? paper.methods()
                               : paper.datasets();
    for (const v1::Mention& mention : mentions) {
      if (index::NameKey(mention.name()) != filter.key) continue;
      const uint32_t start = mention.span().start_byte();
      const uint32_t end = mention.span().end_byte();
      if (start < end && end <= abstract.size()) {
        highlights.push_back(
            {start, end, static_cast<uint32_t>(units.size()), 1});
        added = true;
      }
    }
  }
  if (added) highlights = search::MergeOverlapping(std::move(highlights));
  if (mask.highlights) {
    AddSpans(abstract, highlights, result->mutable_highlights());
  }
  if (!mask.snippet) {
    *result->mutable_paper() = std::move(paper);
    return;
  }

  const search::SnippetWindow window =
      search::MakeSnippet(abstract, highlights, snippet_code_points);
  v1::Snippet* snippet = result->mutable_snippet();
  const absl::string_view text = abstract.substr(
      window.range.start, window.range.end - window.range.start);
  snippet->set_text(std::string(text));
  google::protobuf::RepeatedPtrField<v1::TextSpan> range;
  AddSpans(abstract, {window.range}, &range);
  *snippet->mutable_range() = range[0];
  AddSpans(text, window.highlights, snippet->mutable_highlights());
  snippet->set_truncated_start(window.truncated_start);
  snippet->set_truncated_end(window.truncated_end);

  *result->mutable_paper() = std::move(paper);
}

}  // namespace paperdb::query
