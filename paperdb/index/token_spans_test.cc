#include "paperdb/index/token_spans.h"

#include <string>
#include <utility>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/text/analyzer.h"

namespace paperdb::index {
namespace {

using Range = std::pair<uint32_t, uint32_t>;

TokenSpans SpansOf(absl::string_view text) {
  absl::StatusOr<TokenSpans> spans = TokenSpans::Decode(
      EncodeTokenSpans(text::ThreadLocalAnalyzer().Analyze(text)),
      static_cast<uint32_t>(text.size()));
  EXPECT_TRUE(spans.ok()) << spans.status();
  return *std::move(spans);
}

TEST(TokenSpansTest, PlainTokensByPosition) {
  //                                 0         1
  //                                 0123456789012345678
  const TokenSpans spans = SpansOf("Spiking  nets, ok.");
  EXPECT_EQ(spans.positions(), 3u);
  EXPECT_EQ(spans.Span(0, "spike"), Range(0, 7));
  EXPECT_EQ(spans.Span(1, "net"), Range(9, 13));
  EXPECT_EQ(spans.Span(2, "ok"), Range(15, 17));
  EXPECT_EQ(spans.Span(3, ""), Range(0, 0));
}

TEST(TokenSpansTest, CompoundSpansAllItsPartsAtItsFirstPartsPosition) {
  //                                 0         1         2
  //                                 0123456789012345678901234
  const TokenSpans spans = SpansOf("We use ResNet-18 and ADE20K");
  EXPECT_EQ(spans.Span(2, "resnet"), Range(7, 13));
  EXPECT_EQ(spans.Span(2, "resnet18"), Range(7, 16));
  EXPECT_EQ(spans.Span(3, "18"), Range(14, 16));
  // "ADE20K": parts "ade", "20", "k" at 5, 6, 7; the whole at 5.
  EXPECT_EQ(spans.Span(5, "ade"), Range(21, 24));
  EXPECT_EQ(spans.Span(5, "ade20k"), Range(21, 27));
  EXPECT_EQ(spans.Span(7, "k"), Range(26, 27));
}

// Compound terms are told apart from plain words whatever their spelling:
// "graph" is not given the span of "graph52985" (a 16-bit fingerprint of
// the compound would collide with it).
TEST(TokenSpansTest, APlainWordIsNeverGivenItsCompoundsSpan) {
  //                                 0         1         2
  //                                 0123456789012345678901234
  const TokenSpans spans = SpansOf("We study graph-52985 ok");
  EXPECT_EQ(spans.Span(2, "graph"), Range(9, 14));
  EXPECT_EQ(spans.Span(2, "graph52985"), Range(9, 20));
  EXPECT_EQ(spans.Span(3, "52985"), Range(15, 20));
}

TEST(TokenSpansTest, AnOverlongWordKeepsAnEmptyPosition) {
  const std::string blob(300, 'x');
  const std::string text = "alpha " + blob + " omega";
  const TokenSpans spans = SpansOf(text);
  EXPECT_EQ(spans.positions(), 3u);
  EXPECT_EQ(spans.Span(1, ""), Range(0, 0));
  EXPECT_EQ(spans.Span(2, "omega"), Range(307, 312));
}

TEST(TokenSpansTest, OneByteATokenAfterASpaceOrTwoSeparators) {
  // "a" at 0 (gap 0: escaped), "bb" after a space, "ccc" after ", ", "d"
  // after three spaces (escaped).
  const std::string encoded =
      EncodeTokenSpans(text::ThreadLocalAnalyzer().Analyze("a bb, ccc   d"));
  EXPECT_EQ(encoded, std::string("\x04"          // 4 plain tokens
                                 "\x00\x00\x01"  // a: escape, gap 0, len 1
                                 "\x02"          // bb
                                 "\x83"          // ccc after ", "
                                 "\x00\x03\x01"  // d: escape, gap 3, len 1
                                 "\x00"          // no skipped positions
                                 "\x00",         // no compounds
                                 11));
  const TokenSpans spans = SpansOf("a bb, ccc   d");
  EXPECT_EQ(spans.Span(2, "ccc"), Range(6, 9));
  EXPECT_EQ(spans.Span(3, ""), Range(12, 13));
}

TEST(TokenSpansTest, MalformedOrOutOfRangeIsDataLoss) {
  const std::string good =
      EncodeTokenSpans(text::ThreadLocalAnalyzer().Analyze("one two three"));
  EXPECT_TRUE(TokenSpans::Decode(good, 13).ok());
  // A span past the text's end.
  EXPECT_EQ(TokenSpans::Decode(good, 12).status().code(),
            absl::StatusCode::kDataLoss);
  // Truncated, and trailing bytes.
  EXPECT_EQ(
      TokenSpans::Decode(good.substr(0, good.size() - 1), 13).status().code(),
      absl::StatusCode::kDataLoss);
  EXPECT_EQ(TokenSpans::Decode(good + "x", 13).status().code(),
            absl::StatusCode::kDataLoss);
  // A count larger than the bytes that follow.
  EXPECT_EQ(TokenSpans::Decode("\x7f", 13).status().code(),
            absl::StatusCode::kDataLoss);
  // A packed token of length 0.
  EXPECT_EQ(TokenSpans::Decode(std::string("\x01\x80\x00\x00", 4), 13)
                .status()
                .code(),
            absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace paperdb::index
