#include "tests/relevance/relevance.h"

#include <cmath>
#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace paperdb::relevance {
namespace {

JudgedQuery Judged(std::map<std::string, int> grades) {
  return {"q", "topic", "query", std::move(grades)};
}

Ranking Ranked(std::vector<std::string> ids, bool any_terms = false) {
  return {std::move(ids), any_terms, ""};
}

TEST(NdcgTest, IdealRankingScoresOne) {
  const JudgedQuery query = Judged({{"a", 3}, {"b", 2}, {"c", 1}});
  EXPECT_DOUBLE_EQ(Ndcg(query, Ranked({"a", "b", "c", "x"})), 1.0);
}

TEST(NdcgTest, UsesExponentialGainsAndLogDiscounts) {
  const JudgedQuery query = Judged({{"a", 3}, {"b", 1}});
  // DCG: 0 + 1/log2(3) + 7/log2(4); ideal: 7 + 1/log2(3).
  const double dcg = 1 / std::log2(3.0) + 7 / 2.0;
  const double ideal = 7 + 1 / std::log2(3.0);
  EXPECT_NEAR(Ndcg(query, Ranked({"x", "b", "a"})), dcg / ideal, 1e-12);
}

TEST(NdcgTest, OnlyTheFirstTenCount) {
  const JudgedQuery query = Judged({{"a", 3}});
  std::vector<std::string> ids(10, "x");
  ids.push_back("a");
  EXPECT_EQ(Ndcg(query, Ranked(ids)), 0.0);
  EXPECT_EQ(ReciprocalRank(query, Ranked(ids)), 0.0);
}

TEST(ReciprocalRankTest, FirstResultGradedTwoOrMore) {
  const JudgedQuery query = Judged({{"a", 1}, {"b", 2}});
  EXPECT_DOUBLE_EQ(ReciprocalRank(query, Ranked({"a", "x", "b"})), 1.0 / 3);
  EXPECT_EQ(ReciprocalRank(query, Ranked({"a"})), 0.0);
}

TEST(NoRelevantScoreTest, NothingOrAnyTermFallbackScoresOne) {
  EXPECT_EQ(NoRelevantScore(Ranked({})), 1.0);
  EXPECT_EQ(NoRelevantScore(Ranked({"a"}, /*any_terms=*/true)), 1.0);
  EXPECT_EQ(NoRelevantScore(Ranked({"a"})), 0.0);
}

TEST(ToFts5QueryTest, WordsAreQuotedAndAndedWithoutStopwords) {
  EXPECT_EQ(ToFts5Query("the ResNet-18 of 5.4%", false),
            R"(("ResNet-18" AND "5.4%"))");
  EXPECT_EQ(ToFts5Query("light hgnn", true), R"(("light" OR "hgnn"))");
  EXPECT_EQ(ToFts5Query("graph \xE2\x80\x94 ?! networks", false),
            R"(("graph" AND "networks"))");  // Punctuation alone: no word.
  EXPECT_EQ(ToFts5Query("the of", false), "");
}

TEST(ToFts5QueryTest, PhrasesKeepTheirStopwords) {
  EXPECT_EQ(ToFts5Query("\"mixture of experts\" moe", false),
            R"(("mixture of experts" AND "moe"))");
  EXPECT_EQ(ToFts5Query("\xE2\x80\x9Cleading indicators\xE2\x80\x9D", false),
            R"(("leading indicators"))");
}

TEST(ToFts5QueryTest, ExclusionsBecomeNot) {
  EXPECT_EQ(ToFts5Query("forecasting -\"time series\" -lift", false),
            R"(("forecasting") NOT "time series" NOT "lift")");
  EXPECT_EQ(ToFts5Query("-lift", false), "");
}

TEST(ToFts5QueryTest, OperatorsPrefixesAndNear) {
  EXPECT_EQ(ToFts5Query("(graph OR hypergraph) grap*", false),
            R"((( "graph" OR "hypergraph" ) AND "grap"*))");
  EXPECT_EQ(ToFts5Query("(graph OR hypergraph) grap*", true),
            R"(("graph" OR "hypergraph" OR "grap"*))");
  EXPECT_EQ(ToFts5Query("\"sparse attention\"~3", false),
            R"((NEAR("sparse" "attention", 3)))");
}

TEST(ToFts5QueryTest, FieldFiltersAreDroppedOrKeepTheirValue) {
  EXPECT_EQ(ToFts5Query("venue:ICLR year:2024 has:code method:LIFT", false),
            R"(("LIFT"))");
  EXPECT_EQ(ToFts5Query("dataset:ImageNet host:github.com", false),
            R"(("ImageNet"))");
}

TEST(LoadJudgedQueriesTest, ReadsQueriesAndGrades) {
  const auto dir = std::filesystem::path(::testing::TempDir());
  const std::string queries = (dir / "relevance_queries.tsv").string();
  const std::string judgments = (dir / "relevance_judgments.tsv").string();
  std::ofstream(queries) << "# comment\nquery_id\ttier\tquery\n"
                            "t-1\ttopic\tgraph\nn-1\tnone\tprotein\n";
  std::ofstream(judgments) << "query_id\tpaper_id\tgrade\tnote\n"
                              "t-1\tp1\t3\tDREAM\nt-1\tp2\t0\n";
  std::map<std::string, std::string> notes;
  auto loaded = LoadJudgedQueries(queries, judgments, &notes);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 2u);
  EXPECT_EQ((*loaded)[0].text, "graph");
  EXPECT_THAT((*loaded)[0].grades,
              ::testing::ElementsAre(::testing::Pair("p1", 3)));
  EXPECT_EQ(notes["p1"], "DREAM");

  EXPECT_FALSE((*loaded)[0].no_relevant());
  EXPECT_TRUE((*loaded)[1].no_relevant());

  std::ofstream(judgments) << "x-9\tp1\t2\n";
  EXPECT_FALSE(LoadJudgedQueries(queries, judgments).ok());  // Unknown query.
  std::ofstream(judgments) << "t-1\tp1\t4\n";
  EXPECT_FALSE(LoadJudgedQueries(queries, judgments).ok());  // Bad grade.
}

TEST(LoadJudgedQueriesTest, WarnsAboutQueriesScoredOtherwiseThanTheirTier) {
  const auto dir = std::filesystem::path(::testing::TempDir());
  const std::string queries = (dir / "relevance_queries2.tsv").string();
  const std::string judgments = (dir / "relevance_judgments2.tsv").string();
  std::ofstream(queries) << "t-1\ttopic\tgraph\nt-2\ttopic\tgrap\n"
                            "n-1\tnone\tprotein\n";
  std::ofstream(judgments) << "t-1\tp1\t1\nn-1\tp1\t2\n";
  std::vector<std::string> warnings;
  auto loaded = LoadJudgedQueries(queries, judgments, nullptr, &warnings);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_THAT(warnings,
              ::testing::UnorderedElementsAre(::testing::HasSubstr("t-1"),
                                              ::testing::HasSubstr("t-2"),
                                              ::testing::HasSubstr("n-1")));
  EXPECT_TRUE((*loaded)[1].no_relevant());
  EXPECT_FALSE((*loaded)[2].no_relevant());
}

}  // namespace
}  // namespace paperdb::relevance
