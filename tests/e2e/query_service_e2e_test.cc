// QueryService over real gRPC on loopback, against the bundled ICLR 2024
// lists ingested into a real RocksDB store.

#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class QueryServiceE2eTest : public ServiceFixture {
 protected:
  grpc::Status Search(const std::string& query,
                      v1::SearchPapersResponse* response, int page_size = 0,
                      const std::string& page_token = "") {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::SearchPapersRequest request;
    request.set_query(query);
    request.set_page_size(page_size);
    request.set_page_token(page_token);
    return query_->SearchPapers(&context, request, response);
  }
};

TEST_F(QueryServiceE2eTest,
       SpikingDelaysQueryRanksTheSynapticDelaysAbstractFirst) {
  v1::SearchPapersResponse response;

  ASSERT_TRUE(Search("spiking neural networks delays", &response).ok());

  ASSERT_GE(response.results_size(), 1);
  const v1::Paper& top = response.results(0).paper();
  EXPECT_EQ(top.sources(0).file_name(), "004_0ef8dce93850603c.txt");
  EXPECT_EQ(top.sources(0).line_number(), 3u);
  EXPECT_THAT(top.abstract(),
              HasSubstr("efficient algorithms to learn these delays"));
  EXPECT_THAT(top.urls(),
              ::testing::Contains("https://github.com/Thvnvtos/SNN-delays"));
  // One abstract has all four words; papers with some follow it.
  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_ALL_TERMS_THEN_SOME);
  EXPECT_EQ(response.full_match_count(), 1);
  EXPECT_FALSE(response.results(0).partial_match());
}

TEST_F(QueryServiceE2eTest, PhraseFindsLiftAndHighlightsExactlyThePhrase) {
  v1::SearchPapersResponse response;

  ASSERT_TRUE(Search("\"leading indicators\"", &response).ok());

  ASSERT_EQ(response.total_size(), 1);
  const v1::SearchResult& result = response.results(0);
  EXPECT_THAT(result.paper().abstract(), HasSubstr("LIFT"));
  ASSERT_EQ(result.highlights_size(), 4);  // The phrase occurs four times.
  const std::string& abstract = result.paper().abstract();
  for (const v1::TextSpan& span : result.highlights()) {
    EXPECT_EQ(absl::AsciiStrToLower(abstract.substr(
                  span.start_byte(), span.end_byte() - span.start_byte())),
              "leading indicators");
    EXPECT_EQ(span.end_code_point() - span.start_code_point(), 18u);
  }
  const v1::Snippet& snippet = result.snippet();
  ASSERT_GE(snippet.highlights_size(), 1);
  EXPECT_EQ(absl::AsciiStrToLower(
                snippet.text().substr(snippet.highlights(0).start_byte(),
                                      snippet.highlights(0).end_byte() -
                                          snippet.highlights(0).start_byte())),
            "leading indicators");
}

TEST_F(QueryServiceE2eTest, ReadMaskReturnsOnlyTheNamedFields) {
  v1::SearchPapersResponse full;
  ASSERT_TRUE(Search("\"leading indicators\"", &full).ok());
  ASSERT_EQ(full.results_size(), 1);

  grpc::ClientContext context;
  SetDeadline(&context);
  v1::SearchPapersRequest request;
  request.set_query("\"leading indicators\"");
  request.mutable_read_mask()->add_paths("paper.name");
  request.mutable_read_mask()->add_paths("score");
  request.mutable_read_mask()->add_paths("snippet");
  v1::SearchPapersResponse masked;
  ASSERT_TRUE(query_->SearchPapers(&context, request, &masked).ok());

  ASSERT_EQ(masked.results_size(), 1);
  const v1::SearchResult& result = masked.results(0);
  EXPECT_EQ(result.paper().name(), full.results(0).paper().name());
  EXPECT_EQ(result.paper().abstract(), "");
  EXPECT_EQ(result.paper().venue(), "");
  EXPECT_EQ(result.highlights_size(), 0);
  EXPECT_EQ(result.score(), full.results(0).score());
  EXPECT_EQ(result.snippet().SerializeAsString(),
            full.results(0).snippet().SerializeAsString());
  EXPECT_EQ(masked.total_size(), 1);  // The response's own fields stay.
}

