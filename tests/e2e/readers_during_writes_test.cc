// Readers during writes: while one thread ingests, replaces and deletes
// files, query engines (RocksDB secondaries catching up every few
// milliseconds) keep answering, and every answer shows each file whole:
// all of its papers or none, the old version or the new, never a mix. A
// query engine opened while the writer is busy works from its first call.

#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ingest_service/ingester.h"
#include "query_service/query_engine.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::testing {
namespace {

constexpr int kFiles = 24;
constexpr int kPapersPerFile = 60;

// File `f`, version `version`: every abstract carries the marker word
// "markerf<f>" (so a search counts the file's papers) and, in version 2,
// "revised"; version 2 keeps the first half and replaces the rest.
std::string FileContent(int f, int version) {
  std::string content = "ICLR 2024 paper list\n";
  for (int i = 0; i < kPapersPerFile; ++i) {
    const bool revised = version == 2 && i >= kPapersPerFile / 2;
    absl::StrAppend(&content, "\nAbstract ", i, " of markerf", f,
                    revised ? " revised" : "",
                    " about sparse attention and retrieval.\n");
  }
  return content;
}

// Papers of file `f`; with `revised`, those of its version 2 that are new.
int64_t CountMarker(const query::QueryEngine& engine, int f,
                    bool revised = false) {
  v1::SearchPapersRequest request;
  request.set_query(revised ? absl::StrCat("\"markerf", f, " revised\"")
                            : absl::StrCat("markerf", f));
  v1::SearchPapersResponse response;
  const absl::Status status = engine.SearchPapers(request, &response);
  EXPECT_TRUE(status.ok()) << status;
  return response.total_size();
}

class ReadersDuringWritesTest : public StoreFixture {};

TEST_F(ReadersDuringWritesTest, EveryAnswerShowsWholeFiles) {
  ingest::Ingester ingester(writer_.get(), store_.get());
  const std::string db = (dir_ / "db").string();
  auto engine = query::QueryEngine::Open(db, (dir_ / "secondary1").string());
  ASSERT_THAT(engine, IsOk());
  (*engine)->StartCatchUpLoop(
      absl::Milliseconds(2),
      [](const absl::Status& status) { EXPECT_TRUE(status.ok()) << status; });

  std::atomic<bool> writing{true};
  std::atomic<int> late_engine_answers{0};
  std::thread writer([&] {
    for (int f = 0; f < kFiles; ++f) {
      ASSERT_THAT(ingester.IngestContent(absl::StrCat("f", f, ".txt"),
                                         FileContent(f, 1)),
                  IsOk());
    }
    for (int f = 0; f < kFiles; f += 2) {  // Even files: a new version.
      ASSERT_THAT(ingester.IngestContent(absl::StrCat("f", f, ".txt"),
                                         FileContent(f, 2)),
                  IsOk());
    }
    for (int f = 1; f < kFiles; f += 4) {  // Some odd files: deleted.
      ASSERT_THAT(writer_->DeleteSource(absl::StrCat("f", f, ".txt")), IsOk());
    }
    writing = false;
  });
  // A second engine, opened while the writer is busy.
  std::thread late_reader([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    auto late = query::QueryEngine::Open(db, (dir_ / "secondary2").string());
    ASSERT_THAT(late, IsOk());
    for (int round = 0; round < 20; ++round) {
      ASSERT_THAT((*late)->CatchUp(), IsOk());
      const int64_t n = CountMarker(**late, round % kFiles);
      EXPECT_TRUE(n == 0 || n == kPapersPerFile) << n;
      ++late_engine_answers;
    }
  });

  int64_t answers = 0;
  int64_t partial = 0;
  std::set<int64_t> states;  // Papers seen per pass: the store moving on.
  while (writing) {
    int64_t pass_total = 0;
    for (int f = 0; f < kFiles; ++f) {
      const int64_t all = CountMarker(**engine, f);
      const int64_t revised = CountMarker(**engine, f, /*revised=*/true);
      ++answers;
      pass_total += all + revised;
      // Version 1: 60 papers, none revised. Version 2: 60 papers (30 kept,
      // 30 new), 30 revised. Absent or deleted: 0.
      const bool whole =
          (all == 0 && revised == 0) ||
          (all == kPapersPerFile && revised == 0) ||
          (all == kPapersPerFile && revised == kPapersPerFile / 2);
      if (!whole) {
        ++partial;
        ADD_FAILURE() << "file " << f << ": " << all << " papers, " << revised
                      << " revised";
      }
    }
    states.insert(pass_total);
  }
  writer.join();
  late_reader.join();

  // Once caught up, the final state is exact.
  ASSERT_THAT((*engine)->CatchUp(), IsOk());
  for (int f = 0; f < kFiles; ++f) {
    const bool deleted = f % 4 == 1;
    EXPECT_EQ(CountMarker(**engine, f), deleted ? 0 : kPapersPerFile) << f;
    EXPECT_EQ(CountMarker(**engine, f, /*revised=*/true),
              f % 2 == 0 ? kPapersPerFile / 2 : 0)
        << f;
  }
  EXPECT_EQ(partial, 0);
  // The reader really ran during the writes, seeing the store change.
  EXPECT_GT(answers, kFiles);
  EXPECT_GE(states.size(), 3u);
  EXPECT_EQ(late_engine_answers, 20);
}

}  // namespace
}  // namespace paperdb::testing
