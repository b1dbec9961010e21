// The query language, facets, sort and explain over real gRPC
// on loopback, against the bundled ICLR 2024 lists in a real RocksDB store.

#include <set>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

class SearchLanguageE2eTest : public ServiceFixture {
 protected:
  v1::SearchPapersResponse Search(v1::SearchPapersRequest request,
                                  grpc::Status* status = nullptr) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::SearchPapersResponse response;
    grpc::Status s = query_->SearchPapers(&context, request, &response);
    if (status != nullptr) {
      *status = s;
    } else {
      EXPECT_TRUE(s.ok()) << request.query() << ": " << s.error_message();
    }
    return response;
  }
  v1::SearchPapersResponse Search(const std::string& query) {
    v1::SearchPapersRequest request;
    request.set_query(query);
    return Search(request);
  }
  static bool AnyHas(const v1::SearchPapersResponse& response,
                     absl::string_view text) {
    for (const v1::SearchResult& r : response.results()) {
      if (absl::StrContains(r.paper().abstract(), text)) return true;
    }
    return false;
  }
};

TEST_F(SearchLanguageE2eTest, OrMatchesEitherSide) {
  const v1::SearchPapersResponse a = Search("iTransformer");
  const v1::SearchPapersResponse b = Search("Pathformer");
  const v1::SearchPapersResponse either = Search("iTransformer OR Pathformer");

  ASSERT_EQ(a.total_size(), 1);
  ASSERT_EQ(b.total_size(), 1);
  EXPECT_EQ(either.total_size(), 2);
  EXPECT_TRUE(AnyHas(either, "iTransformer"));
  EXPECT_TRUE(AnyHas(either, "Pathformer"));
  EXPECT_EQ(either.match_mode(), v1::MATCH_MODE_ALL_TERMS);
  EXPECT_EQ(either.full_match_count(), 2);
}

TEST_F(SearchLanguageE2eTest, FewFullMatchesAreFollowedByPartialOnes) {
  v1::SearchPapersRequest request;
  request.set_query("graph network");
  request.set_page_size(100);
  const v1::SearchPapersResponse response = Search(request);
  const int64_t graph = Search("graph").total_size();
  const int64_t network = Search("network").total_size();
  const int64_t either = Search("graph OR network").total_size();

  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_ALL_TERMS_THEN_SOME);
  ASSERT_GT(response.full_match_count(), 0);
  EXPECT_LT(response.full_match_count(), std::min(graph, network));
  EXPECT_EQ(response.total_size(), either);
  ASSERT_EQ(response.results_size(), either);
  for (int i = 0; i < response.results_size(); ++i) {
    EXPECT_EQ(response.results(i).partial_match(),
              i >= response.full_match_count())
        << i;
  }
}

TEST_F(SearchLanguageE2eTest, APastedAbstractIsReadAsWordsAndEchoedAsUtf8) {
  // 79 ASCII bytes, then "é" across byte 80; a stray quote makes it text.
  std::string query(78, 'x');
  query += " \xC3\xA9";
  for (int i = 0; i < 30; ++i) query += " forecasting";
  query += " \"";
  const v1::SearchPapersResponse response = Search(query);

  ASSERT_GE(response.rewrites_size(), 1);
  EXPECT_EQ(response.rewrites(0).kind(), v1::QueryRewrite::KIND_READ_AS_TEXT);
  EXPECT_EQ(response.rewrites(0).original(), query.substr(0, 79));
}

TEST_F(SearchLanguageE2eTest, ParenthesesAndExclusionsCombine) {
  const v1::SearchPapersResponse both =
      Search("(iTransformer OR Pathformer) forecasting");
  const v1::SearchPapersResponse minus =
      Search("(iTransformer OR Pathformer) -Pathformer");

  EXPECT_GE(both.total_size(), 1);
  ASSERT_EQ(minus.total_size(), 1);
  EXPECT_THAT(minus.results(0).paper().abstract(), HasSubstr("iTransformer"));
}

TEST_F(SearchLanguageE2eTest, PrefixExpandsAndSaysSo) {
  const v1::SearchPapersResponse response = Search("watermark*");

  EXPECT_GE(response.total_size(), 1);
  EXPECT_TRUE(AnyHas(response, "watermark"));
  ASSERT_GE(response.rewrites_size(), 1);
  EXPECT_EQ(response.rewrites(0).kind(),
            v1::QueryRewrite::KIND_PREFIX_EXPANSION);
  EXPECT_EQ(response.rewrites(0).original(), "watermark*");
  // One stem, "watermark", shown as the first word an abstract uses for it.
  EXPECT_THAT(response.rewrites(0).replacements(), Contains("watermarking"));
}

