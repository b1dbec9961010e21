#include "query_service/query_engine.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "paperdb/common/hash.h"
#include "paperdb/common/page_token.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/search/searcher.h"
#include "query_service/search_result_builder.h"

namespace paperdb::query {
namespace {

constexpr int kDefaultSearchPageSize = 10;
constexpr int kMaxSearchPageSize = 100;
constexpr int kDefaultListPageSize = 50;
constexpr int kMaxListPageSize = 1000;
constexpr int kMaxBatchGet = 1000;
constexpr int kDefaultSnippetCodePoints = 240;
constexpr int kMaxSnippetCodePoints = 4000;

// AIP-158: negative is an error, 0 means the default, above the maximum is
// coerced to the maximum.
absl::StatusOr<int> PageSize(int requested, int default_size, int max_size) {
  if (requested < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("page_size must not be negative, got ", requested));
  }
  if (requested == 0) return default_size;
  return std::min(requested, max_size);
}

}  // namespace

absl::StatusOr<std::string> PaperIdFromName(absl::string_view name) {
  if (name.size() > kMaxNameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("name of ", name.size(),
                     " bytes is longer than the limit of ", kMaxNameBytes));
  }
  absl::string_view id = name;
  if (absl::StartsWith(id, "papers/")) id.remove_prefix(7);
  if (id.empty()) {
    return absl::InvalidArgumentError("name is required, as \"papers/{id}\"");
  }
  if (absl::StrContains(id, '/')) {
    return absl::InvalidArgumentError(absl::StrCat(
        "name '", name, "' is malformed: expected \"papers/{id}\""));
  }
  return std::string(id);
}

QueryEngine::QueryEngine(std::unique_ptr<storage::Store> store)
    : store_(std::move(store)), table_(store_.get()) {}

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

absl::Status QueryEngine::CatchUp() {
  // A writer waiting on the lock would hold back every new request behind a
  // long-running one, so first try for a while without waiting in line.
  for (int attempt = 0; attempt < 200; ++attempt) {
    if (mu_.WriterTryLock()) {
      const absl::Status status = store_->CatchUp();
      mu_.WriterUnlock();
      return status;
    }
    absl::SleepFor(absl::Milliseconds(1));
  }
  absl::WriterMutexLock lock(&mu_);
  return store_->CatchUp();
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
    absl::string_view name) const {
  PAPERDB_ASSIGN_OR_RETURN(const std::string id, PaperIdFromName(name));
  PAPERDB_ASSIGN_OR_RETURN(const uint32_t doc, table_.FindDocId(id));
  PAPERDB_ASSIGN_OR_RETURN(storage::v1::PaperRecord record, table_.Get(doc));
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

absl::StatusOr<v1::Paper> QueryEngine::GetPaper(absl::string_view name) const {
  absl::ReaderMutexLock lock(&mu_);
  return GetPaperLocked(name);
}

absl::Status QueryEngine::BatchGetPapers(
    const v1::BatchGetPapersRequest& request,
    v1::BatchGetPapersResponse* response) const {
  if (request.names_size() > kMaxBatchGet) {
    return absl::InvalidArgumentError(
        absl::StrCat("names: ", request.names_size(), " names, at most ",
                     kMaxBatchGet, " allowed"));
  }
  absl::ReaderMutexLock lock(&mu_);
  for (int i = 0; i < request.names_size(); ++i) {
    absl::StatusOr<v1::Paper> paper = GetPaperLocked(request.names(i));
    if (!paper.ok()) {
      return absl::Status(
          paper.status().code(),
          absl::StrCat("names[", i, "]: ", paper.status().message()));
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
  uint64_t start = 0;
  if (!request.page_token().empty()) {
    PAPERDB_ASSIGN_OR_RETURN(start,
                             DecodePageToken(request.page_token(), "list", 0));
  }
  absl::ReaderMutexLock lock(&mu_);
  PAPERDB_ASSIGN_OR_RETURN(const storage::v1::CorpusStats stats,
                           table_.Stats());
  response->set_total_size(static_cast<int64_t>(stats.doc_count()));
  if (start > UINT32_MAX) return absl::OkStatus();
  PAPERDB_ASSIGN_OR_RETURN(auto records,
                           table_.List(static_cast<uint32_t>(start),
                                       static_cast<size_t>(page_size) + 1));
  const bool more = records.size() > static_cast<size_t>(page_size);
  if (more) {
    response->set_next_page_token(
        EncodePageToken("list", 0, records.back().first));
    records.pop_back();
  }
  for (auto& [doc, record] : records) {
    *response->add_papers() = std::move(*record.mutable_paper());
  }
  return absl::OkStatus();
}

absl::Status QueryEngine::SearchPapers(
    const v1::SearchPapersRequest& request, v1::SearchPapersResponse* response,
    const search::CancelFn& cancelled) const {
  PAPERDB_ASSIGN_OR_RETURN(const int page_size,
                           PageSize(request.page_size(), kDefaultSearchPageSize,
                                    kMaxSearchPageSize));
  if (request.snippet_length() < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "snippet_length must not be negative, got ", request.snippet_length()));
  }
  const uint32_t snippet_length = static_cast<uint32_t>(
      request.snippet_length() == 0
          ? kDefaultSnippetCodePoints
          : std::min(request.snippet_length(), kMaxSnippetCodePoints));
  PAPERDB_ASSIGN_OR_RETURN(const search::Query query,
                           search::ParseQuery(request.query()));
  const uint64_t fingerprint = Hash64(request.query());
  uint64_t offset = 0;
  if (!request.page_token().empty()) {
    PAPERDB_ASSIGN_OR_RETURN(
        offset, DecodePageToken(request.page_token(), "search", fingerprint));
  }

  absl::ReaderMutexLock lock(&mu_);
  const search::Searcher searcher(store_.get());
  PAPERDB_ASSIGN_OR_RETURN(
      const search::SearchHits hits,
      searcher.Search(query, offset + page_size, cancelled));
  response->set_total_size(static_cast<int64_t>(hits.total));
  response->set_match_mode(hits.any_terms ? v1::MATCH_MODE_ANY_TERMS
                                          : v1::MATCH_MODE_ALL_TERMS);
  for (size_t i = offset; i < hits.top.size(); ++i) {
    if (cancelled && cancelled()) {
      return absl::CancelledError("search cancelled while building results");
    }
    PAPERDB_ASSIGN_OR_RETURN(storage::v1::PaperRecord record,
                             table_.Get(hits.top[i].doc));
    BuildSearchResult(std::move(*record.mutable_paper()), hits.top[i].score,
                      query, snippet_length, response->add_results());
  }
  if (offset + page_size < hits.total) {
    response->set_next_page_token(
        EncodePageToken("search", fingerprint, offset + page_size));
  }
  return absl::OkStatus();
}

}  // namespace paperdb::query