TEST_F(QueryServiceE2eTest, ReadMaskWithAnUnknownPathIsInvalidArgument) {
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::SearchPapersRequest request;
  request.set_query("neural");
  request.mutable_read_mask()->add_paths("paper.title");
  v1::SearchPapersResponse response;

  const grpc::Status status =
      query_->SearchPapers(&context, request, &response);

  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("\"paper.title\""));
}

TEST_F(QueryServiceE2eTest, HyphenatedPhraseOfFourWordsFindsEveryOccurrence) {
  // 24 of the 76 abstracts say "state-of-the-art" (grep -c on data/).
  for (const std::string query : {"state-of-the-art", "\"state of the art\""}) {
    v1::SearchPapersResponse response;

    ASSERT_TRUE(Search(query, &response, 100).ok()) << query;

    EXPECT_EQ(response.total_size(), 24) << query;
    EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_ALL_TERMS);
  }
}

TEST_F(QueryServiceE2eTest, GetPaperReturnsTheAbstractByteForByte) {
  v1::SearchPapersResponse found;
  ASSERT_TRUE(Search("\"leading indicators\"", &found).ok());
  ASSERT_EQ(found.results_size(), 1);
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::GetPaperRequest request;
  request.set_name(found.results(0).paper().name());
  v1::Paper paper;

  ASSERT_TRUE(query_->GetPaper(&context, request, &paper).ok());

  std::ifstream in(SeedDir() + "/" + paper.sources(0).file_name(),
                   std::ios::binary);
  std::stringstream file;
  file << in.rdbuf();
  const std::string line = file.str().substr(paper.sources(0).byte_offset(),
                                             paper.abstract().size() + 1);
  EXPECT_EQ(line, paper.abstract() + "\n");
  EXPECT_EQ(paper.venue(), "ICLR");
  EXPECT_EQ(paper.year(), 2024);
  EXPECT_EQ(paper.sources(0).line_number(), 5u);
  EXPECT_EQ(paper.sources(0).paragraph_ordinal(), 2u);
  EXPECT_GT(paper.ingest_time().seconds(), 1700000000);
  ASSERT_EQ(paper.code_urls_size(), 1);
  EXPECT_EQ(paper.code_urls(0).url(), "https://github.com/SJTU-Quant/LIFT");
}

TEST_F(QueryServiceE2eTest, UnknownPaperIsNotFoundAndEmptyNameIsInvalid) {
  for (const auto& [name, code] :
       {std::pair<std::string, grpc::StatusCode>{
            "papers/iclr2024-0000000000000000", grpc::StatusCode::NOT_FOUND},
        {"", grpc::StatusCode::INVALID_ARGUMENT},
        {"papers/", grpc::StatusCode::INVALID_ARGUMENT},
        // A control character is no paper's: INVALID_ARGUMENT, not
        // NOT_FOUND with the byte echoed raw.
        {std::string("papers/\0", 8), grpc::StatusCode::INVALID_ARGUMENT},
        {"papers/iclr2024-0000000000000000\n",
         grpc::StatusCode::INVALID_ARGUMENT},
        {"papers/a/b", grpc::StatusCode::INVALID_ARGUMENT}}) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::GetPaperRequest request;
    request.set_name(name);
    v1::Paper paper;

    const grpc::Status status = query_->GetPaper(&context, request, &paper);
    EXPECT_EQ(status.error_code(), code) << name;
    // A name given (even "papers/") is never called "required".
    if (!name.empty()) {
      EXPECT_THAT(status.error_message(), Not(HasSubstr("required"))) << name;
    }
  }
}

TEST_F(QueryServiceE2eTest, GarbagePageTokenIsInvalidArgument) {
  v1::SearchPapersResponse response;

  const grpc::Status status = Search("neural", &response, 10, "not-a-token");

  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("page_token"));
}

