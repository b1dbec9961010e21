#include "paperdb/storage/store.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "paperdb/common/status_macros.h"
#include "rocksdb/db.h"
#include "tests/testing/status_matchers.h"

namespace paperdb::storage {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;
using ::testing::HasSubstr;

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           (std::string("paperdb_store_") +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string db() const { return (dir_ / "db").string(); }
  std::string secondary() const { return (dir_ / "secondary").string(); }

  std::filesystem::path dir_;
};

TEST_F(StoreTest, WritesAreReadBack) {
  auto store = Store::OpenPrimary(db());
  ASSERT_THAT(store, IsOk());
  WriteBatch batch(**store);
  batch.Put(Column::kPapers, PaperKey(7), "record");

  ASSERT_THAT((*store)->Write(batch), IsOk());

  auto value = (*store)->Get(Column::kPapers, PaperKey(7));
  ASSERT_THAT(value, IsOk());
  EXPECT_EQ(*value, "record");
  EXPECT_THAT((*store)->Get(Column::kPapers, PaperKey(8)),
              StatusIs(absl::StatusCode::kNotFound));
}

TEST_F(StoreTest, ValuePartsAreStoredJoinedAndDeletesApply) {
  auto store = Store::OpenPrimary(db());
  ASSERT_THAT(store, IsOk());
  WriteBatch first(**store);
  first.Put(Column::kPostings, "term", {"head", "", "-positions"});
  first.Put(Column::kTerms, "gone", "1");
  ASSERT_THAT((*store)->Write(first), IsOk());
  WriteBatch second(**store);
  second.Delete(Column::kTerms, "gone");
  EXPECT_GT(second.ByteSize(), 0u);
  ASSERT_THAT((*store)->Write(second), IsOk());

  auto value = (*store)->Get(Column::kPostings, "term");
  ASSERT_THAT(value, IsOk());
  EXPECT_EQ(*value, "head-positions");
  EXPECT_THAT((*store)->Get(Column::kTerms, "gone"),
              StatusIs(absl::StatusCode::kNotFound));
}

TEST_F(StoreTest, BatchMadeForAnotherStoreIsRefused) {
  auto store = Store::OpenPrimary(db());
  ASSERT_THAT(store, IsOk());
  auto other = Store::OpenPrimary((dir_ / "other").string());
  ASSERT_THAT(other, IsOk());
  WriteBatch batch(**other);
  batch.Put(Column::kPapers, PaperKey(1), "record");

  EXPECT_THAT(
      (*store)->Write(batch),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("another store")));
  EXPECT_THAT((*store)->Get(Column::kPapers, PaperKey(1)),
              StatusIs(absl::StatusCode::kNotFound));
}

TEST_F(StoreTest, BulkLoadKeepsPostingsInLevel0UntilItEndsCompacted) {
  auto store = Store::OpenPrimary(db());
  ASSERT_THAT(store, IsOk());
  ASSERT_THAT((*store)->BeginBulkLoad(), IsOk());
  // Six flushes: more level-0 files than the 4 that start a compaction.
  for (int i = 0; i < 6; ++i) {
    WriteBatch batch(**store);
    batch.Put(Column::kPostings, absl::StrCat("term", i), absl::StrCat(i));
    batch.Put(Column::kPostings, "shared", absl::StrCat(i));
    ASSERT_THAT((*store)->Write(batch), IsOk());
    ASSERT_THAT((*store)->Flush(), IsOk());
  }
  EXPECT_EQ((*store)->Level0Files(Column::kPostings), 6u);

  ASSERT_THAT((*store)->EndBulkLoad(), IsOk());

  EXPECT_EQ((*store)->Level0Files(Column::kPostings), 0u);
  for (int i = 0; i < 6; ++i) {
    auto value = (*store)->Get(Column::kPostings, absl::StrCat("term", i));
    ASSERT_THAT(value, IsOk());
    EXPECT_EQ(*value, absl::StrCat(i));
  }
  auto shared = (*store)->Get(Column::kPostings, "shared");
  ASSERT_THAT(shared, IsOk());
  EXPECT_EQ(*shared, "5");
}

