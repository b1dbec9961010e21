// Checkpoints end to end: the writer publishes them (PublishCheckpoint,
// CheckpointPublisher), a reader follows a directory of copies
// (CheckpointFollower) and serves them over real gRPC through an
// EngineSlot. A published checkpoint is complete and verifies; a
// half-copied one is never opened; searches running while the served
// checkpoint changes never fail and each answer comes from one checkpoint.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "ingest_service/checkpoint_publisher.h"
#include "ingest_service/ingester.h"
#include "paperdb/index/verifier.h"
#include "paperdb/rpc/health_service.h"
#include "paperdb/rpc/server_runner.h"
#include "paperdb/storage/checkpoint.h"
#include "paperdb/v1/query_service.grpc.pb.h"
#include "query_service/checkpoint_follower.h"
#include "query_service/engine_slot.h"
#include "query_service/query_service_impl.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::testing {
namespace {

namespace fs = std::filesystem;
using storage::CheckpointInfo;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr int kPapersPerVersion = 5;

class CheckpointTest : public StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    if (HasFatalFailure()) return;
    published_ = dir_ / "published";
    ingester_ = std::make_unique<ingest::Ingester>(writer_.get(), store_.get());
  }

  // Stores file v<k>.txt: kPapersPerVersion abstracts about zebrafish, so
  // after versions 1..k a search for "zebrafish" finds k * 5 papers.
  void AddVersion(int k) {
    std::string content = "ICLR 2024 paper list\n";
    for (int i = 0; i < kPapersPerVersion; ++i) {
      absl::StrAppend(&content, "\nAbstract ", i, " of version ", k,
                      " about zebrafish retina regeneration.\n");
    }
    ASSERT_THAT(ingester_->IngestContent(absl::StrCat("v", k, ".txt"), content)
                    .status(),
                IsOk());
  }

  CheckpointInfo Publish() {
    absl::StatusOr<CheckpointInfo> info =
        storage::PublishCheckpoint(*store_, published_.string());
    EXPECT_THAT(info.status(), IsOk());
    return info.ok() ? *info : CheckpointInfo{};
  }

  // Names in `dir`, sorted.
  static std::vector<std::string> Names(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  static void CopyTree(const fs::path& from, const fs::path& to) {
    fs::copy(from, to, fs::copy_options::recursive);
  }

  fs::path published_;  // Where Publish() publishes.
  std::unique_ptr<ingest::Ingester> ingester_;
};

TEST_F(CheckpointTest, PublishedCheckpointIsCompleteAndVerifies) {
  AddVersion(1);
  const CheckpointInfo info = Publish();
  EXPECT_EQ(info.papers, 5u);
  EXPECT_EQ(info.sequence, store_->LatestSequenceNumber());
  EXPECT_EQ(info.name, storage::CheckpointName(info.sequence));
  EXPECT_EQ(info.name.size(), 25u);  // "ckpt-" and 20 digits.
  // Nothing but the checkpoint: the temporary directory is gone.
  EXPECT_THAT(Names(published_), ElementsAre(info.name));
  EXPECT_TRUE(fs::exists(fs::path(info.path) / storage::kCheckpointMarker));
  auto read = storage::ReadCompleteCheckpoint(info.path);
  ASSERT_THAT(read.status(), IsOk());
  EXPECT_EQ(read->papers, 5u);
  EXPECT_EQ(read->sequence, info.sequence);

  // What `ingest_service verify` runs, on the checkpoint.
  {
    auto checkpoint = storage::Store::OpenSecondary(
        info.path, (dir_ / "verify-secondary").string());
    ASSERT_THAT(checkpoint.status(), IsOk());
    auto report = index::VerifyStore(**checkpoint);
    ASSERT_THAT(report.status(), IsOk());
    EXPECT_EQ(report->problem_count, 0u);
    EXPECT_EQ(report->papers, 5u);
    EXPECT_EQ(report->sources, 1u);
  }

  // An unchanged store publishes nothing new.
  const CheckpointInfo again = Publish();
  EXPECT_EQ(again.name, info.name);
  EXPECT_THAT(Names(published_), ElementsAre(info.name));
}

