#include "paperdb/index/verifier.h"

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/index/varint.h"
#include "paperdb/storage/keys.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::index {
namespace {

using ::paperdb::testing::IsOk;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class VerifierTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    std::vector<v1::Paper> papers;
    for (int i = 0; i < 3; ++i) {
      v1::Paper& p = papers.emplace_back();
      p.set_id("p" + std::to_string(i));
      p.set_abstract("shared words and word" + std::to_string(i));
      p.add_sources()->set_file_name("t.txt");
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }
};

TEST_F(VerifierTest, ConsistentStorePasses) {
  absl::StatusOr<VerifyReport> report = VerifyStore(*store_);

  ASSERT_THAT(report, IsOk());
  EXPECT_THAT(report->problems, IsEmpty());
  EXPECT_EQ(report->papers, 3u);
  // shared, and, word, word<i> and its parts "word" (again) and "<i>"
  // ("shared" and "words" are inflections of their stems: no surface-form
  // terms, text/word_forms.h).
  EXPECT_EQ(report->postings, 3u * 5u);
}

TEST_F(VerifierTest, WrongDocumentFrequencyIsReported) {
  storage::WriteBatch batch(*store_);
  std::string df;
  PutVarint32(7, &df);
  batch.Put(storage::Column::kTerms, "share", df);
  ASSERT_THAT(store_->Write(batch), IsOk());

  absl::StatusOr<VerifyReport> report = VerifyStore(*store_);

  ASSERT_THAT(report, IsOk());
  ASSERT_EQ(report->problem_count, 1u);
  EXPECT_THAT(report->problems[0],
              HasSubstr("term 'share' has frequency 7 but 3"));
}

TEST_F(VerifierTest, MissingRecordAndCorruptBlockAreReported) {
  storage::WriteBatch batch(*store_);
  batch.Delete(storage::Column::kPapers, storage::PaperKey(1));
  batch.Put(storage::Column::kPostings, storage::PostingKey("zzz", 0),
            "garbage");
  ASSERT_THAT(store_->Write(batch), IsOk());

  absl::StatusOr<VerifyReport> report = VerifyStore(*store_);

  ASSERT_THAT(report, IsOk());
  EXPECT_GE(report->problem_count, 3u);
  EXPECT_THAT(
      ::testing::PrintToString(report->problems),
      ::testing::AllOf(HasSubstr("lists doc 1, which has no record"),
                       HasSubstr("term 'zzz' block at doc 0"),
                       HasSubstr("statistics count 3 papers, records 2")));
}

// A next-word mask that is not the abstract's (next_words.h) would make
// phrases miss papers: the posting no longer matches the abstract.
TEST_F(VerifierTest, WrongNextWordMaskIsReported) {
  std::unique_ptr<storage::StoreIterator> it =
      store_->NewIterator(storage::Column::kPostings);
  const std::string prefix = storage::PostingPrefix("share");
  it->Seek(prefix);
  ASSERT_TRUE(it->Valid());
  ASSERT_TRUE(absl::StartsWith(it->key(), prefix));
  const std::string key(it->key());
  std::string value(it->value());
  it.reset();
  // Five one-byte header varints, then the first posting's mask.
  value[5] = static_cast<char>(value[5] ^ 0x01);
  storage::WriteBatch batch(*store_);
  batch.Put(storage::Column::kPostings, key, value);
  ASSERT_THAT(store_->Write(batch), IsOk());

  absl::StatusOr<VerifyReport> report = VerifyStore(*store_);

  ASSERT_THAT(report, IsOk());
  ASSERT_EQ(report->problem_count, 1u);
  EXPECT_THAT(report->problems[0],
              HasSubstr("postings do not match its abstract analyzed again"));
}

}  // namespace
}  // namespace paperdb::index