TEST_F(StoreTest, CancelledBulkLoadKeepsEveryWrite) {
  auto store = Store::OpenPrimary(db());
  ASSERT_THAT(store, IsOk());
  ASSERT_THAT((*store)->BeginBulkLoad(), IsOk());
  for (int i = 0; i < 5; ++i) {
    WriteBatch batch(**store);
    batch.Put(Column::kPostings, absl::StrCat("term", i), absl::StrCat(i));
    ASSERT_THAT((*store)->Write(batch), IsOk());
    ASSERT_THAT((*store)->Flush(), IsOk());
  }
  std::atomic<bool> cancel{true};

  EXPECT_THAT((*store)->EndBulkLoad(&cancel),
              StatusIs(absl::StatusCode::kCancelled,
                       HasSubstr("next writer compacts")));

  for (int i = 0; i < 5; ++i) {
    auto value = (*store)->Get(Column::kPostings, absl::StrCat("term", i));
    ASSERT_THAT(value, IsOk());
    EXPECT_EQ(*value, absl::StrCat(i));
  }
}

TEST_F(StoreTest, MultiGetVisitsValuesInKeyOrderAndNamesAnAbsentKey) {
  auto store = Store::OpenPrimary(db());
  ASSERT_THAT(store, IsOk());
  WriteBatch batch(**store);
  batch.Put(Column::kPapers, PaperKey(3), "three");
  batch.Put(Column::kPapers, PaperKey(9), "nine");
  ASSERT_THAT((*store)->Write(batch), IsOk());

  std::vector<std::string> seen;
  ASSERT_THAT((*store)->MultiGet(Column::kPapers, {PaperKey(9), PaperKey(3)},
                                 [&](size_t i, absl::string_view value) {
                                   seen.push_back(absl::StrCat(i, value));
                                   return absl::OkStatus();
                                 }),
              IsOk());
  EXPECT_EQ(seen, (std::vector<std::string>{"0nine", "1three"}));

  EXPECT_THAT((*store)->MultiGet(
                  Column::kPapers, {PaperKey(3), PaperKey(4)},
                  [](size_t, absl::string_view) { return absl::OkStatus(); }),
              StatusIs(absl::StatusCode::kNotFound));
  // An error from the visitor stops the walk and is returned.
  EXPECT_THAT((*store)->MultiGet(Column::kPapers, {PaperKey(3)},
                                 [](size_t, absl::string_view) {
                                   return absl::DataLossError("bad");
                                 }),
              StatusIs(absl::StatusCode::kDataLoss));
}

// Every column family compresses its settled data with ZSTD, the rest with
// LZ4: RocksDB writes the options it opened with to OPTIONS-N.
TEST_F(StoreTest, SettledDataIsZstdCompressed) {
  ASSERT_THAT(Store::OpenPrimary(db()), IsOk());
  std::string options;
  for (const auto& entry : std::filesystem::directory_iterator(db())) {
    if (entry.path().filename().string().rfind("OPTIONS-", 0) != 0) continue;
    std::ifstream in(entry.path());
    options.assign(std::istreambuf_iterator<char>(in), {});
  }
  int zstd = 0, lz4 = 0;
  for (size_t at = 0; (at = options.find("bottommost_compression=kZSTD", at)) !=
                      std::string::npos;
       ++at) {
    ++zstd;
  }
  for (size_t at = 0; (at = options.find("\n  compression=kLZ4Compression",
                                         at)) != std::string::npos;
       ++at) {
    ++lz4;
  }
  // Ours and RocksDB's "default", which paperdb never writes.
  EXPECT_EQ(zstd, kColumnCount + 1);
  EXPECT_EQ(lz4, kColumnCount + 1);
}

TEST_F(StoreTest, NewStoreRecordsSchemaVersion) {
  auto store = Store::OpenPrimary(db());
  ASSERT_THAT(store, IsOk());

  auto version = (*store)->Get(Column::kMeta, kSchemaVersionKey);

  ASSERT_THAT(version, IsOk());
  EXPECT_EQ(*version, "14");
}

TEST_F(StoreTest, RejectsOtherSchemaVersion) {
  {
    auto store = Store::OpenPrimary(db());
    ASSERT_THAT(store, IsOk());
    WriteBatch batch(**store);
    batch.Put(Column::kMeta, kSchemaVersionKey, "99");
    ASSERT_THAT((*store)->Write(batch), IsOk());
  }

  EXPECT_THAT(Store::OpenPrimary(db()),
              StatusIs(absl::StatusCode::kFailedPrecondition));
}

