// The checkpoint marker and publish directory (checkpoint.h) on their own:
// what makes a checkpoint complete, and what pruning removes. The services'
// use of them is tested in tests/e2e/checkpoint_e2e_test.cc.

#include "paperdb/storage/checkpoint.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace paperdb::storage {
namespace {

namespace fs = std::filesystem;
using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;
using ::testing::HasSubstr;

class CheckpointMarkerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           (std::string("paperdb_checkpoint_") +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static void Write(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
  }

  // A checkpoint directory `name` with one data file of 5 bytes and the
  // marker `marker`.
  fs::path Make(const std::string& name, const std::string& marker) {
    const fs::path path = dir_ / name;
    fs::create_directories(path);
    Write(path / "000001.sst", "12345");
    Write(path / kCheckpointMarker, marker);
    return path;
  }

  fs::path dir_;
};

constexpr char kGood[] =
    "paperdb checkpoint 1\nsequence 42\npapers 7\nfile 000001.sst 5\n";

TEST_F(CheckpointMarkerTest, NameHoldsTwentyDigits) {
  EXPECT_EQ(CheckpointName(42), "ckpt-00000000000000000042");
  EXPECT_LT(CheckpointName(99), CheckpointName(100));
}

TEST_F(CheckpointMarkerTest, CompleteMarkerIsRead) {
  const fs::path path = Make("ckpt-1", kGood);
  auto info = ReadCompleteCheckpoint(path.string());
  ASSERT_THAT(info.status(), IsOk());
  EXPECT_EQ(info->name, "ckpt-1");
  EXPECT_EQ(info->path, path.string());
  EXPECT_EQ(info->sequence, 42u);
  EXPECT_EQ(info->papers, 7u);
}

TEST_F(CheckpointMarkerTest, IncompleteOrForeignMarkersAreRefused) {
  const struct {
    const char* marker;
    const char* message;
  } cases[] = {
      {"sequence 42\npapers 7\nfile 000001.sst 5\n", "marker is incomplete"},
      {"paperdb checkpoint 1\npapers 7\nfile 000001.sst 5\n",
       "marker is incomplete"},
      {"paperdb checkpoint 1\nsequence 42\npapers 7\n", "marker is incomplete"},
      {"paperdb checkpoint 1\nsequence 42\npapers 7\nfile ../x.sst 5\n",
       "unexpected line"},
      {"paperdb checkpoint 1\nsequence x\npapers 7\nfile 000001.sst 5\n",
       "unexpected line"},
      {"paperdb checkpoint 1\nsequence 42\npapers 7\nfile 000001.sst 6\n",
       "000001.sst has 5 bytes, not 6"},
      {"paperdb checkpoint 1\nsequence 42\npapers 7\nfile 000002.sst 5\n",
       "000002.sst is missing"},
  };
  int i = 0;
  for (const auto& c : cases) {
    const fs::path path = Make("ckpt-" + std::to_string(i++), c.marker);
    EXPECT_THAT(
        ReadCompleteCheckpoint(path.string()).status(),
        StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr(c.message)))
        << c.marker;
  }
  fs::create_directories(dir_ / "no-marker");
  EXPECT_THAT(ReadCompleteCheckpoint((dir_ / "no-marker").string()).status(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("no COMPLETE")));
}

TEST_F(CheckpointMarkerTest, ListingSkipsIncompleteAndHiddenDirectories) {
  Make(CheckpointName(3), kGood);
  Make(CheckpointName(1), kGood);
  Make(".tmp-ckpt-1-0", kGood);
  Make(CheckpointName(9), "not a marker");
  auto listed = ListCompleteCheckpoints(dir_.string());
  ASSERT_THAT(listed.status(), IsOk());
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].name, CheckpointName(1));
  EXPECT_EQ((*listed)[1].name, CheckpointName(3));
  auto none = ListCompleteCheckpoints((dir_ / "absent").string());
  ASSERT_THAT(none.status(), IsOk());
  EXPECT_TRUE(none->empty());
}