TEST_F(SearchLanguageE2eTest, MisspeltWordIsCorrectedAndReported) {
  const v1::SearchPapersResponse right = Search("leading indicators");
  const v1::SearchPapersResponse typo = Search("leading indicatros");

  ASSERT_GE(right.total_size(), 1);
  ASSERT_EQ(typo.total_size(), right.total_size());
  EXPECT_EQ(typo.results(0).paper().id(), right.results(0).paper().id());
  ASSERT_EQ(typo.rewrites_size(), 1);
  EXPECT_EQ(typo.rewrites(0).kind(),
            v1::QueryRewrite::KIND_SPELLING_CORRECTION);
  EXPECT_EQ(typo.rewrites(0).original(), "indicatros");
  EXPECT_EQ(typo.rewrites(0).position(), 8);
  EXPECT_THAT(typo.rewrites(0).replacements(), Contains("indicators"));
}

// "notation" (in no abstract) is not corrected to "non", "no" and "net",
// each one edit from "notation" with a suffix ("no" + "ation"): a suffix
// only repairs a typo after a stem of 4 letters or more that the word
// starts with ("optim" + "ization").
TEST_F(SearchLanguageE2eTest, ShortStemsPlusASuffixAreNoCorrection) {
  const v1::SearchPapersResponse notation = Search("notation");
  EXPECT_EQ(notation.total_size(), 0);
  EXPECT_EQ(notation.rewrites_size(), 0);

  const v1::SearchPapersResponse typo = Search("optimizaton");
  EXPECT_EQ(typo.total_size(), Search("optimization").total_size());
  // Read as "optimization": its concept, the correction, its stem's other
  // words.
  ASSERT_EQ(typo.rewrites_size(), 3);
  EXPECT_EQ(typo.rewrites(0).kind(), v1::QueryRewrite::KIND_CONCEPT);
  EXPECT_EQ(typo.rewrites(1).kind(),
            v1::QueryRewrite::KIND_SPELLING_CORRECTION);
  EXPECT_EQ(typo.rewrites(2).kind(), v1::QueryRewrite::KIND_STEM_MATCHES);
}

TEST_F(SearchLanguageE2eTest, ProximityPhraseAllowsWordsBetween) {
  // "leading indicators" occurs exactly; "indicators ... LIFT" only apart.
  EXPECT_EQ(Search("\"leading indicators\"").total_size(), 1);
  EXPECT_EQ(Search("\"indicators leading\"").total_size(), 0);
  EXPECT_EQ(Search("\"indicators leading\"~1").total_size(), 1);
}

TEST_F(SearchLanguageE2eTest, FieldFiltersRestrict) {
  const int64_t all = Search("neural").total_size();
  ASSERT_GT(all, 1);

  EXPECT_EQ(Search("neural venue:ICLR").total_size(), all);
  EXPECT_EQ(Search("neural venue:iclr year:2024").total_size(), all);
  EXPECT_EQ(Search("neural year:2020..2023").total_size(), 0);
  EXPECT_EQ(Search("neural venue:NeurIPS").total_size(), 0);
  const v1::SearchPapersResponse code = Search("neural has:code");
  EXPECT_GT(code.total_size(), 0);
  EXPECT_LT(code.total_size(), all);
  for (const v1::SearchResult& r : code.results()) {
    EXPECT_TRUE(r.paper().has_code()) << r.paper().id();
  }
  const v1::SearchPapersResponse lift = Search("host:github.com forecasting");
  EXPECT_TRUE(AnyHas(lift, "LIFT"));
}

