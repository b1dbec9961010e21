#include "tests/testing/store_fixture.h"

#include <string>

namespace paperdb::testing {

v1::Paper MakePaper(const std::string& id, const std::string& abstract,
                    const std::string& file) {
  v1::Paper paper;
  paper.set_id(id);
  paper.set_name("papers/" + id);
  paper.set_abstract(abstract);
  paper.add_sources()->set_file_name(file);
  return paper;
}

void StoreFixture::SetUp() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  dir_ =
      std::filesystem::path(::testing::TempDir()) /
      (std::string("paperdb_") + info->test_suite_name() + "_" + info->name());
  std::filesystem::remove_all(dir_);
  auto store = storage::Store::OpenPrimary((dir_ / "db").string());
  ASSERT_TRUE(store.ok()) << store.status();
  store_ = *std::move(store);
  auto writer = index::IndexWriter::Create(store_.get());
  ASSERT_TRUE(writer.ok()) << writer.status();
  writer_ = *std::move(writer);
}

void StoreFixture::TearDown() {
  writer_.reset();
  store_.reset();
  std::filesystem::remove_all(dir_);
}

}  // namespace paperdb::testing