TEST_F(CheckpointTest, PublisherPublishesChangesOnlyAndKeepsTheNewest) {
  ingest::CheckpointPublisher publisher(store_.get(), published_.string(),
                                        /*keep=*/2);
  AddVersion(1);
  auto first = publisher.PublishIfChanged();
  ASSERT_THAT(first.status(), IsOk());
  ASSERT_TRUE(first->has_value());
  EXPECT_EQ((*first)->papers, 5u);
  auto unchanged = publisher.PublishIfChanged();
  ASSERT_THAT(unchanged.status(), IsOk());
  EXPECT_FALSE(unchanged->has_value());
  for (int k = 2; k <= 4; ++k) {
    AddVersion(k);
    auto published = publisher.PublishIfChanged();
    ASSERT_THAT(published.status(), IsOk());
    ASSERT_TRUE(published->has_value());
    EXPECT_EQ((*published)->papers, static_cast<uint64_t>(5 * k));
  }
  auto kept = storage::ListCompleteCheckpoints(published_.string());
  ASSERT_THAT(kept.status(), IsOk());
  ASSERT_EQ(kept->size(), 2u);
  EXPECT_EQ((*kept)[0].papers, 15u);
  EXPECT_EQ((*kept)[1].papers, 20u);
  EXPECT_EQ(Names(published_).size(), 2u);
  // A restarted writer finds its last checkpoint current.
  ingest::CheckpointPublisher restarted(store_.get(), published_.string(), 2);
  auto after_restart = restarted.PublishIfChanged();
  ASSERT_THAT(after_restart.status(), IsOk());
  EXPECT_FALSE(after_restart->has_value());
}

TEST_F(CheckpointTest, HalfCopiedCheckpointIsNeverOpened) {
  AddVersion(1);
  const CheckpointInfo good = Publish();
  AddVersion(2);
  const CheckpointInfo newer = Publish();
  ASSERT_EQ(newer.papers, 10u);
  const fs::path copies = dir_ / "copies";
  fs::create_directories(copies);
  CopyTree(good.path, copies / good.name);
  // The newer one as a transport leaves it midway: no marker yet...
  CopyTree(newer.path, copies / newer.name);
  fs::remove(copies / newer.name / storage::kCheckpointMarker);
  // ...whole, but still under a hidden temporary name...
  CopyTree(newer.path, copies / ".tmp-ckpt-copy");
  // ...the marker there but a file missing, or one cut short.
  const fs::path missing = copies / storage::CheckpointName(newer.sequence + 1);
  const fs::path short_file =
      copies / storage::CheckpointName(newer.sequence + 2);
  CopyTree(newer.path, missing);
  CopyTree(newer.path, short_file);
  std::string sst;
  for (const auto& entry : fs::directory_iterator(missing)) {
    if (entry.path().extension() == ".sst") sst = entry.path().filename();
  }
  ASSERT_FALSE(sst.empty());
  fs::remove(missing / sst);
  fs::resize_file(short_file / sst, fs::file_size(short_file / sst) - 1);

  EXPECT_THAT(
      storage::ReadCompleteCheckpoint((copies / newer.name).string()).status(),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("no COMPLETE")));
  EXPECT_THAT(storage::ReadCompleteCheckpoint(missing.string()).status(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr(sst + " is missing")));
  EXPECT_THAT(storage::ReadCompleteCheckpoint(short_file.string()).status(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr(sst + " has ")));
  auto complete = storage::ListCompleteCheckpoints(copies.string());
  ASSERT_THAT(complete.status(), IsOk());
  ASSERT_EQ(complete->size(), 1u);
  EXPECT_EQ((*complete)[0].name, good.name);

  query::EngineSlot slot;
  query::CheckpointFollower follower(copies.string(), (dir_ / "work").string(),
                                     &slot);
  auto served = follower.Poll();
  ASSERT_THAT(served.status(), IsOk());
  ASSERT_TRUE(served->has_value());
  EXPECT_EQ((*served)->checkpoint.name, good.name);
  ASSERT_NE(slot.Get(), nullptr);
  EXPECT_EQ(slot.Get()->DocumentCount().value_or(0), 5u);
  auto unchanged = follower.Poll();
  ASSERT_THAT(unchanged.status(), IsOk());
  EXPECT_FALSE(unchanged->has_value());

  // The marker arrives last: now the newer checkpoint is complete.
  fs::copy_file(fs::path(newer.path) / storage::kCheckpointMarker,
                copies / newer.name / storage::kCheckpointMarker);
  served = follower.Poll();
  ASSERT_THAT(served.status(), IsOk());
  ASSERT_TRUE(served->has_value());
  EXPECT_EQ((*served)->checkpoint.name, newer.name);
  EXPECT_EQ(slot.Get()->DocumentCount().value_or(0), 10u);
}

v1::SearchPapersRequest ZebrafishSearch() {
  v1::SearchPapersRequest request;
  request.set_query("zebrafish");
  request.set_page_size(100);
  return request;
}

