// Paging while the store changes: SearchPapers, ListPapers and ListSources
// page through the store over real gRPC while papers are ingested and
// deleted between pages. No id appears twice, and every paper the store
// held unchanged throughout appears, in the order an unchanged store gives
// (relevance scores are pinned by the page token).

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/service_fixture.h"

namespace paperdb::testing {
namespace {

using ::testing::ElementsAreArray;
using ::testing::IsSupersetOf;

// Ids in `all` not in `removed`, in order.
std::vector<std::string> Without(const std::vector<std::string>& all,
                                 const std::set<std::string>& removed) {
  std::vector<std::string> out;
  for (const std::string& id : all) {
    if (!removed.contains(id)) out.push_back(id);
  }
  return out;
}

// Ids of `ids` that are in `kept`, in order.
std::vector<std::string> Only(const std::vector<std::string>& ids,
                              const std::set<std::string>& kept) {
  std::vector<std::string> out;
  for (const std::string& id : ids) {
    if (kept.contains(id)) out.push_back(id);
  }
  return out;
}

class ConsistentPagingTest : public ServiceFixture {
 protected:
  // Every page of `request` (page size 4), calling `between` after each.
  std::vector<v1::SearchPapersResponse> SearchPages(
      v1::SearchPapersRequest request,
      const std::function<void(int page, const v1::SearchPapersResponse&)>&
          between = nullptr) {
    request.set_page_size(4);
    std::vector<v1::SearchPapersResponse> pages;
    for (int page = 0; page < 100; ++page) {
      pages.push_back(SearchOk(request));
      if (pages.back().next_page_token().empty()) break;
      request.set_page_token(pages.back().next_page_token());
      if (between) between(page, pages.back());
    }
    return pages;
  }

  static std::vector<std::string> AllIds(
      const std::vector<v1::SearchPapersResponse>& pages) {
    std::vector<std::string> ids;
    for (const v1::SearchPapersResponse& page : pages) {
      for (const std::string& id : Ids(page)) ids.push_back(id);
    }
    return ids;
  }

  // Ingests a file of `n` abstracts, each holding `words` `repeat` times
  // (a high BM25 score for many repeats, a low one for one in a long
  // abstract; year 2025 for many, 2023 for one), and makes the query engine
  // see it.
  void IngestMore(const std::string& file, int n, const std::string& words,
                  int repeat) {
    // Outranking papers are newer, so that they sort first by year too.
    std::string content =
        repeat > 1 ? "ICLR 2025 paper list\n" : "ICLR 2023 paper list\n";
    for (int i = 0; i < n; ++i) {
      absl::StrAppend(&content, "\nInserted abstract ", file, " number ", i,
                      ":");
      for (int r = 0; r < repeat; ++r) absl::StrAppend(&content, " ", words);
      if (repeat == 1) {
        for (int pad = 0; pad < 40; ++pad) {
          absl::StrAppend(&content, " padding", pad % 7);
        }
      }
      absl::StrAppend(&content, ".\n");
    }
    ASSERT_TRUE(Ingest(file, content).ok());
    ASSERT_TRUE(engine_->CatchUp().ok());
  }

  void DeletePaper(const std::string& id) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::DeletePaperRequest request;
    request.set_name("papers/" + id);
    v1::DeletePaperResponse deleted;
    ASSERT_TRUE(ingest_->DeletePaper(&context, request, &deleted).ok()) << id;
    ASSERT_TRUE(engine_->CatchUp().ok());
  }

