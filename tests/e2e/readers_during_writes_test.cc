// Readers during writes: while one thread ingests, replaces and deletes
// files, query engines (RocksDB secondaries catching up every few
// milliseconds) keep answering, and every answer shows each file whole:
// all of its papers or none, the old version or the new, never a mix. A
// query engine opened while the writer is busy works from its first call.

#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ingest_service/ingester.h"
#include "paperdb/index/index_writer.h"
#include "paperdb/storage/store.h"
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
  // A pause after each write, so that even a slow reader (an ASan build,
  // three searches a file) reads through several states of the store.
  auto pause = [] {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  };
  // Passes the reader completed. After each stage the writer waits for two
  // more (at most 10 s), so that a reader slower than the writes (under
  // ASan, beside other tests) still reads each stage's state whole.
  std::atomic<int> passes{0};
  auto settle = [&passes] {
    const int target = passes.load() + 2;
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (passes.load() < target &&
           std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  std::thread writer([&] {
    for (int f = 0; f < kFiles; ++f) {
      ASSERT_THAT(ingester.IngestContent(absl::StrCat("f", f, ".txt"),
                                         FileContent(f, 1)),
                  IsOk());
      pause();
    }
    settle();
    for (int f = 0; f < kFiles; f += 2) {  // Even files: a new version.
      ASSERT_THAT(ingester.IngestContent(absl::StrCat("f", f, ".txt"),
                                         FileContent(f, 2)),
                  IsOk());
      pause();
    }
    settle();
    for (int f = 1; f < kFiles; f += 4) {  // Some odd files: deleted.
      ASSERT_THAT(writer_->DeleteSource(absl::StrCat("f", f, ".txt")), IsOk());
      pause();
    }
    settle();
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
      // Three searches; the catch-up loop may move the store on between
      // them (an absent file can be at version 2 by the next search).
      const int64_t all = CountMarker(**engine, f);
      const int64_t revised = CountMarker(**engine, f, /*revised=*/true);
      const int64_t all_again = CountMarker(**engine, f);
      ++answers;
      pass_total += all + revised;
      // Version 1: 60 papers, none revised. Version 2: 60 papers (30 kept,
      // 30 new), 30 revised. Absent or deleted: 0. Each answer alone shows
      // one of these; and a file absent both before and after the search
      // for its revised papers has none (only odd files, never revised, are
      // deleted).
      const bool whole = (all == 0 || all == kPapersPerFile) &&
                         (all_again == 0 || all_again == kPapersPerFile) &&
                         (revised == 0 || revised == kPapersPerFile / 2) &&
                         !(all == 0 && all_again == 0 && revised != 0);
      if (!whole) {
        ++partial;
        ADD_FAILURE() << "file " << f << ": " << all << " papers, " << revised
                      << " revised, then " << all_again << " papers";
      }
    }
    states.insert(pass_total);
    ++passes;
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

// A one-shot ingest opens the store, replaces a file, flushes every family
// and closes, again and again; a query engine catching up meanwhile must
// never answer from one family flushed and another not (scores from the
// new corpus statistics over the old postings, and NOT_FOUND for papers
// the postings name). The families' flushes must
// commit together (atomic_flush): every answer is one version or the other.
class OneShotWritersTest : public StoreFixture {};

// atomic_flush alone left about one run in ten under load seeing a mixed
// state ("15 papers, 0 marked"): a secondary opened while the writer closed
// showed one family at one write and another at the next. Batch stamps
// (storage/keys.h) let the store detect such an instance and open another.
TEST_F(OneShotWritersTest, EveryAnswerIsOneVersion) {
  const std::string db = (dir_ / "db").string();
  // Version A: 15 papers, 10 with the marker; B: 100 papers, 40 with it.
  auto version = [](bool b) {
    std::string content = "ICLR 2024 paper list\n";
    const int papers = b ? 100 : 15;
    const int marked = b ? 40 : 10;
    for (int i = 0; i < papers; ++i) {
      absl::StrAppend(&content, "\n", i < marked ? "zqmark" : "other",
                      b ? " thing " : " item ", i, " common filler words.\n");
    }
    return content;
  };
  // Each round opens the store as a one-shot ingest does; the first one
  // before the query engine opens.
  auto one_shot = [&](int round) {
    auto store = storage::Store::OpenPrimary(db);
    ASSERT_THAT(store, IsOk());
    auto index_writer = index::IndexWriter::Create(store->get());
    ASSERT_THAT(index_writer, IsOk());
    ingest::Ingester ingester(index_writer->get(), store->get());
    ASSERT_THAT(ingester.IngestContent("f.txt", version(round % 2 == 0)),
                IsOk());
    ASSERT_THAT((*store)->Flush(), IsOk());
  };
  writer_.reset();
  store_.reset();
  one_shot(1);
  auto engine = query::QueryEngine::Open(db, (dir_ / "secondary").string());
  ASSERT_THAT(engine, IsOk());
  std::atomic<bool> writing{true};
  std::atomic<bool> reading{true};
  std::atomic<int> answers{0};
  // Each round waits for an answer since the one before, so that answers
  // interleave with rounds however loaded the machine is.
  std::thread writer([&] {
    for (int round = 2; round < 42; ++round) {
      while (reading && answers < round - 2) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      one_shot(round);
    }
    writing = false;
  });
  std::set<int64_t> seen;
  // Failures break out of the loop, so that the writer is still joined.
  while (writing) {
    const absl::Status caught_up = (*engine)->CatchUp();
    EXPECT_THAT(caught_up, IsOk());
    absl::StatusOr<uint64_t> papers = (*engine)->DocumentCount();
    EXPECT_THAT(papers, IsOk());
    v1::SearchPapersRequest request;
    request.set_query("zqmark");
    v1::SearchPapersResponse response;
    const absl::Status status = (*engine)->SearchPapers(request, &response);
    EXPECT_THAT(status, IsOk());
    if (!caught_up.ok() || !papers.ok() || !status.ok()) break;
    const int64_t marked = response.total_size();
    EXPECT_TRUE((*papers == 15 && marked == 10) ||
                (*papers == 100 && marked == 40))
        << *papers << " papers, " << marked << " marked";
    seen.insert(marked);
    ++answers;
  }
  reading = false;
  writer.join();
  EXPECT_GE(answers, 39);
  EXPECT_EQ(seen.size(), 2u);  // Both versions were seen.
}

}  // namespace
}  // namespace paperdb::testing