TEST_F(QueryServiceE2eTest, PageTokenOfAnotherQueryIsInvalidArgument) {
  v1::SearchPapersResponse first;
  ASSERT_TRUE(Search("neural", &first, 2).ok());
  ASSERT_FALSE(first.next_page_token().empty());
  v1::SearchPapersResponse second;

  EXPECT_EQ(Search("graph", &second, 2, first.next_page_token()).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

// The query and order_by are bound to the token apart: hashed together
// without a separator, "neural" by year and "neuralyear" by relevance
// would share their tokens.
TEST_F(QueryServiceE2eTest, PageTokenIsBoundToQueryAndOrderApart) {
  auto search = [&](const std::string& query, const std::string& order_by,
                    const std::string& token,
                    v1::SearchPapersResponse* response) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::SearchPapersRequest request;
    request.set_query(query);
    request.set_order_by(order_by);
    request.set_page_size(2);
    request.set_page_token(token);
    return query_->SearchPapers(&context, request, response);
  };
  v1::SearchPapersResponse first;
  ASSERT_TRUE(search("neural", "year", "", &first).ok());
  ASSERT_FALSE(first.next_page_token().empty());
  v1::SearchPapersResponse second;
  const grpc::Status status =
      search("neuralyear", "", first.next_page_token(), &second);

  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("matching_strategy"));
  v1::SearchPapersResponse again;
  EXPECT_TRUE(search("neural", "year", first.next_page_token(), &again).ok());
}

TEST_F(QueryServiceE2eTest, WalkingAllPagesCollectsTotalSizeDistinctResults) {
  std::set<std::string> seen;
  std::string token;
  int64_t total = -1;
  int pages = 0;
  do {
    v1::SearchPapersResponse response;
    ASSERT_TRUE(Search("neural", &response, 7, token).ok());
    total = response.total_size();
    for (const v1::SearchResult& r : response.results())
      seen.insert(r.paper().id());
    token = response.next_page_token();
    ++pages;
  } while (!token.empty() && pages < 100);

  EXPECT_GT(total, 7);
  EXPECT_EQ(static_cast<int64_t>(seen.size()), total);
  EXPECT_EQ(pages, (total + 6) / 7);
}

// Past 1,000 matches a total is an estimate, and says so; paging stays
// exact: the pages hold every match once, and only the last page has no
// next_page_token.
TEST_F(QueryServiceE2eTest, EstimatedTotalSaysSoAndPagesStayExact) {
  std::string file = "ZOO 2024 paper list\n";
  for (int i = 0; i < 2500; ++i) {
    absl::StrAppend(&file, "\nWe observe quokka colony ", i,
                    i % 5 == 0 ? " and a wombat burrow" : "",
                    " across seasons in the southern range.\n");
  }
  ASSERT_TRUE(Ingest("zoo.txt", file).ok());
  ASSERT_TRUE(engine_->CatchUp().ok());

  v1::SearchPapersResponse small;
  ASSERT_TRUE(Search("wombat", &small).ok());
  EXPECT_EQ(small.total_size(), 500);  // One term: its document frequency.
  EXPECT_FALSE(small.total_size_estimated());

  std::set<std::string> seen;
  std::string token;
  int pages = 0;
  int64_t total = 0;
  bool estimated = false;
  do {
    v1::SearchPapersResponse response;
    ASSERT_TRUE(Search("quokka OR wombat", &response, 100, token).ok());
    if (pages == 0) {
      total = response.total_size();
      estimated = response.total_size_estimated();
    }
    for (const v1::SearchResult& r : response.results()) {
      seen.insert(r.paper().id());
    }
    token = response.next_page_token();
    ++pages;
  } while (!token.empty() && pages < 100);
  EXPECT_TRUE(estimated);
  EXPECT_GE(total, 2500);
  EXPECT_LE(total, 2750);
  EXPECT_EQ(seen.size(), 2500u);
  EXPECT_EQ(pages, 25);
}

