#include "paperdb/index/index_writer.h"

#include <filesystem>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/index/common_grams.h"
#include "paperdb/index/posting_iterator.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::index {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::MakePaper;
using ::testing::ElementsAre;

class IndexWriterTest : public ::paperdb::testing::StoreFixture {};

TEST_F(IndexWriterTest, AddsPapersAndIndexesTheirTerms) {
  auto result =
      writer_->Commit({MakePaper("p1", "Spiking networks learn delays."),
                       MakePaper("p2", "Delays in delays.")});
  ASSERT_THAT(result, IsOk());
  EXPECT_EQ(result->added, 2);

  PostingIterator delay(*store_, "delay");

  ASSERT_EQ(delay.doc(), 0u);
  EXPECT_EQ(delay.tf(), 1u);
  EXPECT_EQ(delay.doc_length(), 4u);
  delay.Next();
  ASSERT_EQ(delay.doc(), 1u);
  EXPECT_EQ(delay.tf(), 2u);
  EXPECT_THAT(*delay.Positions(), ElementsAre(0, 2));
  delay.Next();
  EXPECT_EQ(delay.doc(), kNoMoreDocs);
  EXPECT_THAT(delay.status(), IsOk());
  EXPECT_EQ(writer_->stats().doc_count(), 2u);
  // 4 + 2: "in" is a stopword, indexed for phrases but not counted.
  EXPECT_EQ(writer_->stats().total_doc_length_terms(), 6u);
}

// Adjacent stopwords get a common gram at the first one's position; a
// compound between them (its parts are the words) does not break a pair,
// and a content word does.
TEST_F(IndexWriterTest, IndexesCommonGramsOfAdjacentStopwords) {
  ASSERT_THAT(writer_->Commit({MakePaper(
                  "p1", "State-of-the-art in the wild, and the rest of it.")}),
              IsOk());
  // state 0, of 1, the 2, art 3, in 4, the 5, wild 6, and 7, the 8, rest 9,
  // of 10, it 11.
  PostingIterator of_the(*store_, CommonGram("of", "the"));
  ASSERT_EQ(of_the.doc(), 0u);
  EXPECT_THAT(*of_the.Positions(), ElementsAre(1));
  PostingIterator in_the(*store_, CommonGram("in", "the"));
  ASSERT_EQ(in_the.doc(), 0u);
  EXPECT_THAT(*in_the.Positions(), ElementsAre(4));
  PostingIterator and_the(*store_, CommonGram("and", "the"));
  ASSERT_EQ(and_the.doc(), 0u);
  EXPECT_THAT(*and_the.Positions(), ElementsAre(7));
  EXPECT_EQ(and_the.doc_length(), 4u);  // Content words only, no grams.
  PostingIterator of_it(*store_, CommonGram("of", "it"));
  ASSERT_EQ(of_it.doc(), 0u);
  EXPECT_THAT(*of_it.Positions(), ElementsAre(10));
  // "the art", "the wild": not two stopwords; "the in": not adjacent.
  EXPECT_EQ(PostingIterator(*store_, CommonGram("the", "art")).doc(),
            kNoMoreDocs);
  EXPECT_EQ(PostingIterator(*store_, CommonGram("the", "in")).doc(),
            kNoMoreDocs);
  EXPECT_EQ(writer_->stats().total_doc_length_terms(), 4u);
}

// A hyphenated word whose joined form is a stopword ("no-t" is "not", at
// the position of "no") ends a phrase of stopwords as its positions do, so
// it gets the gram too.
TEST_F(IndexWriterTest, JoinedCompoundsThatAreStopwordsGetCommonGrams) {
  ASSERT_THAT(writer_->Commit({MakePaper("p1", "This claim is no-t trivial.")}),
              IsOk());
  // this 0, claim 1, is 2, no 3 (and "not"), t 4, trivial 5.
  PostingIterator is_not(*store_, CommonGram("is", "not"));
  ASSERT_EQ(is_not.doc(), 0u);
  EXPECT_THAT(*is_not.Positions(), ElementsAre(2));
  PostingIterator is_no(*store_, CommonGram("is", "no"));
  ASSERT_EQ(is_no.doc(), 0u);
  EXPECT_THAT(*is_no.Positions(), ElementsAre(2));
}

TEST_F(IndexWriterTest, SecondCommitOfSamePapersChangesNothing) {
  ASSERT_THAT(writer_->Commit({MakePaper("p1", "alpha beta")}), IsOk());

  auto again = writer_->Commit(
      {MakePaper("p1", "alpha beta"), MakePaper("p1", "alpha beta")});

  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(again->added, 0);
  EXPECT_EQ(again->unchanged, 1);
  EXPECT_EQ(again->skipped, 1);
  EXPECT_EQ(writer_->stats().doc_count(), 1u);
  auto df = store_->Get(storage::Column::kTerms, "alpha");
  ASSERT_THAT(df, IsOk());
  EXPECT_EQ(*df, std::string(1, '\x01'));
}

TEST_F(IndexWriterTest, SamePaperFromAnotherFileGainsASource) {
  ASSERT_THAT(writer_->Commit({MakePaper("p1", "alpha", "a.txt")}), IsOk());

  ASSERT_THAT(writer_->Commit({MakePaper("p1", "alpha", "b.txt")}), IsOk());

  storage::PaperTable table(store_.get());
  auto record = table.Get(0);
  ASSERT_THAT(record, IsOk());
  ASSERT_EQ(record->paper().sources_size(), 2);
  EXPECT_EQ(record->paper().sources(1).file_name(), "b.txt");
}

TEST_F(IndexWriterTest,
       SamePaperFromTwoFilesInOneCommitIsOnePaperWithTwoSources) {
  auto result = writer_->Commit({MakePaper("p1", "alpha", "a.txt"),
                                 MakePaper("p1", "alpha", "b.txt"),
                                 MakePaper("p1", "alpha", "b.txt")});

  ASSERT_THAT(result, IsOk());
  EXPECT_EQ(result->added, 1);
  EXPECT_EQ(result->unchanged, 1);
  EXPECT_EQ(result->skipped, 1);
  storage::PaperTable table(store_.get());
  auto record = table.Get(0);
  ASSERT_THAT(record, IsOk());
  ASSERT_EQ(record->paper().sources_size(), 2);
  EXPECT_EQ(record->paper().sources(1).file_name(), "b.txt");
  EXPECT_EQ(writer_->stats().doc_count(), 1u);
}

TEST_F(IndexWriterTest, AdvanceSkipsAcrossBlocksAndCommits) {
  // 300 papers in two commits: the term "common" spans blocks of both.
  std::vector<v1::Paper> first, second;
  for (int i = 0; i < 300; ++i) {
    (i < 150 ? first : second)
        .push_back(MakePaper("p" + std::to_string(i),
                             "common " + std::string(i % 3 == 0 ? "rare" : "x"),
                             i < 150 ? "first.txt" : "second.txt"));
  }
  ASSERT_THAT(writer_->Commit(first), IsOk());
  ASSERT_THAT(writer_->Commit(second), IsOk());

  PostingIterator common(*store_, "common");
  common.Advance(140);
  EXPECT_EQ(common.doc(), 140u);
  common.Advance(290);
  EXPECT_EQ(common.doc(), 290u);
  common.Advance(299);
  EXPECT_EQ(common.doc(), 299u);
  common.Next();
  EXPECT_EQ(common.doc(), kNoMoreDocs);

  PostingIterator rare(*store_, "rare");
  rare.Advance(151);
  EXPECT_EQ(rare.doc(), 153u);
}

}  // namespace
}  // namespace paperdb::index
