#include "paperdb/extract/markup.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace paperdb::extract {
namespace {

using ::testing::ElementsAre;

TEST(StripMarkupTest, RemovesMarkdownEmphasisAndRecordsBold) {
  const PlainText plain = StripMarkup("We present **STanHop-Net** (*x*).");

  EXPECT_EQ(plain.text, "We present STanHop-Net (x).");
  EXPECT_THAT(plain.bold, ElementsAre(Span{11, 22}));
  EXPECT_EQ(plain.ToSource({11, 22}), (Span{13, 24}));
}

TEST(StripMarkupTest, RemovesLatexWrappersButKeepsOtherCommands) {
  const PlainText plain =
      StripMarkup("a \\textbf{VWFormer} and ($\\texttt{FedGP}$) \\citep{x}");

  EXPECT_EQ(plain.text, "a VWFormer and (FedGP) \\citep{x}");
  EXPECT_THAT(plain.bold, ElementsAre(Span{2, 10}));
}

TEST(StripMarkupTest, SpanIncludesTheMarkupInsideButNotBefore) {
  const absl::string_view text = "(**A**UEL)";
  const PlainText plain = StripMarkup(text);

  ASSERT_EQ(plain.text, "(AUEL)");
  const Span source = plain.ToSource({1, 5});

  EXPECT_EQ(text.substr(source.begin, source.size()), "A**UEL");
}

TEST(StripMarkupTest, MapsOffsetsAfterMultiByteCharacters) {
  const PlainText plain = StripMarkup("é **X1**");

  EXPECT_EQ(plain.text, "é X1");
  EXPECT_EQ(plain.ToSource({3, 5}), (Span{5, 7}));
  EXPECT_EQ(plain.source.back(), 9u);
}

}  // namespace
}  // namespace paperdb::extract