TEST_F(QueryServiceE2eTest, MalformedQueryIsInvalidArgumentWithPosition) {
  v1::SearchPapersResponse response;

  const grpc::Status status = Search("graph \"neural", &response);

  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("character 6"));
  // The same, machine-readable: google.rpc.Status details.
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(status.error_details()));
  ASSERT_EQ(details.details_size(), 2);
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(details.details(0).UnpackTo(&info));
  EXPECT_EQ(info.domain(), "paperdb.dev");
  EXPECT_EQ(info.reason(), "QUERY_SYNTAX");
  EXPECT_EQ(info.metadata().at("position"), "6");
  google::rpc::BadRequest bad_request;
  ASSERT_TRUE(details.details(1).UnpackTo(&bad_request));
  ASSERT_EQ(bad_request.field_violations_size(), 1);
  EXPECT_EQ(bad_request.field_violations(0).field(), "query");
  EXPECT_EQ(bad_request.field_violations(0).description(),
            status.error_message());
}

TEST_F(QueryServiceE2eTest, ErrorsWithoutAFieldStillCarryErrorInfo) {
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::GetPaperRequest request;
  request.set_name("papers/nope");
  v1::Paper paper;

  const grpc::Status status = query_->GetPaper(&context, request, &paper);

  ASSERT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  const google::rpc::ErrorInfo info = ErrorInfoOf(status);
  EXPECT_EQ(info.reason(), "NOT_FOUND");
}

TEST_F(QueryServiceE2eTest, StopwordOnlyQueryIsEmptyNotAnError) {
  v1::SearchPapersResponse response;

  ASSERT_TRUE(Search("the of and", &response).ok());

  EXPECT_EQ(response.total_size(), 0);
  EXPECT_EQ(response.results_size(), 0);
}

TEST_F(QueryServiceE2eTest, NegativePageSizeIsInvalidArgument) {
  v1::SearchPapersResponse response;

  const grpc::Status status = Search("neural", &response, -1);

  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), "page_size must not be negative, got -1");
  // The field it is about, machine-readable (a fresh-user review found none).
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(status.error_details()));
  google::rpc::BadRequest bad_request;
  bool found = false;
  for (const auto& detail : details.details()) {
    if (detail.UnpackTo(&bad_request)) found = true;
  }
  ASSERT_TRUE(found);
  ASSERT_EQ(bad_request.field_violations_size(), 1);
  EXPECT_EQ(bad_request.field_violations(0).field(), "page_size");
}

TEST_F(QueryServiceE2eTest, NoAllTermsMatchFallsBackToAnyTerm) {
  v1::SearchPapersResponse response;

  ASSERT_TRUE(Search("synapse xylophone", &response).ok());

  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_ANY_TERMS);
  ASSERT_GE(response.results_size(), 1);
  EXPECT_THAT(response.results(0).paper().abstract(), HasSubstr("synapse"));
  EXPECT_EQ(response.full_match_count(), 0);
  // No paper holds both words: each result matches part of the query.
  for (const v1::SearchResult& result : response.results()) {
    EXPECT_TRUE(result.partial_match()) << result.paper().name();
  }
}

TEST_F(QueryServiceE2eTest, AnyTermFallbackHighlightsThePartsItMatched) {
  // No abstract writes "ResNet-50": the fallback finds the one writing
  // "ResNet" (as "ResNet-18"), and highlights that part.
  v1::SearchPapersResponse response;
  ASSERT_TRUE(Search("ResNet-50", &response).ok());
  EXPECT_EQ(response.match_mode(), v1::MATCH_MODE_ANY_TERMS);
  ASSERT_EQ(response.results_size(), 1);
  const v1::SearchResult& result = response.results(0);
  EXPECT_EQ(result.paper().id(), "iclr2024-57d2834f0813070e");
  ASSERT_GE(result.highlights_size(), 1);
  for (const v1::TextSpan& span : result.highlights()) {
    EXPECT_EQ(result.paper().abstract().substr(
                  span.start_byte(), span.end_byte() - span.start_byte()),
              "ResNet");
  }
}

