#include "paperdb/text/stopwords.h"

#include "gtest/gtest.h"

namespace paperdb::text {
namespace {

TEST(StopwordsTest, LuceneSetIsSmall) {
  EXPECT_TRUE(IsStopword("the"));
  EXPECT_TRUE(IsStopword("with"));
  EXPECT_FALSE(IsStopword("what"));
  EXPECT_FALSE(IsStopword("does"));
}

TEST(StopwordsTest, FunctionWordsHoldQuestionWordsAndAuxiliaries) {
  EXPECT_TRUE(IsFunctionWord("what"));
  EXPECT_TRUE(IsFunctionWord("does"));
  EXPECT_TRUE(IsFunctionWord("how"));
  EXPECT_TRUE(IsFunctionWord("the"));  // Every stopword is one.
  EXPECT_TRUE(IsFunctionWord("doesn't"));
  EXPECT_TRUE(IsFunctionWord("via"));
  EXPECT_TRUE(IsFunctionWord("doesn\xE2\x80\x99t"));  // U+2019.
}

TEST(StopwordsTest, PrepositionsQuantifiersAndContentWordsAreNot) {
  EXPECT_FALSE(IsFunctionWord("before"));
  EXPECT_FALSE(IsFunctionWord("against"));
  EXPECT_FALSE(IsFunctionWord("few"));
  EXPECT_FALSE(IsFunctionWord("attention"));
  EXPECT_FALSE(IsFunctionWord("What"));  // Callers fold first.
}

TEST(StopwordsTest, RequestWordsAreThoseOfASearchForPapers) {
  EXPECT_TRUE(IsRequestWord("papers"));
  EXPECT_TRUE(IsRequestWord("studies"));
  EXPECT_TRUE(IsRequestWord("show"));
  EXPECT_FALSE(IsRequestWord("watermarking"));
  EXPECT_FALSE(IsRequestWord("what"));  // A function word, not a request's.
}

}  // namespace
}  // namespace paperdb::text
