// Test fixture with a real, empty paperdb store in a fresh temporary
// directory and its IndexWriter: dir_/db holds the store; the rest of dir_
// is free for the test's own files. Everything is removed in TearDown().

#ifndef PAPERDB_TESTS_TESTING_STORE_FIXTURE_H_
#define PAPERDB_TESTS_TESTING_STORE_FIXTURE_H_

#include <filesystem>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "paperdb/index/index_writer.h"
#include "paperdb/storage/store.h"

namespace paperdb::testing {

// A paper with id `id` (name "papers/<id>"), `abstract`, and one source,
// file `file`, as the parser would give it to the writer.
v1::Paper MakePaper(const std::string& id, const std::string& abstract,
                    const std::string& file = "a.txt");

class StoreFixture : public ::testing::Test {
 protected:
  // dir_ is TempDir()/paperdb_<suite>_<test>, emptied first.
  void SetUp() override;
  void TearDown() override;

  std::filesystem::path dir_;
  std::unique_ptr<storage::Store> store_;  // Primary, at dir_/db.
  std::unique_ptr<index::IndexWriter> writer_;
};

}  // namespace paperdb::testing

#endif  // PAPERDB_TESTS_TESTING_STORE_FIXTURE_H_
