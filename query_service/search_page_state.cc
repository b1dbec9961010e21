#include "query_service/search_page_state.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/error_details.h"
#include "paperdb/storage/v1/page_state.pb.h"

namespace paperdb::query {
namespace {

absl::Status InvalidToken(absl::string_view why) {
  return WithReason(
      WithField(absl::InvalidArgumentError(absl::StrCat(
                    "page_token: not a search token issued by this service (",
                    why, "); start again from the first page")),
                "page_token"),
      "INVALID_PAGE_TOKEN");
}

}  // namespace

std::string EncodeSearchPageState(const SearchPageState& state) {
  storage::v1::SearchPageState out;
  out.set_tier(static_cast<uint32_t>(state.after.tier));
  out.set_score(state.after.doc.score);
  out.set_year(state.after.doc.year);
  out.set_doc(state.after.doc.doc);
  out.set_mode(static_cast<uint32_t>(state.pin.mode));
  out.set_doc_count(state.pin.doc_count);
  out.set_total_doc_length_terms(state.pin.total_doc_length_terms);
  // The rarest terms first, ties by hash so that the token is the same
  // from run to run.
  std::vector<std::pair<uint32_t, uint32_t>> dfs;  // (df, hash)
  for (const auto& [hash, df] : state.pin.dfs) dfs.emplace_back(df, hash);
  std::sort(dfs.begin(), dfs.end());
  if (dfs.size() > kMaxPinnedTerms) dfs.resize(kMaxPinnedTerms);
  for (const auto& [df, hash] : dfs) {
    out.add_term_hashes(hash);
    out.add_dfs(df);
  }
  out.set_first_total_size(static_cast<int64_t>(state.first_total_size));
  out.set_first_total_size_estimated(state.first_total_size_estimated);
  return out.SerializeAsString();
}

absl::StatusOr<SearchPageState> DecodeSearchPageState(absl::string_view bytes) {
  storage::v1::SearchPageState in;
  if (bytes.empty() ||
      !in.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return InvalidToken("its state does not parse");
  }
  if (in.tier() > 1 ||
      in.mode() > static_cast<uint32_t>(search::ScoringPin::Mode::kAnyTerms) ||
      in.term_hashes_size() != in.dfs_size() ||
      in.term_hashes_size() > static_cast<int>(kMaxPinnedTerms) ||
      in.first_total_size() < 0 || in.doc_count() == 0) {
    return InvalidToken("its state is out of range");
  }
  SearchPageState state;
  state.after.tier = static_cast<int>(in.tier());
  state.after.doc = {in.doc(), in.score(), in.year()};
  state.pin.mode = static_cast<search::ScoringPin::Mode>(in.mode());
  state.pin.doc_count = in.doc_count();
  state.pin.total_doc_length_terms = in.total_doc_length_terms();
  for (int i = 0; i < in.term_hashes_size(); ++i) {
    state.pin.dfs[in.term_hashes(i)] = in.dfs(i);
  }
  state.first_total_size = static_cast<uint64_t>(in.first_total_size());
  state.first_total_size_estimated = in.first_total_size_estimated();
  return state;
}

}  // namespace paperdb::query