TEST_F(SearchLanguageE2eTest, ExtractedFieldsFilterAndAcronymsExpand) {
  // LIFT's abstract introduces the method and links its code.
  const v1::SearchPapersResponse lift = Search("method:LIFT");
  ASSERT_EQ(lift.total_size(), 1);
  const v1::SearchResult& result = lift.results(0);
  EXPECT_THAT(result.paper().abstract(), HasSubstr("leading"));
  // The filter highlights where the abstract introduces the method.
  ASSERT_EQ(result.highlights_size(), 1);
  const v1::TextSpan& span = result.highlights(0);
  EXPECT_EQ(result.paper().abstract().substr(
                span.start_byte(), span.end_byte() - span.start_byte()),
            "LIFT");
  EXPECT_EQ(span.start_byte(), result.paper().methods(0).span().start_byte());
  // "reinforcement learning (RL)" is defined in the corpus: RL alone also
  // finds papers that only spell it out, and says so.
  const v1::SearchPapersResponse rl = Search("RL");
  const v1::SearchPapersResponse spelled = Search("\"reinforcement learning\"");
  EXPECT_GE(rl.total_size(), spelled.total_size());
  bool expanded = false;
  for (const v1::QueryRewrite& r : rl.rewrites()) {
    expanded |= r.kind() == v1::QueryRewrite::KIND_ACRONYM_EXPANSION;
  }
  EXPECT_TRUE(expanded);
}

TEST_F(SearchLanguageE2eTest, AcronymsDefinedInPluralOrHyphenatedExpand) {
  auto expansions = [&](const std::string& query) {
    return ReplacementsOf(Search(query),
                          v1::QueryRewrite::KIND_ACRONYM_EXPANSION);
  };
  // "graph neural networks (GNNs)": GNN and GNNs both expand, once.
  EXPECT_EQ(expansions("GNN").size(), 1u);
  EXPECT_EQ(expansions("GNNs").size(), 1u);
  // "out-of-distribution (OOD)": the hyphenated form finds the acronym.
  // As written in the paper, not folded (the proto says so).
  EXPECT_THAT(expansions("out-of-distribution"), Contains("OOD"));
}

// A rewrite's `original` is the query's text as typed, from its first
// word's first character to its last word's last, and `position` the code
// point where it starts: not stems ("reinforc learn"), not content words
// only ("state art"), not the punctuation before it, not the lower-cased
// operators of a query read as text.
TEST_F(SearchLanguageE2eTest, RewriteOriginalIsTheQueryTextAtItsPosition) {
  const std::string pasted =
      "we study a problem in the wild ( with stray brackets and \"quotes "
      "that never close and more words here to pad it out past the limit "
      "of twenty four words ";
  struct Case {
    std::string query;
    v1::QueryRewrite::Kind kind;
    std::string original;
    int position;
  };
  const std::vector<Case> cases = {
      {"safe \"Reinforcement Learning\"",
       v1::QueryRewrite::KIND_ACRONYM_EXPANSION, "\"Reinforcement Learning\"",
       5},
      {"forecasting (State of the  art) results",
       v1::QueryRewrite::KIND_ACRONYM_EXPANSION, "State of the  art", 13},
      // 论, 文, 🚀, the spaces, '[' and '¿' are one code point each.
      {"论文 🚀 [¿state of the art]", v1::QueryRewrite::KIND_ACRONYM_EXPANSION,
       "state of the art", 7},
      {"reinforcement-learning", v1::QueryRewrite::KIND_ACRONYM_EXPANSION,
       "reinforcement-learning", 0},
      {"\"reinforcement\" learning", v1::QueryRewrite::KIND_ACRONYM_EXPANSION,
       "\"reinforcement\" learning", 0},
      {"[RL]", v1::QueryRewrite::KIND_ACRONYM_EXPANSION, "RL", 1},
      {pasted + "REINFORCEMENT LEARNING",
       v1::QueryRewrite::KIND_ACRONYM_EXPANSION, "REINFORCEMENT LEARNING", 152},
      {"(watermark*)", v1::QueryRewrite::KIND_PREFIX_EXPANSION, "watermark*",
       1},
      {"[indicatros] forecasting", v1::QueryRewrite::KIND_SPELLING_CORRECTION,
       "indicatros", 1},
  };
  for (const Case& c : cases) {
    const v1::SearchPapersResponse response = Search(c.query);
    bool found = false;
    for (const v1::QueryRewrite& rewrite : response.rewrites()) {
      if (rewrite.kind() != c.kind) continue;
      found = true;
      EXPECT_EQ(rewrite.original(), c.original) << c.query;
      EXPECT_EQ(rewrite.position(), c.position) << c.query;
    }
    EXPECT_TRUE(found) << c.query;
  }
}

