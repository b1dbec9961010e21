#include "query_service/search_page_state.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/error_details.h"
#include "paperdb/search/query_parser.h"
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

void ToState(const search::QueryNode& node, storage::v1::QueryNodeState* out) {
  out->set_kind(static_cast<uint32_t>(node.kind));
  for (const std::string& t : node.terms) out->add_terms(t);
  out->set_slop(node.slop);
  out->set_field(node.field);
  out->set_value(node.value);
  out->set_value_end(node.value_end);
  for (const search::QueryNode& child : node.children) {
    ToState(child, out->add_children());
  }
  out->set_excluded(node.excluded);
  out->set_dismax(node.dismax);
  out->set_expansion(node.expansion);
  out->set_acronym_of(node.acronym_of);
  out->set_surface(node.surface);
  out->set_surface_only(node.surface_only);
  out->set_split_forms(node.split_forms);
  out->set_concept_word(node.concept_word);
  out->set_boost(node.boost);
  for (const std::string& f : node.same_forms) out->add_same_forms(f);
  for (const std::string& f : node.other_forms) out->add_other_forms(f);
  out->set_unmarked_same(node.unmarked_same);
  out->set_word(node.word);
}

// The node `state` holds; false if it is out of range.
// Deepest pinned query accepted: the parser's nesting limit and the levels
// expansion adds under a leaf (an OR of forms under an OR of a concept).
constexpr int kMaxPinnedDepth = static_cast<int>(search::kMaxDepth) + 8;

// False unless `state` has the shape a parsed and expanded query has: no
// slop, phrase or nesting past the parser's limits, a finite boost.
bool FromState(const storage::v1::QueryNodeState& state, int depth,
               search::QueryNode* out) {
  if (state.kind() > static_cast<uint32_t>(search::QueryNode::Kind::kOr) ||
      depth > kMaxPinnedDepth || state.slop() > search::kMaxSlop ||
      static_cast<size_t>(state.terms_size()) > search::kMaxPhraseTerms ||
      !std::isfinite(state.boost()) || state.boost() < 0) {
    return false;
  }
  out->kind = static_cast<search::QueryNode::Kind>(state.kind());
  out->terms.assign(state.terms().begin(), state.terms().end());
  // Every leaf the searcher reads names at least one term.
  if (out->kind == search::QueryNode::Kind::kTerm && out->terms.empty()) {
    return false;
  }
  if (out->kind == search::QueryNode::Kind::kPhrase && out->terms.empty()) {
    return false;
  }
  out->slop = state.slop();
  out->field = state.field();
  out->value = state.value();
  out->value_end = state.value_end();
  for (const storage::v1::QueryNodeState& child : state.children()) {
    if (!FromState(child, depth + 1, &out->children.emplace_back())) {
      return false;
    }
  }
  out->excluded = state.excluded();
  out->dismax = state.dismax();
  out->expansion = state.expansion();
  out->acronym_of = state.acronym_of();
  out->surface = state.surface();
  out->surface_only = state.surface_only();
  out->split_forms = state.split_forms();
  out->concept_word = state.concept_word();
  out->boost = state.boost();
  out->same_forms.assign(state.same_forms().begin(), state.same_forms().end());
  out->other_forms.assign(state.other_forms().begin(),
                          state.other_forms().end());
  out->unmarked_same = state.unmarked_same();
  out->word = state.word();
  return true;
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
  if (state.query) {
    storage::v1::QueryNodeState query;
    ToState(*state.query, &query);
    if (query.ByteSizeLong() <= kMaxPinnedQueryBytes) {
      *out.mutable_query() = std::move(query);
    }
  }
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
      in.first_total_size() < 0 || in.doc_count() == 0 ||
      !std::isfinite(in.score())) {
    return InvalidToken("its state is out of range");
  }
  // No larger than EncodeSearchPageState() writes: a forged token asks for
  // no more work than a request could.
  if (in.query().ByteSizeLong() > kMaxPinnedQueryBytes) {
    return InvalidToken("its query is out of range");
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
  if (in.has_query()) {
    search::QueryNode query;
    if (!FromState(in.query(), 0, &query)) {
      return InvalidToken("its query is out of range");
    }
    state.query = std::move(query);
  }
  return state;
}

}  // namespace paperdb::query