TEST_F(StoreTest, RefusesAForeignRocksDbDatabase) {
  {
    // A plain RocksDB database, as another program would leave it.
    std::filesystem::create_directories(db());
    rocksdb::Options options;
    options.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(options, db(), &raw).ok());
    std::unique_ptr<rocksdb::DB> foreign(raw);
    ASSERT_TRUE(foreign->Put(rocksdb::WriteOptions(), "k", "v").ok());
  }

  EXPECT_THAT(Store::OpenPrimary(db()),
              StatusIs(absl::StatusCode::kFailedPrecondition));
  // Refusing it changed nothing: its owner opens it as before.
  std::vector<std::string> families;
  ASSERT_TRUE(
      rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), db(), &families)
          .ok());
  EXPECT_THAT(families, ::testing::ElementsAre("default"));
}

TEST_F(StoreTest, RefusesADirectoryOfFilesNamedLikeRocksDbs) {
  std::filesystem::create_directories(db());
  std::ofstream(std::filesystem::path(db()) / "access.log") << "mine";
  std::ofstream(std::filesystem::path(db()) / "LOGBOOK") << "mine";

  EXPECT_THAT(Store::OpenPrimary(db()),
              StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_FALSE(
      std::filesystem::exists(std::filesystem::path(db()) / "CURRENT"));
}

TEST_F(StoreTest, CreationInterruptedAfterSomeColumnFamiliesIsFinished) {
  {
    // What a creation killed after the first column family leaves.
    std::filesystem::create_directories(db());
    rocksdb::Options options;
    options.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(options, db(), &raw).ok());
    std::unique_ptr<rocksdb::DB> partial(raw);
    rocksdb::ColumnFamilyHandle* meta = nullptr;
    ASSERT_TRUE(
        partial
            ->CreateColumnFamily(rocksdb::ColumnFamilyOptions(), "meta", &meta)
            .ok());
    ASSERT_TRUE(partial->DestroyColumnFamilyHandle(meta).ok());
  }
  const std::string secondary = db() + "-secondary";

  EXPECT_THAT(Store::OpenSecondary(db(), secondary),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("is incomplete (no \"papers\" column "
                                 "family): its creation was interrupted")));
  ASSERT_THAT(Store::OpenPrimary(db()), IsOk());
  EXPECT_THAT(Store::OpenSecondary(db(), secondary), IsOk());
}

TEST_F(StoreTest, CreationInterruptedBeforeCurrentIsFinished) {
  std::filesystem::create_directories(db());
  std::ofstream(std::filesystem::path(db()) / "LOCK");
  std::ofstream(std::filesystem::path(db()) / "LOG") << "rocksdb log";

  EXPECT_THAT(Store::OpenPrimary(db()), IsOk());
}