  // Pages through `request` on the seed corpus twice: once unchanged (the
  // reference), once with papers that outrank every result and papers that
  // rank last ingested, and a paper not yet shown deleted, between pages.
  // Checks that the changed run repeats no id and shows every seed paper
  // of the reference but the deleted ones, in the reference's order.
  void CheckStableUnderChanges(const v1::SearchPapersRequest& request,
                               v1::MatchMode mode, const std::string& words) {
    const std::vector<v1::SearchPapersResponse> reference =
        SearchPages(request);
    ASSERT_EQ(reference.front().match_mode(), mode) << request.query();
    const std::vector<std::string> expected = AllIds(reference);
    ASSERT_GE(expected.size(), 8u) << request.query();  // Two pages or more.
    const std::set<std::string> seeds(expected.begin(), expected.end());
    ASSERT_EQ(seeds.size(), expected.size()) << "the reference repeats";

    std::set<std::string> deleted;
    std::vector<std::string> shown;
    const std::vector<v1::SearchPapersResponse> pages = SearchPages(
        request, [&](int page, const v1::SearchPapersResponse& last) {
          for (const std::string& id : Ids(last)) shown.push_back(id);
          IngestMore(absl::StrCat("top", page, ".txt"), 3, words, 30);
          IngestMore(absl::StrCat("low", page, ".txt"), 3, words, 1);
          // The last reference result not shown yet.
          for (auto it = expected.rbegin(); it != expected.rend(); ++it) {
            if (!deleted.contains(*it) &&
                std::find(shown.begin(), shown.end(), *it) == shown.end()) {
              deleted.insert(*it);
              DeletePaper(*it);
              break;
            }
          }
        });
    const std::vector<std::string> got = AllIds(pages);
    const std::set<std::string> distinct(got.begin(), got.end());
    EXPECT_EQ(distinct.size(), got.size()) << "an id appeared twice";
    EXPECT_THAT(Only(got, seeds), ElementsAreArray(Without(expected, deleted)));
    EXPECT_GE(deleted.size(), 1u);
    EXPECT_FALSE(pages.front().total_size_changed());
    for (const v1::SearchPapersResponse& page : pages) {
      EXPECT_EQ(page.match_mode(), mode);
    }
    if (!pages.back().total_size_estimated()) {
      EXPECT_TRUE(pages.back().total_size_changed());
    }
  }
};

TEST_F(ConsistentPagingTest, RelevancePagesRepeatAndSkipNothing) {
  v1::SearchPapersRequest request;
  request.set_query("learning");
  CheckStableUnderChanges(request, v1::MATCH_MODE_ALL_TERMS, "learning");
}

TEST_F(ConsistentPagingTest, ConjunctionWithFacetsOnTheFirstPageOnly) {
  // The first page's facets make it collect every match (another
  // evaluation strategy than the later pages'): scores still compare.
  v1::SearchPapersRequest request;
  request.set_query("neural networks");
  request.add_facet_fields("venue");
  request.set_page_size(4);
  const v1::SearchPapersResponse first = SearchOk(request);
  ASSERT_EQ(first.facets_size(), 1);
  request.clear_facet_fields();
  request.set_page_token(first.next_page_token());
  std::vector<std::string> got = Ids(first);
  while (!request.page_token().empty()) {
    const v1::SearchPapersResponse page = SearchOk(request);
    for (const std::string& id : Ids(page)) got.push_back(id);
    request.set_page_token(page.next_page_token());
  }
  request.clear_page_token();
  EXPECT_THAT(got, ElementsAreArray(AllIds(SearchPages(request))));
  EXPECT_EQ(static_cast<int64_t>(got.size()), first.total_size());
}

TEST_F(ConsistentPagingTest, PartialMatchPagesRepeatAndSkipNothing) {
  v1::SearchPapersRequest request;
  request.set_query("hypergraph neural");
  CheckStableUnderChanges(request, v1::MATCH_MODE_ALL_TERMS_THEN_SOME,
                          "hypergraph neural");
}

TEST_F(ConsistentPagingTest, AnyTermPagesRepeatAndSkipNothing) {
  v1::SearchPapersRequest request;
  request.set_query("hypergraph reinforcement");
  CheckStableUnderChanges(request, v1::MATCH_MODE_ANY_TERMS,
                          "hypergraph reinforcement");
}

TEST_F(ConsistentPagingTest, YearOrderPagesRepeatAndSkipNothing) {
  v1::SearchPapersRequest request;
  request.set_query("learning");
  request.set_order_by("year desc");
  CheckStableUnderChanges(request, v1::MATCH_MODE_ALL_TERMS, "learning");
}

TEST_F(ConsistentPagingTest, IngestOrderPagesRepeatAndSkipNothing) {
  v1::SearchPapersRequest request;
  request.set_query("learning");
  request.set_order_by("ingest_time desc");
  CheckStableUnderChanges(request, v1::MATCH_MODE_ALL_TERMS, "learning");
}

TEST_F(ConsistentPagingTest, LaterPagesSearchWhatTheFirstPageExpandedTo) {
  // The first page corrects a typo, or expands a prefix, against the
  // dictionary of the time; words ingested after it would change that.
  IngestMore("typo.txt", 6, "vortelian zqxkab", 2);
  v1::SearchPapersRequest request;
  request.set_query("vortelian");
  const std::vector<std::string> typo_ids = AllIds(SearchPages(request));
  ASSERT_EQ(typo_ids.size(), 6u);
  request.set_page_size(2);
  for (const char* query : {"vortelain", "zqxk*"}) {
    SCOPED_TRACE(query);
    request.set_query(query);
    request.clear_page_token();
    v1::SearchPapersResponse page = SearchOk(request);
    ASSERT_GE(page.total_size(), 6);
    std::vector<std::string> got = Ids(page);
    IngestMore(absl::StrCat("more_", got.size(), "_",
                            query[1] == 'o' ? "typo" : "prefix", ".txt"),
               1, "vortelain zqxkaa zqxkab", 1);
    while (!page.next_page_token().empty()) {
      request.set_page_token(page.next_page_token());
      page = SearchOk(request);
      for (const std::string& id : Ids(page)) got.push_back(id);
    }
    const std::set<std::string> distinct(got.begin(), got.end());
    EXPECT_EQ(distinct.size(), got.size());
    EXPECT_THAT(got, IsSupersetOf(typo_ids));
  }
}

// A token is bound to the order, not to how the request spells it:
// "relevance" is the default.
TEST_F(ConsistentPagingTest, TheDefaultOrderSpelledOutTakesTheToken) {
  v1::SearchPapersRequest request;
  request.set_query("learning");
  request.set_page_size(2);
  const v1::SearchPapersResponse first = SearchOk(request);
  ASSERT_FALSE(first.next_page_token().empty());
  request.set_page_token(first.next_page_token());
  const v1::SearchPapersResponse plain = SearchOk(request);

  for (const char* order : {"relevance", " RELEVANCE "}) {
    request.set_order_by(order);
    const v1::SearchPapersResponse spelled = SearchOk(request);
    ASSERT_EQ(spelled.results_size(), 2) << order;
    EXPECT_EQ(spelled.results(0).paper().name(),
              plain.results(0).paper().name());
  }
  request.set_order_by("year desc");
  v1::SearchPapersResponse response;
  EXPECT_EQ(engine_->SearchPapers(request, &response).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(ConsistentPagingTest, TokensOfAnotherStoreAreRefused) {
  v1::SearchPapersRequest request;
  request.set_query("learning");
  request.set_page_size(2);
  const v1::SearchPapersResponse first = SearchOk(request);
  ASSERT_FALSE(first.next_page_token().empty());
  // Another store with the same papers: its doc ids and statistics are
  // not the token's.
  const std::string other = (dir_ / "other").string();
  {
    auto store = storage::Store::OpenPrimary(other);
    ASSERT_TRUE(store.ok()) << store.status();
    auto writer = index::IndexWriter::Create(store->get());
    ASSERT_TRUE(writer.ok()) << writer.status();
    ingest::Ingester ingester(writer->get(), store->get());
    for (const auto& entry : std::filesystem::directory_iterator(SeedDir())) {
      std::ifstream in(entry.path());
      const std::string content((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
      ASSERT_TRUE(
          ingester.IngestContent(entry.path().filename().string(), content)
              .ok());
    }
  }
  auto engine = query::QueryEngine::Open(other, (dir_ / "other2").string());
  ASSERT_TRUE(engine.ok()) << engine.status();
  request.set_page_token(first.next_page_token());
  v1::SearchPapersResponse response;
  const absl::Status status = (*engine)->SearchPapers(request, &response);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(std::string(status.message()),
              ::testing::HasSubstr("another store"));
}

TEST_F(ConsistentPagingTest, ListPapersPagesRepeatAndSkipNothing) {
  std::vector<std::string> seeds;
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::ListPapersRequest request;
    request.set_page_size(1000);
    v1::ListPapersResponse all;
    ASSERT_TRUE(query_->ListPapers(&context, request, &all).ok());
    for (const v1::Paper& paper : all.papers()) seeds.push_back(paper.id());
  }
  ASSERT_EQ(seeds.size(), 76u);
  v1::ListPapersRequest request;
  request.set_page_size(10);
  std::vector<std::string> got;
  std::set<std::string> deleted;
  bool changed = false;
  for (int page = 0; page < 100; ++page) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::ListPapersResponse response;
    ASSERT_TRUE(query_->ListPapers(&context, request, &response).ok());
    if (page == 0) {
      EXPECT_FALSE(response.total_size_changed());
    }
    changed |= response.total_size_changed();
    for (const v1::Paper& paper : response.papers()) got.push_back(paper.id());
    if (response.next_page_token().empty()) break;
    request.set_page_token(response.next_page_token());
    // A paper already listed and one not yet listed go; new ones come.
    DeletePaper(got[got.size() - 1 - static_cast<size_t>(page)]);
    deleted.insert(got[got.size() - 1 - static_cast<size_t>(page)]);
    for (auto it = seeds.rbegin(); it != seeds.rend(); ++it) {
      if (std::find(got.begin(), got.end(), *it) == got.end() &&
          !deleted.contains(*it)) {
        DeletePaper(*it);
        deleted.insert(*it);
        break;
      }
    }
    IngestMore(absl::StrCat("more", page, ".txt"), 2, "listed", 1);
  }
  const std::set<std::string> distinct(got.begin(), got.end());
  EXPECT_EQ(distinct.size(), got.size()) << "an id appeared twice";
  const std::set<std::string> seed_set(seeds.begin(), seeds.end());
  // Every seed paper not deleted before it was reached: all of those
  // deleted after being listed are in `got` as well.
  std::vector<std::string> expected;
  for (const std::string& id : seeds) {
    if (!deleted.contains(id) ||
        std::find(got.begin(), got.end(), id) != got.end()) {
      expected.push_back(id);
    }
  }
  EXPECT_THAT(Only(got, seed_set), ElementsAreArray(expected));
  EXPECT_GT(got.size(), expected.size());  // New papers came last.
  EXPECT_TRUE(changed);
}

TEST_F(ConsistentPagingTest, ListSourcesPagesRepeatAndSkipNothing) {
  v1::ListSourcesRequest request;
  request.set_page_size(1);
  std::vector<std::string> got;
  bool changed = false;
  for (int page = 0; page < 100; ++page) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::ListSourcesResponse response;
    ASSERT_TRUE(ingest_->ListSources(&context, request, &response).ok());
    ASSERT_EQ(response.sources_size(), 1);
    if (page == 0) {
      EXPECT_FALSE(response.total_size_changed());
    }
    changed |= response.total_size_changed();
    got.push_back(response.sources(0).file_name());
    if (response.next_page_token().empty()) break;
    request.set_page_token(response.next_page_token());
    // Files sorting before and after the cursor arrive.
    if (page < 4) {
      IngestMore(absl::StrCat("000_000_early", page, ".txt"), 1, "sources", 1);
      IngestMore(absl::StrCat("zzz_late", page, ".txt"), 1, "sources", 1);
    }
  }
  const std::set<std::string> distinct(got.begin(), got.end());
  EXPECT_EQ(distinct.size(), got.size()) << "a file appeared twice";
  EXPECT_THAT(
      got,
      IsSupersetOf({"000_286d7a53da2fb062.txt", "001_b991fe129441cd4e.txt",
                    "002_f99a80f249628c6c.txt", "004_0ef8dce93850603c.txt"}));
  EXPECT_TRUE(changed);
  // The seed files, then the late ones: the early ones sorted before the
  // cursor each time.
  EXPECT_EQ(got.size(), 4u + 4u);
  EXPECT_EQ(got.back(), "zzz_late3.txt");
}

}  // namespace
}  // namespace paperdb::testing
