#include "paperdb/text/digits.h"

#include "gtest/gtest.h"

namespace paperdb::text {
namespace {

TEST(AsciiDigitsTest, EveryScriptsDecimalDigitsBecomeAscii) {
  EXPECT_EQ(AsciiDigits("\uFF12\uFF10\uFF12\uFF14\u5E74"), "2024\u5E74");
  EXPECT_EQ(AsciiDigits("ICLR \u0662\u0660\u0662\u0664"), "ICLR 2024");
  EXPECT_EQ(AsciiDigits("\u0968\u0966"), "20");  // Devanagari.
  EXPECT_EQ(AsciiDigits("2024"), "2024");
  // Other numbers are not decimal digits: superscripts, Roman numerals,
  // CJK number words.
  EXPECT_EQ(AsciiDigits("x\u00B2 \u2163 \u4E8C"), "x\u00B2 \u2163 \u4E8C");
  EXPECT_EQ(AsciiDigits("a\xFF"
                        "1"),
            "a\xFF"
            "1");
}

}  // namespace
}  // namespace paperdb::text