TEST_F(StoreTest, RefusesADirectoryWithOtherFiles) {
  std::filesystem::create_directories(db());
  std::ofstream(std::filesystem::path(db()) / "notes.txt") << "mine";

  EXPECT_THAT(Store::OpenPrimary(db()),
              StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_TRUE(
      std::filesystem::exists(std::filesystem::path(db()) / "notes.txt"));
  EXPECT_FALSE(
      std::filesystem::exists(std::filesystem::path(db()) / "CURRENT"));
}

TEST_F(StoreTest, SecondWriterIsUnavailable) {
  auto first = Store::OpenPrimary(db());
  ASSERT_THAT(first, IsOk());

  EXPECT_THAT(Store::OpenPrimary(db()),
              StatusIs(absl::StatusCode::kUnavailable));
}

TEST_F(StoreTest, SecondaryOfMissingStoreIsNotFound) {
  EXPECT_THAT(Store::OpenSecondary(db(), secondary()),
              StatusIs(absl::StatusCode::kNotFound));
}

TEST_F(StoreTest, SecondarySeesWritesAfterCatchUp) {
  auto primary = Store::OpenPrimary(db());
  ASSERT_THAT(primary, IsOk());
  auto reader = Store::OpenSecondary(db(), secondary());
  ASSERT_THAT(reader, IsOk());
  WriteBatch batch(**primary);
  batch.Put(Column::kTerms, "delay", "1");
  ASSERT_THAT((*primary)->Write(batch), IsOk());
  EXPECT_THAT((*reader)->Get(Column::kTerms, "delay"),
              StatusIs(absl::StatusCode::kNotFound));

  ASSERT_THAT((*reader)->CatchUp(), IsOk());

  auto value = (*reader)->Get(Column::kTerms, "delay");
  ASSERT_THAT(value, IsOk());
  EXPECT_EQ(*value, "1");
  EXPECT_THAT((*reader)->Write(batch),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST_F(StoreTest, SecondaryTellsWhetherTheWriterChangedAnything) {
  auto primary = Store::OpenPrimary(db());
  ASSERT_THAT(primary, IsOk());
  auto reader = Store::OpenSecondary(db(), secondary());
  ASSERT_THAT(reader, IsOk());
  // Opening read everything the writer had written.
  EXPECT_FALSE((*reader)->WriterChangedSinceCatchUp());

  WriteBatch batch(**primary);
  batch.Put(Column::kTerms, "delay", "1");
  ASSERT_THAT((*primary)->Write(batch), IsOk());
  const bool after_write = (*reader)->WriterChangedSinceCatchUp();
  ASSERT_THAT((*reader)->CatchUp(), IsOk());
  const bool after_catch_up = (*reader)->WriterChangedSinceCatchUp();
  ASSERT_THAT((*primary)->Flush(), IsOk());
  const bool after_flush = (*reader)->WriterChangedSinceCatchUp();
  ASSERT_THAT((*reader)->CatchUp(), IsOk());

  EXPECT_TRUE(after_write);
  EXPECT_FALSE(after_catch_up);
  EXPECT_TRUE(after_flush);
  EXPECT_FALSE((*reader)->WriterChangedSinceCatchUp());
  EXPECT_FALSE((*primary)->WriterChangedSinceCatchUp());  // Not a secondary.
  auto value = (*reader)->Get(Column::kTerms, "delay");
  ASSERT_THAT(value, IsOk());
  EXPECT_EQ(*value, "1");
}

TEST_F(StoreTest, FlushedWritesAreReadBySecondary) {
  auto primary = Store::OpenPrimary(db());
  ASSERT_THAT(primary, IsOk());
  WriteBatch batch(**primary);
  batch.Put(Column::kPapers, PaperKey(1), "flushed");
  ASSERT_THAT((*primary)->Write(batch), IsOk());

  ASSERT_THAT((*primary)->Flush(), IsOk());

  auto reader = Store::OpenSecondary(db(), secondary());
  ASSERT_THAT(reader, IsOk());
  auto value = (*reader)->Get(Column::kPapers, PaperKey(1));
  ASSERT_THAT(value, IsOk());
  EXPECT_EQ(*value, "flushed");
}

// RocksDB 7.8 alone fails this: the secondary keeps the value it replayed
// from the old write-ahead log over the flushed newer one
// (facebook/rocksdb#14444).
TEST_F(StoreTest, SecondarySeesValuesFlushedAfterItsCatchUp) {
  auto primary = Store::OpenPrimary(db());
  ASSERT_THAT(primary, IsOk());
  auto reader = Store::OpenSecondary(db(), secondary());
  ASSERT_THAT(reader, IsOk());
  WriteBatch v1(**primary);
  v1.Put(Column::kTerms, "delay", "1");
  ASSERT_THAT((*primary)->Write(v1), IsOk());
  ASSERT_THAT((*reader)->CatchUp(), IsOk());
  ASSERT_EQ(*(*reader)->Get(Column::kTerms, "delay"), "1");
  const uint64_t before = (*reader)->instance_id();

  WriteBatch v2(**primary);
  v2.Put(Column::kTerms, "delay", "2");
  ASSERT_THAT((*primary)->Write(v2), IsOk());
  ASSERT_THAT((*primary)->Flush(), IsOk());
  ASSERT_THAT((*reader)->CatchUp(), IsOk());

  auto value = (*reader)->Get(Column::kTerms, "delay");
  ASSERT_THAT(value, IsOk());
  EXPECT_EQ(*value, "2");
  EXPECT_NE((*reader)->instance_id(), before);  // Reopened: caches restart.
}

TEST_F(StoreTest, PreparedSecondaryServesOnlyFromTheNextCatchUp) {
  auto primary = Store::OpenPrimary(db());
  ASSERT_THAT(primary, IsOk());
  auto reader = Store::OpenSecondary(db(), secondary());
  ASSERT_THAT(reader, IsOk());
  auto put = [&](const std::string& value) {
    WriteBatch batch(**primary);
    batch.Put(Column::kTerms, "delay", value);
    return (*primary)->Write(batch);
  };
  ASSERT_THAT(put("1"), IsOk());
  ASSERT_THAT((*reader)->CatchUp(), IsOk());
  ASSERT_THAT(put("2"), IsOk());
  ASSERT_THAT((*primary)->Flush(), IsOk());

  ASSERT_THAT((*reader)->PrepareCatchUp(), IsOk());
  EXPECT_EQ(*(*reader)->Get(Column::kTerms, "delay"), "1");  // Not yet.
  ASSERT_THAT(put("3"), IsOk());  // Logged after the new instance opened.
  ASSERT_THAT((*reader)->CatchUp(), IsOk());
  EXPECT_EQ(*(*reader)->Get(Column::kTerms, "delay"), "3");

  // Prepared, then the writer flushes again: the prepared instance is
  // already behind, and CatchUp() opens another.
  ASSERT_THAT(put("4"), IsOk());
  ASSERT_THAT((*primary)->Flush(), IsOk());
  ASSERT_THAT((*reader)->PrepareCatchUp(), IsOk());
  ASSERT_THAT(put("5"), IsOk());
  ASSERT_THAT((*primary)->Flush(), IsOk());
  ASSERT_THAT((*reader)->CatchUp(), IsOk());
  EXPECT_EQ(*(*reader)->Get(Column::kTerms, "delay"), "5");
}

TEST_F(StoreTest, SecondaryFollowsTheWriterAcrossReopens) {
  auto reader_or = [&]() -> absl::StatusOr<std::unique_ptr<Store>> {
    { PAPERDB_ASSIGN_OR_RETURN(auto p, Store::OpenPrimary(db())); }
    return Store::OpenSecondary(db(), secondary());
  }();
  ASSERT_THAT(reader_or, IsOk());
  Store& reader = **reader_or;
  for (int round = 1; round <= 3; ++round) {
    // A one-shot writer: open, write, flush on close, as ingest_service does.
    {
      auto primary = Store::OpenPrimary(db());
      ASSERT_THAT(primary, IsOk());
      WriteBatch batch(**primary);
      batch.Put(Column::kTerms, "delay", std::to_string(round));
      batch.Put(Column::kTerms, "round" + std::to_string(round), "x");
      ASSERT_THAT((*primary)->Write(batch), IsOk());
      ASSERT_THAT((*primary)->Flush(), IsOk());
    }
    ASSERT_THAT(reader.CatchUp(), IsOk());
    auto value = reader.Get(Column::kTerms, "delay");
    ASSERT_THAT(value, IsOk());
    EXPECT_EQ(*value, std::to_string(round));
    EXPECT_THAT(reader.Get(Column::kTerms, "round" + std::to_string(round)),
                IsOk());
  }
}

TEST_F(StoreTest, SecondaryNoticesTheStoreWasReplaced) {
  { ASSERT_THAT(Store::OpenPrimary(db()), IsOk()); }
  auto reader = Store::OpenSecondary(db(), secondary());
  ASSERT_THAT(reader, IsOk());
  ASSERT_THAT((*reader)->CatchUp(), IsOk());

  EXPECT_FALSE((*reader)->replaced());
  std::filesystem::remove_all(db());
  { ASSERT_THAT(Store::OpenPrimary(db()), IsOk()); }

  EXPECT_THAT((*reader)->CatchUp(),
              StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_TRUE((*reader)->replaced());
}

TEST_F(StoreTest, IteratorVisitsKeysInOrder) {
  auto store = Store::OpenPrimary(db());
  ASSERT_THAT(store, IsOk());
  WriteBatch batch(**store);
  batch.Put(Column::kPapers, PaperKey(256), "b");
  batch.Put(Column::kPapers, PaperKey(2), "a");
  ASSERT_THAT((*store)->Write(batch), IsOk());

  auto it = (*store)->NewIterator(Column::kPapers);
  it->Seek(PaperKey(0));

  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->value(), "a");
  it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->value(), "b");
  it->Next();
  EXPECT_FALSE(it->Valid());
  EXPECT_THAT(it->status(), IsOk());
}

TEST_F(StoreTest, EveryBatchStampsEveryFamilyOutOfSightOfScans) {
  auto store = Store::OpenPrimary(db());
  ASSERT_THAT(store, IsOk());
  WriteBatch batch(**store);
  batch.Put(Column::kPapers, PaperKey(0xffffffff), "last");
  ASSERT_THAT((*store)->Write(batch), IsOk());

  auto stamp = (*store)->Get(Column::kMeta, kBatchStampKey);
  ASSERT_THAT(stamp, IsOk());
  EXPECT_EQ(stamp->size(), 8u);
  for (int i = 0; i < kColumnCount; ++i) {
    auto other = (*store)->Get(static_cast<Column>(i), kBatchStampKey);
    ASSERT_THAT(other, IsOk());
    EXPECT_EQ(*other, *stamp) << ColumnName(static_cast<Column>(i));
  }
  WriteBatch next(**store);
  ASSERT_THAT((*store)->Write(next), IsOk());
  EXPECT_NE(*(*store)->Get(Column::kPapers, kBatchStampKey), *stamp);
  // Scans end at the last real key, forwards and backwards.
  auto it = (*store)->NewIterator(Column::kPapers);
  it->Seek(PaperKey(0xffffffff));
  ASSERT_TRUE(it->Valid());
  it->Next();
  EXPECT_FALSE(it->Valid());
  it->SeekForPrev(std::string(32, '\xff'));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), PaperKey(0xffffffff));
  auto terms = (*store)->NewIterator(Column::kTerms);
  terms->Seek("");
  EXPECT_FALSE(terms->Valid());
}

