#include "query_service/search_page_state.h"

#include <cmath>
#include <string>

#include "gtest/gtest.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/storage/v1/page_state.pb.h"
#include "tests/testing/status_matchers.h"

namespace paperdb::query {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;

SearchPageState Example() {
  SearchPageState state;
  state.after.tier = 1;
  state.after.doc = {41, 7.25, 2024};
  state.pin.mode = search::ScoringPin::Mode::kThenSome;
  state.pin.doc_count = 76;
  state.pin.total_doc_length_terms = 9000;
  state.pin.dfs = {{0xdeadbeef, 3}, {17, 40}};
  state.first_total_size = 23;
  return state;
}

TEST(SearchPageStateTest, RoundTrips) {
  absl::StatusOr<SearchPageState> decoded =
      DecodeSearchPageState(EncodeSearchPageState(Example()));

  ASSERT_THAT(decoded, IsOk());
  EXPECT_EQ(decoded->after.tier, 1);
  EXPECT_EQ(decoded->after.doc.doc, 41u);
  EXPECT_EQ(decoded->after.doc.score, 7.25);
  EXPECT_EQ(decoded->after.doc.year, 2024);
  EXPECT_EQ(decoded->pin.mode, search::ScoringPin::Mode::kThenSome);
  EXPECT_EQ(decoded->pin.doc_count, 76u);
  EXPECT_EQ(decoded->pin.total_doc_length_terms, 9000u);
  EXPECT_EQ(decoded->pin.dfs.size(), 2u);
  EXPECT_EQ(decoded->pin.dfs.at(0xdeadbeef), 3u);
  EXPECT_EQ(decoded->first_total_size, 23u);
  EXPECT_FALSE(decoded->first_total_size_estimated);
}

TEST(SearchPageStateTest, RoundTripsTheExpandedQuery) {
  SearchPageState state = Example();
  search::QueryNode root;
  root.kind = search::QueryNode::Kind::kAnd;
  search::QueryNode& term = root.children.emplace_back();
  term.terms = {"neural"};
  term.split_forms = true;
  term.same_forms = {"neural"};
  term.boost = 0.5;
  search::QueryNode& phrase = root.children.emplace_back();
  phrase.kind = search::QueryNode::Kind::kPhrase;
  phrase.terms = {"graph", "network"};
  phrase.slop = 2;
  phrase.excluded = true;
  state.query = root;

  absl::StatusOr<SearchPageState> decoded =
      DecodeSearchPageState(EncodeSearchPageState(state));

  ASSERT_THAT(decoded, IsOk());
  ASSERT_TRUE(decoded->query.has_value());
  ASSERT_EQ(decoded->query->children.size(), 2u);
  EXPECT_EQ(decoded->query->children[0].terms[0], "neural");
  EXPECT_TRUE(decoded->query->children[0].split_forms);
  EXPECT_EQ(decoded->query->children[0].same_forms.size(), 1u);
  EXPECT_EQ(decoded->query->children[0].boost, 0.5);
  EXPECT_EQ(decoded->query->children[1].kind, search::QueryNode::Kind::kPhrase);
  EXPECT_EQ(decoded->query->children[1].slop, 2u);
  EXPECT_TRUE(decoded->query->children[1].excluded);
}

TEST(SearchPageStateTest, PinsTheRarestTermsOnly) {
  SearchPageState state = Example();
  state.pin.dfs.clear();
  for (uint32_t i = 0; i < kMaxPinnedTerms + 10; ++i) {
    state.pin.dfs[1000 + i] = 100000 - i;  // Later terms are rarer.
  }

  absl::StatusOr<SearchPageState> decoded =
      DecodeSearchPageState(EncodeSearchPageState(state));

  ASSERT_THAT(decoded, IsOk());
  EXPECT_EQ(decoded->pin.dfs.size(), kMaxPinnedTerms);
  EXPECT_TRUE(decoded->pin.dfs.contains(1000 + kMaxPinnedTerms + 9));
  EXPECT_FALSE(decoded->pin.dfs.contains(1000));
}

TEST(SearchPageStateTest, RejectsStateNoFirstPageMade) {
  SearchPageState no_docs = Example();
  no_docs.pin.doc_count = 0;
  std::string bad_tier = EncodeSearchPageState(Example());
  bad_tier[1] = 7;  // Field 1 (tier) is the first varint.
  // A token re-signed around a query larger than any first page pins.
  storage::v1::SearchPageState big;
  ASSERT_TRUE(big.ParseFromString(EncodeSearchPageState(Example())));
  for (int i = 0; i < 4000; ++i) {
    big.mutable_query()->add_children()->add_terms("term" + std::to_string(i));
  }
  ASSERT_GT(big.query().ByteSizeLong(), kMaxPinnedQueryBytes);
  // Shapes no parsed query has: a slop or a phrase past the parser's
  // limits, nesting far past them, a boost that is not a finite weight.
  auto forged = [](auto change) {
    storage::v1::SearchPageState state;
    EXPECT_TRUE(state.ParseFromString(EncodeSearchPageState(Example())));
    storage::v1::QueryNodeState* query = state.mutable_query();
    query->set_kind(static_cast<uint32_t>(search::QueryNode::Kind::kPhrase));
    query->add_terms("graph");
    query->add_terms("network");
    change(query);
    return state.SerializeAsString();
  };
  ASSERT_THAT(DecodeSearchPageState(forged([](auto*) {})), IsOk());
  const std::string forged_tokens[] = {
      forged([](auto* q) { q->set_slop(search::kMaxSlop + 1); }),
      forged([](auto* q) {
        for (size_t i = 0; i < search::kMaxPhraseTerms; ++i) q->add_terms("a");
      }),
      forged([](auto* q) {
        for (int i = 0; i < 60; ++i) {
          q->set_kind(static_cast<uint32_t>(search::QueryNode::Kind::kAnd));
          q = q->add_children();
        }
        q->add_terms("deep");
      }),
      forged([](auto* q) { q->set_boost(std::nan("")); }),
      forged([](auto* q) { q->set_boost(-1); })};
  for (const std::string& bytes : forged_tokens) {
    EXPECT_THAT(DecodeSearchPageState(bytes),
                StatusIs(absl::StatusCode::kInvalidArgument));
  }
  storage::v1::SearchPageState nan_score;
  ASSERT_TRUE(nan_score.ParseFromString(EncodeSearchPageState(Example())));
  nan_score.set_score(std::nan(""));
  for (const std::string& bytes :
       {std::string(), std::string("\xff\xff\xff"),
        EncodeSearchPageState(no_docs), bad_tier, big.SerializeAsString(),
        nan_score.SerializeAsString()}) {
    EXPECT_THAT(DecodeSearchPageState(bytes),
                StatusIs(absl::StatusCode::kInvalidArgument));
  }
}

}  // namespace
}  // namespace paperdb::query
