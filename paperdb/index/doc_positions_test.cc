#include "paperdb/index/doc_positions.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::index {
namespace {

using ::paperdb::testing::IsOk;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

class DocPositionsTest : public ::paperdb::testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    // 300 papers: "delay" in all (three blocks), "spike" in the even ones.
    std::vector<v1::Paper> papers;
    for (int i = 0; i < 300; ++i) {
      v1::Paper paper;
      paper.set_id("p" + std::to_string(i));
      paper.set_abstract(i % 2 ? "delays delays" : "spikes then delays");
      paper.add_sources()->set_file_name("a.txt");
      papers.push_back(paper);
    }
    ASSERT_THAT(writer_->Commit(papers), IsOk());
  }
};

TEST_F(DocPositionsTest, SameFromTheCachedListAndFromOneBlockRead) {
  PostingCache empty(0);  // Holds nothing: reads the one block.
  PostingCache full(1 << 20);
  ASSERT_THAT(full.Get(*store_, "delay"), IsOk());
  ASSERT_THAT(full.Get(*store_, "spike"), IsOk());

  for (PostingCache* cache : {&empty, &full}) {
    EXPECT_THAT(*TermPositionsInDoc(*store_, *cache, "delay", 201),
                ElementsAre(0, 1));
    EXPECT_THAT(*TermPositionsInDoc(*store_, *cache, "delay", 200),
                ElementsAre(2));
    EXPECT_THAT(*TermPositionsInDoc(*store_, *cache, "spike", 128),
                ElementsAre(0));
    EXPECT_THAT(*TermPositionsInDoc(*store_, *cache, "spike", 129), IsEmpty());
    EXPECT_THAT(*TermPositionsInDoc(*store_, *cache, "spike", 5000), IsEmpty());
    EXPECT_THAT(*TermPositionsInDoc(*store_, *cache, "absent", 3), IsEmpty());
  }
  EXPECT_EQ(empty.size(), 0u);  // Not filled by the lookups.
}

}  // namespace
}  // namespace paperdb::index