// Writes `stamp` under kBatchStampKey in the papers family alone, as no
// paperdb writer does: the families then show different writes.
void StampPapersAlone(const std::string& path, const std::string& stamp) {
  std::vector<std::string> names;
  ASSERT_TRUE(
      rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &names).ok());
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const std::string& name : names)
    families.emplace_back(name, rocksdb::ColumnFamilyOptions());
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(
      rocksdb::DB::Open(rocksdb::DBOptions(), path, families, &handles, &raw)
          .ok());
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == "papers") {
      ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), handles[i],
                           std::string(kBatchStampKey), stamp)
                      .ok());
    }
  }
  for (rocksdb::ColumnFamilyHandle* handle : handles) {
    ASSERT_TRUE(raw->DestroyColumnFamilyHandle(handle).ok());
  }
  delete raw;
}

TEST_F(StoreTest, SecondaryServesOnlyFamiliesAtTheSameWrite) {
  { ASSERT_THAT(Store::OpenPrimary(db()), IsOk()); }
  auto reader = Store::OpenSecondary(db(), secondary());
  ASSERT_THAT(reader, IsOk());
  StampPapersAlone(db(), "partial!");

  const absl::Status caught_up = (*reader)->CatchUp();
  EXPECT_THAT(caught_up, StatusIs(absl::StatusCode::kAborted));
  EXPECT_THAT(caught_up.message(),
              HasSubstr("column families show different writes"));
  EXPECT_THAT(caught_up.message(), HasSubstr("papers at 7061727469616c21"));
  EXPECT_THAT(Store::OpenSecondary(db(), secondary() + "2"),
              StatusIs(absl::StatusCode::kAborted));

  // The writer's next batch stamps every family again.
  {
    auto primary = Store::OpenPrimary(db());
    ASSERT_THAT(primary, IsOk());
    WriteBatch batch(**primary);
    batch.Put(Column::kTerms, "whole", "1");
    ASSERT_THAT((*primary)->Write(batch), IsOk());
  }
  ASSERT_THAT((*reader)->CatchUp(), IsOk());
  EXPECT_THAT((*reader)->Get(Column::kTerms, "whole"), IsOk());
  EXPECT_THAT(Store::OpenSecondary(db(), secondary() + "2"), IsOk());
}

}  // namespace
}  // namespace paperdb::storage
