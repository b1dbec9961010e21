#include "query_service/query_engine.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "paperdb/common/error_details.h"
#include "paperdb/common/hash.h"
#include "paperdb/common/page_token.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/rpc/list_page_state.h"
#include "paperdb/search/facet_counter.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/search/searcher.h"
#include "paperdb/search/semantic_query.h"
#include "paperdb/text/utf8.h"
#include "query_service/read_mask.h"
#include "query_service/reply_budget.h"
#include "query_service/request_limits.h"
#include "query_service/search_page_state.h"
#include "query_service/search_response.h"
#include "query_service/search_result_builder.h"

namespace paperdb::query {

QueryEngine::QueryEngine(std::unique_ptr<storage::Store> store)
    : store_(std::move(store)), table_(store_.get()) {
  absl::WriterMutexLock lock(&mu_);
  RefreshStats();
}

void QueryEngine::RefreshStats() {
  absl::StatusOr<storage::v1::CorpusStats> stats = table_.Stats();
  stats_valid_ = stats.ok();  // If not, each search reads them (and fails).
  if (stats.ok()) stats_ = *std::move(stats);
}

QueryEngine::~QueryEngine() {
  stop_.Notify();
  if (catch_up_thread_.joinable()) catch_up_thread_.join();
}

absl::StatusOr<std::unique_ptr<QueryEngine>> QueryEngine::Open(
    const std::string& db_path, const std::string& secondary_path) {
  PAPERDB_ASSIGN_OR_RETURN(
      std::unique_ptr<storage::Store> store,
      storage::Store::OpenSecondary(db_path, secondary_path));
  return std::unique_ptr<QueryEngine>(new QueryEngine(std::move(store)));
}

absl::Status QueryEngine::Available() const {
  if (!store_->replaced()) return absl::OkStatus();
  return absl::UnavailableError(absl::StrCat(
      "store ", store_->path(),
      " was removed or replaced since query_service opened it; restart "
      "query_service to serve the new one"));
}

absl::Status QueryEngine::CatchUp() {
  // An idle writer is the usual case: then take no lock at all, since even a
  // try-lock loop ends by waiting in line, holding back every new request
  // behind a long-running search.
  if (!store_->WriterChangedSinceCatchUp()) return absl::OkStatus();
  // After the writer flushed, a fresh secondary instance takes a while to
  // open: open it before taking the lock, so that requests wait only for
  // the switch.
  PAPERDB_RETURN_IF_ERROR(store_->PrepareCatchUp());
  // A writer waiting on the lock would hold back every new request behind a
  // long-running one, so first try for a while without waiting in line.
  for (int attempt = 0; attempt < 200; ++attempt) {
    if (mu_.WriterTryLock()) {
      const absl::Status status = store_->CatchUp();
      RefreshStats();
      mu_.WriterUnlock();
      return status;
    }
    absl::SleepFor(absl::Milliseconds(1));
  }
  absl::WriterMutexLock lock(&mu_);
  const absl::Status status = store_->CatchUp();
  RefreshStats();
  return status;
}

void QueryEngine::StartCatchUpLoop(
    absl::Duration interval,
    std::function<void(const absl::Status&)> on_result) {
  catch_up_thread_ =
      std::thread([this, interval, on_result = std::move(on_result)] {
        while (!stop_.WaitForNotificationWithTimeout(interval)) {
          on_result(CatchUp());
        }
      });
}

absl::StatusOr<v1::Paper> QueryEngine::GetPaperLocked(
    absl::string_view name, const storage::RecordFields& fields) const {
  PAPERDB_ASSIGN_OR_RETURN(const std::string id, PaperIdFromName(name));
  PAPERDB_ASSIGN_OR_RETURN(const uint32_t doc, table_.FindDocId(id));
  PAPERDB_ASSIGN_OR_RETURN(storage::v1::PaperRecord record,
                           table_.Get(doc, fields));
  return std::move(*record.mutable_paper());
}

absl::StatusOr<uint64_t> QueryEngine::DocumentCount() const {
  absl::ReaderMutexLock lock(&mu_);
  PAPERDB_ASSIGN_OR_RETURN(const storage::v1::CorpusStats stats,
                           table_.Stats());
  return stats.doc_count();
}

uint64_t QueryEngine::StoreBytes() const {
  absl::ReaderMutexLock lock(&mu_);
  return store_->DataBytes();
}

absl::StatusOr<v1::Paper> QueryEngine::GetPaper(
    absl::string_view name, const storage::RecordFields& fields) const {
  absl::ReaderMutexLock lock(&mu_);
  return GetPaperLocked(name, fields);
}

absl::Status QueryEngine::BatchGetPapers(
    const v1::BatchGetPapersRequest& request,
    v1::BatchGetPapersResponse* response) const {
  if (request.names_size() > kMaxBatchGet) {
    return WithField(absl::InvalidArgumentError(absl::StrCat(
                         "names: ", request.names_size(), " names, at most ",
                         kMaxBatchGet, " allowed")),
                     "names");
  }
  PAPERDB_RETURN_IF_ERROR(CheckPaperMask(request.read_mask()));
  const PaperTrimmer trimmer(request.read_mask());
  const storage::RecordFields fields = PaperRecordFields(request.read_mask());
  absl::ReaderMutexLock lock(&mu_);
  ReplyBudget budget(0);
  for (int i = 0; i < request.names_size(); ++i) {
    absl::StatusOr<v1::Paper> paper = GetPaperLocked(request.names(i), fields);
    if (!paper.ok()) {
      absl::Status status(
          paper.status().code(),
          absl::StrCat("names[", i, "]: ", paper.status().message()));
      if (absl::IsNotFound(status)) {
        // Which name, for a client to act on without reading the message.
        return WithReason(std::move(status), "NOT_FOUND",
                          {{"field", absl::StrCat("names[", i, "]")},
                           {"name", request.names(i)}});
      }
      if (!absl::IsInvalidArgument(status)) return status;
      return WithField(std::move(status), absl::StrCat("names[", i, "]"));
    }
    trimmer.Trim(&*paper);
    if (!budget.Take(ElementBytes(*paper))) {
      return WithField(
          absl::InvalidArgumentError(absl::StrCat(
              "names: the papers up to names[", i, "] hold more than ",
              kMaxReplyBytes,
              " bytes, what one reply carries (a default "
              "gRPC client takes 4 MiB): ask for fewer at a time")),
          "names");
    }
    *response->add_papers() = *std::move(paper);
  }
  return absl::OkStatus();
}

absl::Status QueryEngine::ListPapers(const v1::ListPapersRequest& request,
                                     v1::ListPapersResponse* response) const {
  PAPERDB_ASSIGN_OR_RETURN(
      const int page_size,
      PageSize(request.page_size(), kDefaultListPageSize, kMaxListPageSize));
  // A keyset cursor: the doc id the next page starts at.
  PageCursor cursor;
  storage::v1::ListPageState state;
  if (!request.page_token().empty()) {
    PAPERDB_ASSIGN_OR_RETURN(cursor,
                             DecodePageCursor(request.page_token(), "list",
                                              Hash64(store_->identity())));
    PAPERDB_ASSIGN_OR_RETURN(state, rpc::DecodeListPageState(cursor.state));
  }
  PAPERDB_RETURN_IF_ERROR(CheckPaperMask(request.read_mask()));
  const PaperTrimmer trimmer(request.read_mask());
  const uint64_t start = cursor.position;
  absl::ReaderMutexLock lock(&mu_);
  PAPERDB_ASSIGN_OR_RETURN(const storage::v1::CorpusStats stats,
                           table_.Stats());
  response->set_total_size(static_cast<int64_t>(stats.doc_count()));
  if (request.page_token().empty()) {
    state.set_first_total_size(response->total_size());
  } else {
    response->set_total_size_changed(state.first_total_size() !=
                                     response->total_size());
  }
  if (start > UINT32_MAX) return absl::OkStatus();
  PAPERDB_ASSIGN_OR_RETURN(auto records,
                           table_.List(static_cast<uint32_t>(start),
                                       static_cast<size_t>(page_size) + 1,
                                       PaperRecordFields(request.read_mask())));
  ReplyBudget budget(response->ByteSizeLong() + 64);  // 64: the token.
  for (size_t i = 0; i < records.size(); ++i) {
    trimmer.Trim(records[i].second.mutable_paper());
    const v1::Paper& paper = records[i].second.paper();
    // The record past the page, or one that would not fit: the next page
    // starts at it.
    if (i == static_cast<size_t>(page_size) ||
        (i > 0 && !budget.Take(ElementBytes(paper)))) {
      response->set_next_page_token(EncodePageToken(
          "list", Hash64(store_->identity()),
          PageCursor{records[i].first, state.SerializeAsString()}));
      break;
    }
    *response->add_papers() = std::move(*records[i].second.mutable_paper());
  }
  return absl::OkStatus();
}

namespace {

constexpr int kDefaultFacetSize = 10;
constexpr int kMaxFacetSize = 1000;

absl::StatusOr<search::SortOrder> ParseOrderBy(absl::string_view order_by) {
  std::string normalized;
  for (absl::string_view word :
       absl::StrSplit(order_by, ' ', absl::SkipWhitespace())) {
    if (!normalized.empty()) normalized += ' ';
    normalized += absl::AsciiStrToLower(word);
  }
  if (normalized.empty() || normalized == "relevance") {
    return search::SortOrder::kRelevance;
  }
  if (normalized == "year desc") return search::SortOrder::kYearDescending;
  if (normalized == "year" || normalized == "year asc") {
    return search::SortOrder::kYearAscending;
  }
  if (normalized == "ingest_time" || normalized == "ingest_time asc") {
    return search::SortOrder::kIngestOrder;
  }
  if (normalized == "ingest_time desc") {
    return search::SortOrder::kIngestDescending;
  }
  return WithField(
      absl::InvalidArgumentError(absl::StrCat(
          "order_by: '", order_by,
          "' is not supported: expected \"relevance\", \"year desc\", "
          "\"year asc\" (or \"year\"), \"ingest_time asc\" (or "
          "\"ingest_time\") or \"ingest_time desc\"")),
      "order_by");
}

}  // namespace

absl::Status QueryEngine::SearchPapers(
    const v1::SearchPapersRequest& request, v1::SearchPapersResponse* response,
    const search::CancelFn& cancelled) const {
  PAPERDB_ASSIGN_OR_RETURN(const int page_size,
                           PageSize(request.page_size(), kDefaultSearchPageSize,
                                    kMaxSearchPageSize));
  if (request.snippet_length() < 0) {
    return WithField(absl::InvalidArgumentError(
                         absl::StrCat("snippet_length must not be negative, "
                                      "got ",
                                      request.snippet_length())),
                     "snippet_length");
  }
  if (request.facet_size() < 0) {
    return WithField(
        absl::InvalidArgumentError(absl::StrCat(
            "facet_size must not be negative, got ", request.facet_size())),
        "facet_size");
  }
  const size_t facet_size =
      static_cast<size_t>(request.facet_size() == 0
                              ? kDefaultFacetSize
                              : std::min(request.facet_size(), kMaxFacetSize));
  const uint32_t snippet_length = static_cast<uint32_t>(
      request.snippet_length() == 0
          ? kDefaultSnippetCodePoints
          : std::min(request.snippet_length(), kMaxSnippetCodePoints));
  PAPERDB_ASSIGN_OR_RETURN(const search::SortOrder order,
                           ParseOrderBy(request.order_by()));
  PAPERDB_ASSIGN_OR_RETURN(const ResultMask mask,
                           ParseResultMask(request.read_mask()));
  PAPERDB_ASSIGN_OR_RETURN(search::Query parsed,
                           search::ParseQuery(request.query()));
  if (!v1::MatchingStrategy_IsValid(request.matching_strategy())) {
    return WithField(
        absl::InvalidArgumentError(absl::StrCat(
            "matching_strategy: unknown value ", request.matching_strategy(),
            ": expected MATCHING_STRATEGY_ALL_THEN_SOME or "
            "MATCHING_STRATEGY_ALL")),
        "matching_strategy");
  }
  const bool all_terms =
      request.matching_strategy() == v1::MATCHING_STRATEGY_ALL;
  if (!v1::SemanticMode_IsValid(request.semantic())) {
    return WithField(absl::InvalidArgumentError(absl::StrCat(
                         "semantic: unknown value ", request.semantic(),
                         ": expected SEMANTIC_MODE_ON, SEMANTIC_MODE_OFF or "
                         "SEMANTIC_MODE_ONLY")),
                     "semantic");
  }
  const v1::SemanticMode semantic =
      request.semantic() == v1::SEMANTIC_MODE_UNSPECIFIED ? v1::SEMANTIC_MODE_ON
                                                          : request.semantic();
  // SEMANTIC_MODE_ONLY searches the concepts the query names, alone.
  const bool concepts_only = semantic == v1::SEMANTIC_MODE_ONLY;
  search::ConceptQuery concepts;
  // Concepts alone match as words do: papers naming every concept, then
  // (unless MATCHING_STRATEGY_ALL) papers naming some, as partial matches.
  if (concepts_only) {
    concepts = search::ConceptQueryOf(parsed, /*require_all=*/true);
  }
  // What a page token is bound to, the query length-prefixed so that no
  // two requests share it, and the order as parsed: "relevance" is the
  // default order, and "year  DESC" is "year desc".
  // The store's identity too: its doc ids and statistics mean nothing to
  // another store.
  const uint64_t fingerprint = Hash64(
      absl::StrCat(request.query().size(), ":", request.query(), ":",
                   static_cast<int>(order), ":", all_terms ? "all" : "some",
                   ":", static_cast<int>(semantic), ":", store_->identity()));
  // A next page continues after the last result of the previous one,
  // matched and scored as the first page was (search_page_state.h).
  std::optional<SearchPageState> previous;
  if (!request.page_token().empty()) {
    PAPERDB_ASSIGN_OR_RETURN(
        const PageCursor cursor,
        DecodePageCursor(request.page_token(), "search", fingerprint));
    PAPERDB_ASSIGN_OR_RETURN(previous, DecodeSearchPageState(cursor.state));
  }

  // Concepts named by runs of words match beside them, grouped before
  // expansion (a word no paper holds is one the concept may stand for).
  std::vector<search::MatchUnit> concept_units;
  std::vector<search::QueryRewrite> concept_rewrites;
  search::Query word_query;  // Without the concepts, when they were added.
  absl::ReaderMutexLock lock(&mu_);
  if (semantic == v1::SEMANTIC_MODE_ON) {
    word_query = parsed;
    PAPERDB_ASSIGN_OR_RETURN(
        concepts.concept_ids,
        search::ExpandConcepts(*store_, &parsed, &concept_units,
                               &concept_rewrites));
  } else if (concepts_only) {
    concept_units = concepts.units;
    // Its filters and exclusions are expanded as any query's are.
    PAPERDB_ASSIGN_OR_RETURN(
        search::ExpandedQuery expanded_concepts,
        search::ExpandQuery(*store_, std::move(concepts.query), cancelled));
    concepts.query = std::move(expanded_concepts.query);
  }
  PAPERDB_ASSIGN_OR_RETURN(
      search::ExpandedQuery expanded,
      search::ExpandQuery(*store_, std::move(parsed), cancelled));
  expanded.rewrites.insert(expanded.rewrites.begin(), concept_rewrites.begin(),
                           concept_rewrites.end());
  response->mutable_concepts()->Assign(concepts.concept_ids.begin(),
                                       concepts.concept_ids.end());
  if (expanded.query.read_as_text) {
    v1::QueryRewrite* rewrite = response->add_rewrites();
    rewrite->set_kind(v1::QueryRewrite::KIND_READ_AS_TEXT);
    // The start of the query, cut at a character boundary.
    rewrite->set_original(std::string(text::Utf8Prefix(request.query(), 80)));
  }
  // SEMANTIC_MODE_ONLY searches no words: their rewrites do not apply.
  if (concepts_only) expanded.rewrites.clear();
  for (const search::QueryRewrite& r : expanded.rewrites) {
    v1::QueryRewrite* rewrite = response->add_rewrites();
    rewrite->set_kind(RewriteKind(r.kind));
    rewrite->set_original(r.original);
    rewrite->set_position(static_cast<int32_t>(r.position));
    for (const std::string& replacement : r.replacements) {
      rewrite->add_replacements(replacement);
    }
  }
  const search::Searcher searcher(store_.get(), StatsOrNull());
  search::SearchOptions options;
  // One more than the page: whether a next page exists, even when the
  // total is estimated.
  options.top_k = page_size + 1;
  options.order = order;
  options.collect_matches = request.facet_fields_size() > 0;
  options.partial_matches = !all_terms;
  if (previous) {
    options.after = previous->after;
    options.pin = &previous->pin;
  }
  // A later page searches the query the first page did, as expanded then
  // (the dictionary may have changed what it expands to since).
  search::Query pinned_query;
  if (previous && previous->query) {
    pinned_query.root = *previous->query;
    pinned_query.text = request.query();
  }
  const search::Query& query = previous && previous->query ? pinned_query
                               : concepts_only             ? concepts.query
                                                           : expanded.query;
  PAPERDB_ASSIGN_OR_RETURN(search::SearchHits hits,
                           searcher.Search(query, options, cancelled));
  response->set_total_size(static_cast<int64_t>(hits.total));
  response->set_total_size_estimated(hits.total_estimated);
  response->set_total_size_changed(
      previous && !previous->first_total_size_estimated &&
      !hits.total_estimated && previous->first_total_size != hits.total);
  // Full matches hold every word: when concepts alone complete them (no
  // paper holds all the words), the results are concept matches.
  bool by_concepts = concepts_only;
  if (!concepts_only && !all_terms && !concepts.concept_ids.empty() &&
      !hits.any_terms && hits.full_total > 0) {
    PAPERDB_ASSIGN_OR_RETURN(
        search::ExpandedQuery words,
        search::ExpandQuery(*store_, std::move(word_query), cancelled));
    search::SearchOptions words_only{.top_k = 1, .partial_matches = false};
    PAPERDB_ASSIGN_OR_RETURN(
        const search::SearchHits word_hits,
        searcher.Search(words.query, words_only, cancelled));
    by_concepts = word_hits.total == 0;
  }
  const bool some = !hits.any_terms && hits.full_total < hits.total;
  response->set_match_mode(by_concepts      ? v1::MATCH_MODE_CONCEPTS
                           : hits.any_terms ? v1::MATCH_MODE_ANY_TERMS
                           : some           ? v1::MATCH_MODE_ALL_TERMS_THEN_SOME
                                            : v1::MATCH_MODE_ALL_TERMS);
  response->set_full_match_count(
      static_cast<int64_t>(hits.any_terms ? 0 : hits.full_total));
  std::vector<std::string> facet_fields;
  for (const std::string& asked : request.facet_fields()) {
    const std::string field(search::FacetFieldName(asked));
    if (std::find(facet_fields.begin(), facet_fields.end(), field) ==
        facet_fields.end()) {
      facet_fields.push_back(field);
    }
  }
  for (const std::string& field : facet_fields) {
    PAPERDB_ASSIGN_OR_RETURN(const search::FacetResult facet,
                             search::CountFacet(*store_, field, hits.matches,
                                                facet_size, cancelled));
    v1::Facet* out = response->add_facets();
    out->set_field(facet.field);
    out->set_distinct_values(static_cast<int32_t>(facet.distinct_values));
    for (const search::FacetCount& value : facet.values) {
      v1::FacetValue* v = out->add_values();
      v->set_value(value.value);
      v->set_count(static_cast<int64_t>(value.count));
    }
  }
  using MatchedAs = search::Searcher::MatchedAs;
  // Highlights show what each result matched: a partial match's units
  // count a hyphenated word's parts one by one ("Zebrafish-7B" marks "7B");
  // the concepts matched show their terms.
  std::vector<search::MatchUnit> units = search::CollectMatchUnits(query.root);
  std::vector<search::MatchUnit> partial_units;
  if (hits.any_terms || hits.full_matches < hits.top.size()) {
    partial_units = search::CollectMatchUnits(
        search::Searcher::MatchedQuery(query, MatchedAs::kSomeTerms));
  }
  for (auto* u : {&units, &partial_units}) {
    u->insert(u->end(), concept_units.begin(), concept_units.end());
  }
  const std::vector<NameFilter> name_filters = NameFiltersOf(query.root);
  const bool more = hits.top.size() > static_cast<size_t>(page_size);
  if (more) hits.top.resize(page_size);
  const ResultTrimmer trimmer(request.read_mask());
  ReplyBudget budget(response->ByteSizeLong() + 64);  // 64: the token.
  bool cut = false;  // The page ends early: the next result did not fit.
  std::vector<uint32_t> page_docs;
  for (const search::ScoredDoc& d : hits.top) page_docs.push_back(d.doc);
  storage::RecordFields fields = mask.record;
  if (!name_filters.empty() && (mask.highlights || mask.snippet)) {
    // The mentions a method: or dataset: filter matched are highlighted.
    fields.paper_fields.push_back(v1::Paper::kMethodsFieldNumber);
    fields.paper_fields.push_back(v1::Paper::kDatasetsFieldNumber);
  }
  PAPERDB_ASSIGN_OR_RETURN(std::vector<storage::v1::PaperRecord> records,
                           table_.GetMany(page_docs, fields));
  for (size_t i = 0; i < hits.top.size(); ++i) {
    if (cancelled && cancelled()) {
      return absl::CancelledError("search cancelled while building results");
    }
    storage::v1::PaperRecord& record = records[i];
    // The any-term fallback has no full match: every result is partial,
    // and shows the words and parts it matched ("ResNet" of "ResNet-50").
    const bool partial = hits.any_terms || i >= hits.full_matches;
    const std::vector<search::MatchUnit>& shown =
        partial ? partial_units : units;
    std::vector<search::ByteSpan> highlights;
    if (mask.highlights || mask.snippet) {
      PAPERDB_ASSIGN_OR_RETURN(
          highlights, HighlightsOf(*store_, hits.top[i].doc, record, shown));
    }
    v1::SearchResult* result = response->add_results();
    BuildSearchResult(std::move(*record.mutable_paper()), hits.top[i].score,
                      std::move(highlights), units, name_filters,
                      snippet_length, mask, result);
    result->set_partial_match(partial);
    const bool explained = request.explain() && mask.explanation;
    const bool sourced = !concepts.concept_ids.empty() && mask.match_source;
    if (explained || sourced) {
      PAPERDB_ASSIGN_OR_RETURN(
          const std::vector<search::TermContribution> terms,
          searcher.Explain(query,
                           hits.any_terms ? MatchedAs::kAnyTerms
                           : partial      ? MatchedAs::kSomeTerms
                                          : MatchedAs::kAllTerms,
                           hits.top[i].doc, &hits.pin));
      if (sourced) result->set_match_source(MatchSourceOf(terms));
      if (explained) AddExplanation(terms, result);
    }
    trimmer.Trim(result);
    if (!budget.Take(ElementBytes(*result))) {
      if (response->results_size() > 1) {
        response->mutable_results()->RemoveLast();
        cut = true;
        break;
      }
      // One result alone past the budget: its highlights (every match in
      // the abstract) are what does not fit.
      result->clear_highlights();
      budget.Take(ElementBytes(*result));
    }
  }
  if ((more || cut) && response->results_size() > 0) {
    const size_t last = static_cast<size_t>(response->results_size()) - 1;
    SearchPageState next;
    next.after.tier = !hits.any_terms && last >= hits.full_matches ? 1 : 0;
    next.after.doc = hits.top[last];
    next.pin = std::move(hits.pin);
    next.query = query.root;
    next.first_total_size = previous ? previous->first_total_size : hits.total;
    next.first_total_size_estimated =
        previous ? previous->first_total_size_estimated : hits.total_estimated;
    response->set_next_page_token(EncodePageToken(
        "search", fingerprint, PageCursor{0, EncodeSearchPageState(next)}));
  }
  return absl::OkStatus();
}

}  // namespace paperdb::query
