#include "paperdb/text/utf8.h"

#include <string>

#include "gtest/gtest.h"

namespace paperdb::text {
namespace {

TEST(FindInvalidUtf8Test, AcceptsAsciiCjkAndEmoji) {
  EXPECT_EQ(FindInvalidUtf8("ICLR 2024 论文列表 \xF0\x9F\x98\x80"),
            std::nullopt);
}

TEST(FindInvalidUtf8Test, ReportsOffsetOfFirstBadByte) {
  struct Case {
    std::string bytes;
    size_t offset;
  };
  const Case cases[] = {
      {"ab\xFF", 2},              // Never valid in UTF-8.
      {"abc\xC3", 3},             // Truncated two-byte sequence.
      {"\xC0\xAF", 0},            // Overlong encoding of '/'.
      {"x\xED\xA0\x80", 1},       // UTF-16 surrogate U+D800.
      {"\xE4\xBD\xA0\x80", 3},    // Stray continuation byte.
      {"ok\xF4\x90\x80\x80", 2},  // Above U+10FFFF.
  };
  for (const Case& c : cases) {
    EXPECT_EQ(FindInvalidUtf8(c.bytes), c.offset) << c.bytes;
  }
}

TEST(Utf8PrefixTest, CutsAtACharacterBoundary) {
  // "aé论" is 1 + 2 + 3 bytes.
  const std::string text = "a\xC3\xA9\xE8\xAE\xBA";
  EXPECT_EQ(Utf8Prefix(text, 6), text);
  EXPECT_EQ(Utf8Prefix(text, 100), text);
  EXPECT_EQ(Utf8Prefix(text, 5), "a\xC3\xA9");
  EXPECT_EQ(Utf8Prefix(text, 4), "a\xC3\xA9");
  EXPECT_EQ(Utf8Prefix(text, 3), "a\xC3\xA9");
  EXPECT_EQ(Utf8Prefix(text, 2), "a");
  EXPECT_EQ(Utf8Prefix(text, 1), "a");
  EXPECT_EQ(Utf8Prefix(text, 0), "");
  EXPECT_EQ(Utf8Prefix("", 3), "");
}

TEST(LongestWordTest, EachHanOrKanaCharacterIsAWord) {
  // 1,000 Han characters unspaced: words of 3 bytes, not one of 3,000.
  std::string han;
  for (int i = 0; i < 1000; ++i) han += "\xE7\xA5\x9E";  // 神
  EXPECT_EQ(LongestWord(han).length, 3u);
  EXPECT_EQ(LongestWord("ab\xE7\xA5\x9E"
                        "abcd")
                .start,
            5u);
  EXPECT_EQ(LongestWord("ab\xE7\xA5\x9E"
                        "abcd")
                .length,
            4u);
}

TEST(LongestWordTest, AnyUnicodeSpaceEndsAWord) {
  // "ab", tab, "cdé" (4 bytes), NBSP, "x", U+3000, "yz".
  const ByteSpan run = LongestWord("ab\tcd\xC3\xA9\xC2\xA0x\xE3\x80\x80yz");
  EXPECT_EQ(run.start, 3u);
  EXPECT_EQ(run.length, 4u);
  EXPECT_EQ(LongestWord("   ").length, 0u);
  EXPECT_EQ(LongestWord("tail").length, 4u);
}

TEST(FindControlCharacterTest, GivesTheFirstOnesByteAndCodePoint) {
  EXPECT_FALSE(FindControlCharacter("論文.txt").has_value());
  const std::optional<CodePointAt> rlo =
      FindControlCharacter("論a\xE2\x80\xAEtxt.exe\t");
  ASSERT_TRUE(rlo.has_value());
  EXPECT_EQ(rlo->byte, 4u);
  EXPECT_EQ(rlo->code_point, 0x202Eu);
}

TEST(ContainsControlCharacterTest, C0C1AndBidiControlsButNotText) {
  EXPECT_FALSE(ContainsControlCharacter("../論文 list (v2).txt"));
  EXPECT_TRUE(ContainsControlCharacter("a\tb"));
  EXPECT_TRUE(
      ContainsControlCharacter("a\x7F"
                               "b"));
  EXPECT_TRUE(ContainsControlCharacter("nel\xC2\x85"));  // U+0085
  EXPECT_TRUE(
      ContainsControlCharacter("rlo\xE2\x80\xAE"
                               "exe"));                      // U+202E
  EXPECT_TRUE(ContainsControlCharacter("fsi\xE2\x81\xA8"));  // U+2068
  EXPECT_TRUE(ContainsControlCharacter("alm\xD8\x9C"));      // U+061C
}

// Characters that show as nothing make two labels that look alike differ;
// the joiners that words of several scripts need are kept.
TEST(ContainsControlCharacterTest, InvisibleCharactersButNotJoiners) {
  const std::optional<CodePointAt> zwsp = FindControlCharacter("ICLR\u200B");
  ASSERT_TRUE(zwsp.has_value());
  EXPECT_EQ(zwsp->byte, 4u);
  EXPECT_EQ(zwsp->code_point, 0x200Bu);
  EXPECT_EQ(HiddenCharacterKind(0x200B), "an invisible character");
  EXPECT_TRUE(ContainsControlCharacter("IC\u2060LR"));  // Word joiner.
  EXPECT_TRUE(ContainsControlCharacter("IC\uFEFFLR"));  // Inside, not a BOM.
  EXPECT_TRUE(ContainsControlCharacter("IC\u00ADLR"));  // Soft hyphen.
  EXPECT_FALSE(ContainsControlCharacter("\u0645\u06CC\u200C\u062E"));  // ZWNJ.
  EXPECT_FALSE(ContainsControlCharacter("\u0915\u094D\u200D\u0937"));  // ZWJ.
}

TEST(ContainsControlCharacterTest, EveryDefaultIgnorableCharacterButSelectors) {
  const std::optional<CodePointAt> tag =
      FindControlCharacter("ICLR\U000E0041");  // TAG LATIN CAPITAL A.
  ASSERT_TRUE(tag.has_value());
  EXPECT_EQ(tag->byte, 4u);
  EXPECT_EQ(tag->code_point, 0xE0041u);
  EXPECT_EQ(HiddenCharacterKind(0xE0041), "an invisible character");
  EXPECT_TRUE(ContainsControlCharacter("IC\u3164LR"));  // Hangul filler.
  EXPECT_TRUE(ContainsControlCharacter("IC\u034FLR"));  // Grapheme joiner.
  EXPECT_TRUE(ContainsControlCharacter("ICLR\uFE0F"));  // After ASCII.
  EXPECT_TRUE(ContainsControlCharacter("\uFE0F"));
  EXPECT_TRUE(ContainsControlCharacter("\u2764\uFE0F\uFE0E"));
  EXPECT_TRUE(ContainsControlCharacter("ICLR\u200D\uFE0F"));  // After ZWJ.
  EXPECT_TRUE(ContainsControlCharacter("Caf\u00E9\uFE0F"));   // After a letter.
  EXPECT_FALSE(ContainsControlCharacter("\u2764\uFE0F ICLR"));  // Emoji.
  EXPECT_FALSE(ContainsControlCharacter("\u845B\U000E0100"));   // Ideograph.
  EXPECT_EQ(HiddenCharacterKind(0x061C),
            "a bidirectional formatting character");
  EXPECT_EQ(HiddenCharacterKind(0x85), "a control character");
}

TEST(StripUnicodeWhitespaceTest, StripsNbspIdeographicSpaceAndAscii) {
  EXPECT_EQ(StripUnicodeWhitespace("\xC2\xA0 \t\xE3\x80\x80"
                                   "abc \xC2\xA0"),
            "abc");
  EXPECT_EQ(StripUnicodeWhitespace("\xC2\xA0\xE3\x80\x80"), "");
  EXPECT_EQ(StripUnicodeWhitespace("a b"), "a b");
}

TEST(OffsetConverterTest, CountsCodePointsAndUtf16Units) {
  // "a" (1 byte), "é" (2 bytes), "论" (3 bytes), "😀" (4 bytes, 2 UTF-16 units),
  // "b".
  const std::string text =
      "a\xC3\xA9\xE8\xAE\xBA\xF0\x9F\x98\x80"
      "b";
  OffsetConverter converter(text);

  const TextOffset at_b = converter.Convert(10);

  EXPECT_EQ(at_b.byte, 10u);
  EXPECT_EQ(at_b.code_point, 4u);
  EXPECT_EQ(at_b.utf16, 5u);
  EXPECT_EQ(converter.Convert(11).utf16, 6u);
}

TEST(CodePointsTest, CountsAndLocatesCodePoints) {
  // 'a' (1 byte), 论 (3), 🚀 (4), 'b' (1).
  const std::string text =
      "a\xE8\xAE\xBA\xF0\x9F\x9A\x80"
      "b";
  EXPECT_EQ(CountCodePoints(text), 4u);
  EXPECT_EQ(CountCodePoints(""), 0u);
  EXPECT_EQ(ByteOffsetOfCodePoint(text, 0), 0u);
  EXPECT_EQ(ByteOffsetOfCodePoint(text, 1), 1u);
  EXPECT_EQ(ByteOffsetOfCodePoint(text, 2), 4u);
  EXPECT_EQ(ByteOffsetOfCodePoint(text, 3), 8u);
  EXPECT_EQ(ByteOffsetOfCodePoint(text, 4), 9u);
  EXPECT_EQ(ByteOffsetOfCodePoint(text, 99), 9u);
}

}  // namespace
}  // namespace paperdb::text