// Words grouped with their acronym ("spiking neural networks" or SNN)
// score the better of the two in a partial or any-term match, as in a full
// one: a word no paper holds cannot raise a paper's score (not 14.33 = the
// words' 8.39 plus SNN's 5.94).
TEST_F(SearchLanguageE2eTest, AcronymGroupScoresTheSameInTheFallback) {
  v1::SearchPapersRequest request;
  request.set_query("spiking neural networks");
  request.set_explain(true);
  const v1::SearchPapersResponse full = Search(request);
  request.set_query("spiking neural networks zzzzunknownword");
  const v1::SearchPapersResponse any = Search(request);
  ASSERT_GE(full.results_size(), 1);
  ASSERT_GE(any.results_size(), 1);
  EXPECT_EQ(any.match_mode(), v1::MATCH_MODE_ANY_TERMS);
  EXPECT_EQ(any.results(0).paper().name(), full.results(0).paper().name());
  EXPECT_DOUBLE_EQ(any.results(0).score(), full.results(0).score());
  // The same alternative of the group scored in both: here the acronym
  // (its expansion's words weigh one concept's idf, not three words'); the
  // words, which the paper holds too, are listed as outscored.
  for (const v1::SearchPapersResponse* r : {&any, &full}) {
    const v1::SearchResult& first = r->results(0);
    ASSERT_GE(first.explanation_size(), 2);
    EXPECT_EQ(first.explanation(0).term(), "snn");
    EXPECT_FALSE(first.explanation(0).outscored());
    for (int i = 1; i < first.explanation_size(); ++i) {
      EXPECT_TRUE(first.explanation(i).outscored());
      EXPECT_EQ(first.explanation(i).score(), 0.0);
    }
  }
}

// For "LLMs", papers writing "LLM(s)" seven or eight times rank above a
// paper naming "Large Language Models" twice in passing: the expansion
// phrase weighs one concept's idf, not its three words' idfs summed.
TEST_F(SearchLanguageE2eTest, AnAcronymsExpansionWeighsOneConcept) {
  v1::SearchPapersRequest request;
  request.set_query("LLMs");
  request.set_page_size(3);
  request.set_explain(true);
  const v1::SearchPapersResponse response = Search(request);
  ASSERT_EQ(response.results_size(), 3);
  std::vector<std::string> top;
  for (const v1::SearchResult& result : response.results()) {
    top.push_back(result.paper().id());
  }
  EXPECT_THAT(top, UnorderedElementsAre("iclr2024-cef20b977f9a48a9",
                                        "iclr2024-aa45dcc5fac7210a",
                                        "iclr2024-3fa25f32e433b925"));
  // The passing mention still matches, below them.
  request.set_page_size(20);
  bool passing = false;
  const v1::SearchPapersResponse more = Search(request);
  for (const v1::SearchResult& result : more.results()) {
    passing |= result.paper().id() == "iclr2024-0af59afdb849f9dd";
  }
  EXPECT_TRUE(passing);
}

// Words past the 256th are left out, and `rewrites` says which (259
// unknown words and then "forecasting" find nothing, and a rewrite says
// why).
TEST_F(SearchLanguageE2eTest, WordsPastTheLimitAreListedAsDropped) {
  std::string query;
  for (int i = 0; i < 256; ++i) {
    // Distinct four-letter words no paper holds: "qaaa", "qaab", ...
    absl::StrAppend(&query,
                    std::string{'q', static_cast<char>('a' + i / 26 % 26),
                                static_cast<char>('a' + i / 26 / 26),
                                static_cast<char>('a' + i % 26)},
                    " ");
  }
  query += "forecasting";
  const v1::SearchPapersResponse response = Search(query);
  bool listed = false;
  for (const v1::QueryRewrite& rewrite : response.rewrites()) {
    if (rewrite.kind() != v1::QueryRewrite::KIND_TERMS_DROPPED) continue;
    for (const std::string& term : rewrite.replacements()) {
      listed |= term == "forecast";
    }
  }
  EXPECT_TRUE(listed);
}

// Words past the limit that the query already searches for lose nothing:
// no rewrite lists them, and the results are those of the words once.
TEST_F(SearchLanguageE2eTest, RepeatedWordsPastTheLimitAreNotDropped) {
  std::string query;
  for (int i = 0; i < 300; ++i) absl::StrAppend(&query, "spiking neural ");
  const v1::SearchPapersResponse response = Search(query);
  for (const v1::QueryRewrite& rewrite : response.rewrites()) {
    EXPECT_NE(rewrite.kind(), v1::QueryRewrite::KIND_TERMS_DROPPED);
  }
  EXPECT_EQ(response.total_size(), Search("spiking neural").total_size());
}

