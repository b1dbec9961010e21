#include "paperdb/text/english_words.h"

#include "gtest/gtest.h"

namespace paperdb::text {
namespace {

TEST(EnglishWordsTest, HoldsGeneralWordsWithTheirInflections) {
  EXPECT_TRUE(IsEnglishWord("rewording"));
  EXPECT_TRUE(IsEnglishWord("evading"));
  EXPECT_TRUE(IsEnglishWord("network"));
  EXPECT_TRUE(IsEnglishWord("networks"));
  EXPECT_TRUE(IsEnglishWord("lightning's"));
  EXPECT_TRUE(IsEnglishWord("lightning\xE2\x80\x99s"));
  EXPECT_TRUE(IsEnglishWord("rewordings"));
  EXPECT_FALSE(IsEnglishWord("delayss"));  // A typo, not a plural.
  EXPECT_FALSE(IsEnglishWord("networkss"));
}

TEST(EnglishWordsTest, HoldsNamesAndAccentedWordsFolded) {
  EXPECT_TRUE(IsEnglishWord("turing"));
  EXPECT_TRUE(IsEnglishWord("texas"));
  EXPECT_TRUE(IsEnglishWord("d\xC3\xA9tente"));  // As Fold() leaves it.
  EXPECT_TRUE(IsEnglishWord("caf\xC3\xA9"));
}

TEST(EnglishWordsTest, LacksMisspellings) {
  EXPECT_FALSE(IsEnglishWord("nueral"));
  EXPECT_FALSE(IsEnglishWord("modles"));
  EXPECT_FALSE(IsEnglishWord("watermarkng"));
  EXPECT_FALSE(IsEnglishWord("Rewording"));  // Callers fold first.
  EXPECT_FALSE(IsEnglishWord("caf"));        // Not a cut "café".
  EXPECT_FALSE(IsEnglishWord(""));
}

}  // namespace
}  // namespace paperdb::text