TEST_F(QueryServiceE2eTest, MatchingStrategyAllReturnsFullMatchesOnly) {
  auto search = [&](const std::string& query, v1::MatchingStrategy strategy,
                    const std::string& page_token,
                    v1::SearchPapersResponse* response) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::SearchPapersRequest request;
    request.set_query(query);
    request.set_page_size(1);
    request.set_page_token(page_token);
    request.set_matching_strategy(strategy);
    return query_->SearchPapers(&context, request, response);
  };
  v1::SearchPapersResponse none;
  ASSERT_TRUE(
      search("synapse xylophone", v1::MATCHING_STRATEGY_ALL, "", &none).ok());
  // No paper holds both words: nothing, where the default falls back.
  EXPECT_EQ(none.total_size(), 0);
  EXPECT_EQ(none.results_size(), 0);
  EXPECT_EQ(none.match_mode(), v1::MATCH_MODE_ALL_TERMS);

  v1::SearchPapersResponse strict, loose;
  ASSERT_TRUE(
      search("spiking synaptic delays", v1::MATCHING_STRATEGY_ALL, "", &strict)
          .ok());
  ASSERT_TRUE(search("spiking synaptic delays",
                     v1::MATCHING_STRATEGY_ALL_THEN_SOME, "", &loose)
                  .ok());
  EXPECT_EQ(strict.match_mode(), v1::MATCH_MODE_ALL_TERMS);
  EXPECT_EQ(strict.total_size(), strict.full_match_count());
  EXPECT_EQ(loose.match_mode(), v1::MATCH_MODE_ALL_TERMS_THEN_SOME);
  EXPECT_EQ(loose.full_match_count(), strict.total_size());
  EXPECT_GT(loose.total_size(), strict.total_size());
  ASSERT_EQ(strict.results_size(), 1);
  EXPECT_EQ(strict.results(0).paper().id(), loose.results(0).paper().id());
  EXPECT_FALSE(strict.results(0).partial_match());

  // The strategy is part of the page token.
  ASSERT_FALSE(loose.next_page_token().empty());
  v1::SearchPapersResponse other;
  EXPECT_EQ(search("spiking synaptic delays", v1::MATCHING_STRATEGY_ALL,
                   loose.next_page_token(), &other)
                .error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(QueryServiceE2eTest, UnknownMatchingStrategyIsInvalidArgument) {
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::SearchPapersRequest request;
  request.set_query("neural");
  request.set_matching_strategy(static_cast<v1::MatchingStrategy>(7));
  v1::SearchPapersResponse response;

  const grpc::Status status =
      query_->SearchPapers(&context, request, &response);

  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(),
              HasSubstr("matching_strategy: unknown value 7"));
}

TEST_F(QueryServiceE2eTest, ListPapersPagesThroughAllSeventySix) {
  std::set<std::string> seen;
  std::string token;
  int64_t total = 0;
  do {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::ListPapersRequest request;
    request.set_page_size(30);
    request.set_page_token(token);
    v1::ListPapersResponse response;
    ASSERT_TRUE(query_->ListPapers(&context, request, &response).ok());
    total = response.total_size();
    for (const v1::Paper& p : response.papers()) seen.insert(p.id());
    token = response.next_page_token();
  } while (!token.empty());

  EXPECT_EQ(total, 76);
  EXPECT_EQ(seen.size(), 76u);
}

TEST_F(QueryServiceE2eTest, BatchGetReturnsPapersInRequestOrder) {
  grpc::ClientContext list_context;
  SetDeadline(&list_context);
  v1::ListPapersRequest list_request;
  list_request.set_page_size(3);
  v1::ListPapersResponse listed;
  ASSERT_TRUE(query_->ListPapers(&list_context, list_request, &listed).ok());
  ASSERT_EQ(listed.papers_size(), 3);
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::BatchGetPapersRequest request;
  request.add_names(listed.papers(2).name());
  request.add_names(listed.papers(0).id());  // A bare id works too.
  v1::BatchGetPapersResponse response;

  ASSERT_TRUE(query_->BatchGetPapers(&context, request, &response).ok());

  ASSERT_EQ(response.papers_size(), 2);
  EXPECT_EQ(response.papers(0).id(), listed.papers(2).id());
  EXPECT_EQ(response.papers(1).id(), listed.papers(0).id());
}