TEST_F(SearchLanguageE2eTest, HighlightsCountBytesCodePointsAndUtf16Units) {
  // 论文 (3 bytes each), 🚀 (4 bytes, 2 UTF-16 units), ï and ö (2 bytes).
  ASSERT_TRUE(Ingest("multibyte.txt",
                     "ICLR 2024 论文列表\n\n论文 🚀 naïve Schrödinger "
                     "quokkas work.\n")
                  .ok());
  ASSERT_TRUE(engine_->CatchUp().ok());

  const v1::SearchPapersResponse bridges = Search("quokkas");
  ASSERT_EQ(bridges.results_size(), 1);
  ASSERT_EQ(bridges.results(0).highlights_size(), 1);
  const v1::TextSpan& b = bridges.results(0).highlights(0);
  EXPECT_EQ(b.start_byte(), 32u);
  EXPECT_EQ(b.end_byte(), 39u);
  EXPECT_EQ(b.start_code_point(), 23u);
  EXPECT_EQ(b.end_code_point(), 30u);
  EXPECT_EQ(b.start_utf16(), 24u);
  EXPECT_EQ(b.end_utf16(), 31u);

  // Accents fold for matching; the span covers the word as written.
  const v1::SearchPapersResponse folded = Search("schrodinger");
  ASSERT_EQ(folded.results_size(), 1);
  ASSERT_EQ(folded.results(0).highlights_size(), 1);
  const v1::TextSpan& s = folded.results(0).highlights(0);
  EXPECT_EQ(s.start_byte(), 19u);
  EXPECT_EQ(s.end_byte(), 31u);
  EXPECT_EQ(s.start_code_point(), 11u);
  EXPECT_EQ(s.end_code_point(), 22u);
  EXPECT_EQ(s.start_utf16(), 12u);
  EXPECT_EQ(s.end_utf16(), 23u);
}

TEST_F(SearchLanguageE2eTest, FacetCountsEqualPagedTotals) {
  v1::SearchPapersRequest request;
  request.set_query("neural OR learning");
  request.add_facet_fields("venue");
  request.add_facet_fields("year");
  request.add_facet_fields("has_code");
  request.add_facet_fields("host");
  request.set_page_size(7);
  const v1::SearchPapersResponse first = Search(request);
  ASSERT_EQ(first.facets_size(), 4);

  // Walk every page: the ids are distinct and their number is total_size.
  std::set<std::string> ids;
  int with_code = 0;
  int github = 0;
  v1::SearchPapersResponse page = first;
  for (int guard = 0; guard < 100; ++guard) {
    for (const v1::SearchResult& r : page.results()) {
      EXPECT_TRUE(ids.insert(r.paper().id()).second) << r.paper().id();
      with_code += r.paper().has_code();
      bool on_github = false;
      for (const v1::CodeUrl& u : r.paper().code_urls()) {
        on_github |= u.host() == "github.com";
      }
      github += on_github;
    }
    if (page.next_page_token().empty()) break;
    request.set_page_token(page.next_page_token());
    page = Search(request);
  }
  EXPECT_EQ(static_cast<int64_t>(ids.size()), first.total_size());

  const v1::Facet& venue = first.facets(0);
  EXPECT_EQ(venue.field(), "venue");
  ASSERT_EQ(venue.values_size(), 1);
  EXPECT_EQ(venue.values(0).value(), "ICLR");
  EXPECT_EQ(venue.values(0).count(), first.total_size());
  EXPECT_EQ(first.facets(1).values(0).value(), "2024");
  EXPECT_EQ(first.facets(1).values(0).count(), first.total_size());
  const v1::Facet& code = first.facets(2);
  int64_t true_count = 0, false_count = 0;
  for (const v1::FacetValue& v : code.values()) {
    (v.value() == "true" ? true_count : false_count) = v.count();
  }
  EXPECT_EQ(true_count, with_code);
  EXPECT_EQ(true_count + false_count, first.total_size());
  const v1::Facet& host = first.facets(3);
  ASSERT_GE(host.values_size(), 1);
  EXPECT_EQ(host.values(0).value(), "github.com");
  EXPECT_EQ(host.values(0).count(), github);
}