TEST_F(CheckpointMarkerTest, PruningKeepsTheNewestAndRecentTemporaries) {
  for (int sequence : {1, 2, 3, 4}) Make(CheckpointName(sequence), kGood);
  Make(CheckpointName(0), "incomplete and older");
  Make(CheckpointName(5), "incomplete and newer: a copy under way");
  const fs::path fresh_temp = Make(".tmp-ckpt-1-1", kGood);
  const fs::path stale_temp = Make(".tmp-ckpt-1-2", kGood);
  fs::last_write_time(stale_temp,
                      fs::file_time_type::clock::now() - std::chrono::hours(2));
  ASSERT_THAT(PruneCheckpoints(dir_.string(), 2), IsOk());
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    left.push_back(entry.path().filename().string());
  }
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left,
            (std::vector<std::string>{".tmp-ckpt-1-1", CheckpointName(3),
                                      CheckpointName(4), CheckpointName(5)}));
  EXPECT_THAT(PruneCheckpoints(dir_.string(), 0),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST_F(CheckpointMarkerTest, EmptyStorePublishesACheckpointOfNoPapers) {
  auto store = Store::OpenPrimary((dir_ / "db").string());
  ASSERT_THAT(store.status(), IsOk());
  auto info = PublishCheckpoint(**store, (dir_ / "published").string());
  ASSERT_THAT(info.status(), IsOk());
  EXPECT_EQ(info->papers, 0u);
  EXPECT_EQ(info->sequence, (*store)->LatestSequenceNumber());
  EXPECT_GT(info->sequence, 0u);  // The schema version was written.
  auto read = ReadCompleteCheckpoint(info->path);
  ASSERT_THAT(read.status(), IsOk());
  EXPECT_EQ(read->sequence, info->sequence);
}

// A store made afresh has lower sequence numbers than the store it
// replaces: publishing it beside that store's checkpoints is refused, and
// nothing is added or removed.
TEST_F(CheckpointMarkerTest, ACheckpointOfAnotherNewerStoreIsNotPublishedOver) {
  const fs::path newer = Make(CheckpointName(1000000), "");
  Write(newer / kCheckpointMarker,
        "paperdb checkpoint 1\nsequence 1000000\npapers 7\n"
        "file 000001.sst 5\n");
  ASSERT_THAT(ReadCompleteCheckpoint(newer.string()).status(), IsOk());
  auto store = Store::OpenPrimary((dir_ / "db").string());
  ASSERT_THAT(store.status(), IsOk());

  auto info = PublishCheckpoint(**store, dir_.string());

  EXPECT_THAT(info.status(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("published from another store")));
  auto listed = ListCompleteCheckpoints(dir_.string());
  ASSERT_THAT(listed.status(), IsOk());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].name, CheckpointName(1000000));
}

// Two stores made afresh from the same files reach the same sequence
// number: the second one's checkpoint is not taken for the first one's,
// and its store identity, kept in the checkpoint, tells them apart.
TEST_F(CheckpointMarkerTest, ACheckpointOfAnotherStoreAsNewIsNotTakenForOurs) {
  auto first = Store::OpenPrimary((dir_ / "first").string());
  ASSERT_THAT(first.status(), IsOk());
  auto second = Store::OpenPrimary((dir_ / "second").string());
  ASSERT_THAT(second.status(), IsOk());
  ASSERT_EQ((*first)->LatestSequenceNumber(),
            (*second)->LatestSequenceNumber());
  const std::string published = (dir_ / "published").string();
  auto info = PublishCheckpoint(**first, published);
  ASSERT_THAT(info.status(), IsOk());
  std::ifstream identity(dir_ / "first" / "IDENTITY");
  std::string first_identity;
  std::getline(identity, first_identity);
  ASSERT_EQ(first_identity.size(), 36u);  // A UUID.
  EXPECT_EQ(info->store_identity, first_identity);
  EXPECT_EQ(ReadCompleteCheckpoint(info->path)->store_identity, first_identity);

  EXPECT_THAT(PublishCheckpoint(**second, published).status(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("as new as this store")));
  // The first store publishing again finds its own checkpoint.
  auto again = PublishCheckpoint(**first, published);
  ASSERT_THAT(again.status(), IsOk());
  EXPECT_EQ(again->name, info->name);
  auto listed = ListCompleteCheckpoints(published);
  ASSERT_THAT(listed.status(), IsOk());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].store_identity, first_identity);
}

// A checkpoint without a STORE file (from an older paperdb) names no
// store: one of the same sequence number is taken as already published.
TEST_F(CheckpointMarkerTest, ACheckpointWithoutAStoreFileNamesNoStore) {
  const fs::path path = Make(CheckpointName(42), kGood);
  auto read = ReadCompleteCheckpoint(path.string());
  ASSERT_THAT(read.status(), IsOk());
  EXPECT_EQ(read->store_identity, "");
}

}  // namespace
}  // namespace paperdb::storage