// Ids are lower case; an id or a whole name typed or copied in upper case
// names the paper.
TEST_F(QueryServiceE2eTest, GetPaperTakesANameInAnyCase) {
  v1::SearchPapersResponse found;
  ASSERT_TRUE(Search("\"leading indicators\"", &found).ok());
  ASSERT_EQ(found.results_size(), 1);
  const std::string id = found.results(0).paper().id();
  for (const std::string& name : {"papers/" + absl::AsciiStrToUpper(id),
                                  "PAPERS/" + absl::AsciiStrToUpper(id)}) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::GetPaperRequest request;
    request.set_name(name);
    v1::Paper paper;

    const grpc::Status status = query_->GetPaper(&context, request, &paper);

    ASSERT_TRUE(status.ok()) << name << ": " << status.error_message();
    EXPECT_EQ(paper.id(), id);
  }
}

TEST_F(QueryServiceE2eTest, BatchGetWithUnknownNameFailsNamingIt) {
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::BatchGetPapersRequest request;
  request.add_names("papers/nope");
  v1::BatchGetPapersResponse response;

  const grpc::Status status =
      query_->BatchGetPapers(&context, request, &response);

  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(status.error_message(), HasSubstr("names[0]"));
  const google::rpc::ErrorInfo info = ErrorInfoOf(status);
  EXPECT_EQ(info.reason(), "NOT_FOUND");
  EXPECT_EQ(info.metadata().at("field"), "names[0]");
  EXPECT_EQ(info.metadata().at("name"), "papers/nope");
}

TEST_F(QueryServiceE2eTest, SecondServerOnTheSamePortFailsToStart) {
  rpc::HealthService health;
  rpc::ServerOptions options;
  options.listen = "127.0.0.1:" + std::to_string(port_);

  auto second = rpc::StartServer(options, {query_service_.get()}, &health);

  EXPECT_EQ(second.status().code(), absl::StatusCode::kUnavailable);
}

TEST_F(QueryServiceE2eTest, HealthWatchStreamsAreCapped) {
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  std::vector<std::unique_ptr<
      grpc::ClientReader<grpc::health::v1::HealthCheckResponse>>>
      streams;
  grpc::health::v1::HealthCheckRequest request;
  for (int i = 0; i <= rpc::HealthService::kMaxWatchers; ++i) {
    contexts.push_back(std::make_unique<grpc::ClientContext>());
    SetDeadline(contexts.back().get());
    streams.push_back(health_stub_->Watch(contexts.back().get(), request));
    grpc::health::v1::HealthCheckResponse first;
    if (i < rpc::HealthService::kMaxWatchers) {
      ASSERT_TRUE(streams.back()->Read(&first)) << i;
      EXPECT_EQ(first.status(), grpc::health::v1::HealthCheckResponse::SERVING);
    }
  }

  grpc::health::v1::HealthCheckResponse response;
  EXPECT_FALSE(streams.back()->Read(&response));
  EXPECT_EQ(streams.back()->Finish().error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  for (auto& context : contexts) context->TryCancel();
}

TEST_F(QueryServiceE2eTest, HealthReportsServing) {
  grpc::ClientContext context;
  SetDeadline(&context);
  grpc::health::v1::HealthCheckRequest request;
  request.set_service("paperdb.v1.QueryService");
  grpc::health::v1::HealthCheckResponse response;

  ASSERT_TRUE(health_stub_->Check(&context, request, &response).ok());

  EXPECT_EQ(response.status(), grpc::health::v1::HealthCheckResponse::SERVING);
}

}  // namespace
}  // namespace paperdb::testing