std::vector<std::string> SortedNames(const v1::SearchPapersResponse& response) {
  std::vector<std::string> names;
  for (const auto& result : response.results()) {
    names.push_back(result.paper().name());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST_F(CheckpointTest, SearchesDuringSwapsNeverFailNorMixCheckpoints) {
  constexpr int kVersions = 6;
  std::vector<CheckpointInfo> versions;
  // The papers each checkpoint's answer must list, by its total_size.
  std::map<int64_t, std::vector<std::string>> expected;
  for (int k = 1; k <= kVersions; ++k) {
    AddVersion(k);
    versions.push_back(Publish());
    ASSERT_EQ(versions.back().papers, static_cast<uint64_t>(5 * k));
    auto engine = query::QueryEngine::Open(
        versions.back().path, (dir_ / absl::StrCat("expect", k)).string());
    ASSERT_THAT(engine.status(), IsOk());
    v1::SearchPapersResponse response;
    ASSERT_THAT((*engine)->SearchPapers(ZebrafishSearch(), &response), IsOk());
    ASSERT_EQ(response.total_size(), 5 * k);
    expected[response.total_size()] = SortedNames(response);
  }

  const fs::path follow = dir_ / "follow";
  fs::create_directories(follow);
  query::EngineSlot slot;
  query::CheckpointFollower follower(follow.string(), (dir_ / "work").string(),
                                     &slot);
  query::QueryServiceImpl service(&slot);
  rpc::HealthService health;
  rpc::ServerOptions options;
  options.listen = "127.0.0.1:0";
  auto started = rpc::StartServer(options, {&service}, &health);
  ASSERT_THAT(started.status(), IsOk());
  auto channel = grpc::CreateChannel(absl::StrCat("127.0.0.1:", started->port),
                                     grpc::InsecureChannelCredentials());
  auto stub = v1::QueryService::NewStub(channel);

  // Before the first checkpoint: UNAVAILABLE.
  {
    grpc::ClientContext context;
    v1::SearchPapersResponse response;
    const grpc::Status status =
        stub->SearchPapers(&context, ZebrafishSearch(), &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE);
  }
  // A copy arrives as a transport delivers it: under a temporary name,
  // renamed into place.
  auto deliver = [&](const CheckpointInfo& info) {
    CopyTree(info.path, follow / ".tmp-delivery");
    fs::rename(follow / ".tmp-delivery", follow / info.name);
  };
  deliver(versions[0]);
  ASSERT_THAT(follower.Poll().status(), IsOk());

  std::atomic<bool> stop{false};
  std::atomic<int> calls{0}, failures{0}, mixed{0};
  std::mutex seen_mu;
  std::set<int64_t> totals_seen;
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back([&] {
      while (!stop.load()) {
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() +
                             std::chrono::seconds(10));
        v1::SearchPapersResponse response;
        const grpc::Status status =
            stub->SearchPapers(&context, ZebrafishSearch(), &response);
        ++calls;
        if (!status.ok()) {
          ++failures;
          continue;
        }
        auto it = expected.find(response.total_size());
        if (it == expected.end() || it->second != SortedNames(response)) {
          ++mixed;
        }
        std::lock_guard<std::mutex> lock(seen_mu);
        totals_seen.insert(response.total_size());
      }
    });
  }
  int swaps = 0;
  auto poll_expecting = [&](const CheckpointInfo& info) {
    auto served = follower.Poll();
    ASSERT_THAT(served.status(), IsOk());
    ASSERT_TRUE(served->has_value());
    EXPECT_EQ((*served)->checkpoint.name, info.name);
    ++swaps;
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
  };
  // Forward through every version, then back by removing the newest (the
  // served checkpoint's files stay readable while calls hold it).
  for (int k = 1; k < kVersions; ++k) {
    deliver(versions[k]);
    poll_expecting(versions[k]);
  }
  for (int k = kVersions - 1; k >= 1; --k) {
    fs::remove_all(follow / versions[k].name);
    poll_expecting(versions[k - 1]);
  }
  stop = true;
  for (std::thread& reader : readers) reader.join();
  started->server->Shutdown();

  EXPECT_EQ(swaps, 2 * (kVersions - 1));
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mixed.load(), 0);
  EXPECT_GT(calls.load(), 2 * swaps);
  EXPECT_GE(totals_seen.size(), 3u);
  for (int64_t total : totals_seen) {
    EXPECT_EQ(total % kPapersPerVersion, 0) << total;
  }
  EXPECT_EQ(slot.Get()->DocumentCount().value_or(0), 5u);
}

}  // namespace
}  // namespace paperdb::testing