TEST_F(SearchLanguageE2eTest, UnknownFacetFieldIsInvalidArgument) {
  v1::SearchPapersRequest request;
  request.set_query("neural");
  request.add_facet_fields("author");
  grpc::Status status;
  Search(request, &status);

  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("unknown field 'author'"));
}

// has_code as JSON spells it, as a read_mask is written, is has_code.
TEST_F(SearchLanguageE2eTest, AFacetFieldInLowerCamelCaseIsItsProtoName) {
  v1::SearchPapersRequest request;
  request.set_query("neural");
  request.add_facet_fields("has_code");
  const v1::SearchPapersResponse snake = Search(request);
  request.clear_facet_fields();
  request.add_facet_fields("hasCode");
  const v1::SearchPapersResponse camel = Search(request);

  ASSERT_EQ(snake.facets_size(), 1);
  ASSERT_EQ(camel.facets_size(), 1);
  EXPECT_EQ(camel.facets(0).field(), "has_code");
  EXPECT_EQ(camel.facets(0).DebugString(), snake.facets(0).DebugString());
  ASSERT_GE(camel.facets(0).values_size(), 1);
  EXPECT_GT(camel.facets(0).values(0).count(), 0);
  // In any case, as field filters are (VENUE:ICLR).
  request.clear_facet_fields();
  request.add_facet_fields("HAS_CODE");
  request.add_facet_fields("Venue");
  const v1::SearchPapersResponse upper = Search(request);
  ASSERT_EQ(upper.facets_size(), 2);
  EXPECT_EQ(upper.facets(0).DebugString(), snake.facets(0).DebugString());
  EXPECT_EQ(upper.facets(1).field(), "venue");
}

TEST_F(SearchLanguageE2eTest, OrderByIngestTimePagesInDocOrder) {
  v1::SearchPapersRequest request;
  request.set_query("neural");
  request.set_order_by("ingest_time");
  request.set_page_size(3);
  const v1::SearchPapersResponse first = Search(request);
  request.set_order_by("ingest_time desc");
  const v1::SearchPapersResponse last = Search(request);
  request.set_order_by("year desc");
  const v1::SearchPapersResponse by_year = Search(request);

  ASSERT_EQ(first.results_size(), 3);
  ASSERT_EQ(last.results_size(), 3);
  EXPECT_NE(first.results(0).paper().id(), last.results(0).paper().id());
  // One year in the corpus: year order falls back to ingest order.
  EXPECT_EQ(by_year.results(0).paper().id(), first.results(0).paper().id());
  // A page token is bound to its order.
  request.set_order_by("ingest_time");
  request.set_page_token(last.next_page_token());
  grpc::Status status;
  Search(request, &status);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  request.set_page_token("");
  request.set_order_by("citations desc");
  Search(request, &status);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("order_by"));
  EXPECT_THAT(status.error_message(), HasSubstr("\"year asc\""));
  EXPECT_THAT(status.error_message(), HasSubstr("\"ingest_time asc\""));
  // What the message offers is accepted.
  for (const char* order : {"year asc", "ingest_time asc", "YEAR  Desc"}) {
    request.set_order_by(order);
    Search(request, &status);
    EXPECT_TRUE(status.ok()) << order << ": " << status.error_message();
  }
}

TEST_F(SearchLanguageE2eTest, ExplainSumsToTheScore) {
  v1::SearchPapersRequest request;
  request.set_query("spiking neural delays");
  request.set_explain(true);
  const v1::SearchPapersResponse response = Search(request);

  ASSERT_GE(response.results_size(), 1);
  const v1::SearchResult& top = response.results(0);
  ASSERT_EQ(top.explanation_size(), 3);
  double sum = 0;
  std::set<std::string> terms;
  for (const v1::TermScore& t : top.explanation()) {
    sum += t.score();
    terms.insert(t.term());
    EXPECT_GT(t.term_frequency(), 0u);
    EXPECT_GT(t.document_frequency(), 0u);
  }
  EXPECT_EQ(terms, (std::set<std::string>{"spike", "neural", "delay"}));
  EXPECT_NEAR(sum, top.score(), 1e-6);  // Scores are rounded to 2^-20.
}

TEST_F(SearchLanguageE2eTest, MalformedQueryGivesThePosition) {
  v1::SearchPapersRequest request;
  request.set_query("graph (neural OR");
  grpc::Status status;
  Search(request, &status);

  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("character 14: dangling OR"));
}

}  // namespace
}  // namespace paperdb::testing
