#include "ingest_service/abstract_list_parser.h"

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace paperdb::ingest {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;
using ::testing::HasSubstr;

TEST(AbstractListParserTest, ParsesHeaderAndParagraphs) {
  const std::string content =
      "ICLR 2024 论文列表\n\nFirst abstract.\n\n\nSecond one,\nwrapped.  \n";

  absl::StatusOr<ParsedAbstractList> list = ParseAbstractList("a.txt", content);

  ASSERT_THAT(list, IsOk());
  EXPECT_EQ(list->venue, "ICLR");
  EXPECT_EQ(list->year, 2024);
  ASSERT_EQ(list->abstracts.size(), 2u);
  EXPECT_EQ(list->abstracts[0].text, "First abstract.");
  EXPECT_EQ(list->abstracts[0].line_number, 3u);
  EXPECT_EQ(list->abstracts[0].byte_offset,
            24u);  // "ICLR 2024 论文列表" is 22 bytes.
  EXPECT_EQ(list->abstracts[1].text, "Second one, wrapped.");
  EXPECT_EQ(list->abstracts[1].paragraph_ordinal, 2u);
  EXPECT_EQ(list->abstracts[1].line_number, 6u);
  EXPECT_EQ(content.substr(list->abstracts[1].byte_offset, 6), "Second");
}

TEST(AbstractListParserTest, ToleratesBomCrlfCrOnlyAndMissingFinalNewline) {
  for (const std::string& content :
       {std::string(
            "\xEF\xBB\xBFICLR 2024 论文列表\r\n\r\nAbstract one.\r\n\r\nTwo"),
        std::string(
            "\xEF\xBB\xBFICLR 2024 论文列表\r\rAbstract one.\r\rTwo")}) {
    absl::StatusOr<ParsedAbstractList> list =
        ParseAbstractList("a.txt", content);

    ASSERT_THAT(list, IsOk());
    ASSERT_EQ(list->abstracts.size(), 2u);
    EXPECT_EQ(list->abstracts[0].text, "Abstract one.");
    EXPECT_EQ(list->abstracts[0].byte_offset, content.find("Abstract"));
    EXPECT_EQ(list->abstracts[1].text, "Two");
    EXPECT_EQ(list->abstracts[1].line_number, 5u);
  }
}

TEST(AbstractListParserTest, AcceptsOtherHeaderForms) {
  struct Case {
    const char* header;
    const char* venue;
    int year;
  };
  const Case cases[] = {
      {"NeurIPS 2023 论文列表", "NeurIPS", 2023},
      {"ICML 2022 paper list", "ICML", 2022},
      {"  ACL Findings 2021 Paper List  ", "ACL Findings", 2021},
      {"Workshop 论文列表", "Workshop", 0},
  };
  for (const Case& c : cases) {
    absl::StatusOr<ParsedAbstractList> list =
        ParseAbstractList("a.txt", std::string(c.header) + "\n\nText.");
    ASSERT_THAT(list, IsOk()) << c.header;
    EXPECT_EQ(list->venue, c.venue);
    EXPECT_EQ(list->year, c.year);
  }
}

TEST(AbstractListParserTest, UnicodeWhitespaceLinesSeparateParagraphs) {
  // A line of NBSPs and a line of U+3000 IDEOGRAPHIC SPACE are blank.
  const std::string content =
      "ICLR 2024 论文列表\n\nFirst.\n\xC2\xA0\xC2\xA0\nSecond.\n\xE3\x80\x80\n"
      "\xC2\xA0Third.\xC2\xA0\n";

  absl::StatusOr<ParsedAbstractList> list = ParseAbstractList("a.txt", content);

  ASSERT_THAT(list, IsOk());
  ASSERT_EQ(list->abstracts.size(), 3u);
  EXPECT_EQ(list->abstracts[1].text, "Second.");
  EXPECT_EQ(list->abstracts[2].text, "Third.");
  EXPECT_EQ(content.substr(list->abstracts[2].byte_offset, 6), "Third.");
}

TEST(AbstractListParserTest, YearGluedToVenueIsSplit) {
  absl::StatusOr<ParsedAbstractList> list =
      ParseAbstractList("a.txt", "ICLR2024 paper list\n\nText.");

  ASSERT_THAT(list, IsOk());
  EXPECT_EQ(list->venue, "ICLR");
  EXPECT_EQ(list->year, 2024);
}

TEST(AbstractListParserTest, HeaderLaterInTheFileStartsAnotherList) {
  // Two lists joined with cat, the second with its own BOM.
  const std::string content =
      "ICLR 2024 论文列表\n\nFirst.\n\n\xEF\xBB\xBFNeurIPS 2023 paper list\n\n"
      "Second.\n\nICML  2022  paper  list\n";

  absl::StatusOr<ParsedAbstractList> list = ParseAbstractList("a.txt", content);

  ASSERT_THAT(list, IsOk());
  ASSERT_EQ(list->abstracts.size(), 2u);
  EXPECT_EQ(list->abstracts[0].venue, "ICLR");
  EXPECT_EQ(list->abstracts[1].text, "Second.");
  EXPECT_EQ(list->abstracts[1].venue, "NeurIPS");
  EXPECT_EQ(list->abstracts[1].year, 2023);
  EXPECT_EQ(list->abstracts[1].paragraph_ordinal, 2u);
}

TEST(AbstractListParserTest, HeaderWithAYearAtAParagraphsEdgeStartsAList) {
  // Lists joined with cat where a file ended without a blank line (the
  // header under the last abstract) or a list's header sits directly above
  // its first abstract. A line ending in "paper list" without a year, at a
  // paragraph's edge, and a header inside a paragraph, stay text.
  const std::string content =
      "ICLR 2024 论文列表\n\nFirst abstract\nwrapped.\n"
      "NeurIPS 2023 paper list\n\nSecond.\n\nICML 2022 paper list\nThird\n"
      "wrapped.\n\nFourth, from a curated paper list\nof work.\n\n"
      "Fifth with\nACL 2021 paper list\ninside.\n\nSixth ends in\n"
      "our paper list\n\nSee our full paper list\n\n\xEF\xBB\xBF"
      "Eighth.\n";

  absl::StatusOr<ParsedAbstractList> list = ParseAbstractList("a.txt", content);

  ASSERT_THAT(list, IsOk());
  ASSERT_EQ(list->abstracts.size(), 8u);
  EXPECT_EQ(list->abstracts[0].text, "First abstract wrapped.");
  EXPECT_EQ(list->abstracts[0].venue, "ICLR");
  EXPECT_EQ(list->abstracts[1].text, "Second.");
  EXPECT_EQ(list->abstracts[1].venue, "NeurIPS");
  EXPECT_EQ(list->abstracts[1].year, 2023);
  EXPECT_EQ(list->abstracts[2].text, "Third wrapped.");
  EXPECT_EQ(list->abstracts[2].venue, "ICML");
  EXPECT_EQ(list->abstracts[2].year, 2022);
  EXPECT_EQ(list->abstracts[2].line_number, 10u);
  EXPECT_EQ(list->abstracts[3].text,
            "Fourth, from a curated paper list of work.");
  EXPECT_EQ(list->abstracts[4].text, "Fifth with ACL 2021 paper list inside.");
  EXPECT_EQ(list->abstracts[5].text, "Sixth ends in our paper list");
  // Standing alone without a year: text, not a venue.
  EXPECT_EQ(list->abstracts[6].text, "See our full paper list");
  // A byte order mark a joined file starts with is not text.
  EXPECT_EQ(list->abstracts[7].text, "Eighth.");
  for (size_t i = 3; i < 8; ++i) {
    EXPECT_EQ(list->abstracts[i].venue, "ICML") << i;
    EXPECT_EQ(list->abstracts[i].year, 2022) << i;
  }
}

TEST(AbstractListParserTest, LineThatIsAlmostAHeaderKeepsTheListsYear) {
  // Standing alone, but not headers: a year without a venue, and more than
  // eight words before the year. They are abstracts, and the list's venue and
  // year still hold for the abstracts after them.
  const std::string content =
      "ICLR 2024 论文列表\n\nFirst.\n\n2023 论文列表\n\nSecond.\n\n"
      "a b c d e f g h i 2022 paper list\n\nThird.\n";

  absl::StatusOr<ParsedAbstractList> list = ParseAbstractList("a.txt", content);

  ASSERT_THAT(list, IsOk());
  ASSERT_EQ(list->abstracts.size(), 5u);
  EXPECT_EQ(list->abstracts[1].text, "2023 论文列表");
  EXPECT_EQ(list->abstracts[3].text, "a b c d e f g h i 2022 paper list");
  for (const ParsedAbstract& abstract : list->abstracts) {
    EXPECT_EQ(abstract.venue, "ICLR") << abstract.text;
    EXPECT_EQ(abstract.year, 2024) << abstract.text;
  }
}

TEST(AbstractListParserTest, HeaderVariantsFromRealFiles) {
  struct Case {
    const char* header;
    const char* venue;
    int year;
  };
  const Case cases[] = {
      {"ICLR 2024年论文列表", "ICLR", 2024},
      {"ICLR-2024 paper list", "ICLR", 2024},
      {"ICLR\xC2\xA0"
       "2024 论文列表",
       "ICLR", 2024},
      {"ICML  2022  Paper   List", "ICML", 2022},
      {"ICLR \uFF12\uFF10\uFF12\uFF14\u5E74 论文列表", "ICLR", 2024},
      {"ICLR\uFF12\uFF10\uFF12\uFF13 paper list", "ICLR", 2023},
      {"ICLR \u0662\u0660\u0662\u0664 paper list", "ICLR", 2024},
  };
  for (const Case& c : cases) {
    absl::StatusOr<ParsedAbstractList> list =
        ParseAbstractList("a.txt", std::string(c.header) + "\n\nText.");
    ASSERT_THAT(list, IsOk()) << c.header;
    EXPECT_EQ(list->venue, c.venue) << c.header;
    EXPECT_EQ(list->year, c.year) << c.header;
  }
}

TEST(AbstractListParserTest, MissingHeaderNamesFileLineAndByte) {
  absl::StatusOr<ParsedAbstractList> list =
      ParseAbstractList("bad.txt", "\n\nWe propose a method.\n");

  EXPECT_THAT(list, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(list.status().message(),
              HasSubstr("bad.txt: line 3, byte 2: no header"));
}

TEST(AbstractListParserTest, MissingHeaderQuotesTheLineAndWhatItLacks) {
  EXPECT_EQ(
      ParseAbstractList("a.txt", "ICML2022\n\nKernels.\n").status().message(),
      "a.txt: line 1, byte 0: no header: the first line \"ICML2022\"; "
      "expected '<venue> [<year>] 论文列表' or '<venue> [<year>] paper "
      "list', e.g. \"ICLR 2024 paper list\"");
  EXPECT_THAT(
      ParseAbstractList("b.txt", "  paper list\n\nKernels.\n").status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("no header: the first line \"paper list\" names no "
                         "venue; expected")));
  // A long line is quoted up to 60 bytes, cut between characters.
  const std::string long_line = std::string(58, 'x') + "ééé";
  EXPECT_THAT(ParseAbstractList("c.txt", long_line + "\n\nKernels.\n")
                  .status()
                  .message(),
              HasSubstr("\"" + std::string(58, 'x') + "é...\"; expected"));
}

// A paper's name holds its venue: a venue over kMaxVenueBytes would make
// names the API refuses, so the header is refused, first or later.
TEST(AbstractListParserTest, OverlongVenueIsRejectedNamingLineAndByte) {
  const std::string venue(kMaxVenueBytes + 1, 'A');
  EXPECT_THAT(ParseAbstractList("v.txt", venue + " 2024 paper list\n\nx\n")
                  .status()
                  .message(),
              HasSubstr("v.txt: line 1, byte 0: the header's venue is 129 "
                        "bytes, longer than the limit of 128"));
  EXPECT_THAT(
      ParseAbstractList("v.txt", "ICLR 2024 paper list\n\nx\n\n" + venue +
                                     " paper list\n\ny\n")
          .status()
          .message(),
      HasSubstr("v.txt: line 5, byte 25: the header's venue is 129 bytes"));
  EXPECT_THAT(ParseAbstractList("v.txt", std::string(kMaxVenueBytes, 'A') +
                                             " paper list\n\nx\n"),
              IsOk());
}

// A header's year is optional, but a number where it stands that is no
// year is a typo, not part of the venue.
TEST(AbstractListParserTest, ANumberThatIsNoYearIsRejected) {
  EXPECT_THAT(
      ParseAbstractList("y.txt", "ICLR 20245 论文列表\n\nx\n")
          .status()
          .message(),
      HasSubstr("y.txt: line 1, byte 0: the header's year '20245' is not a "
                "year from 1900 to 2200"));
  EXPECT_THAT(ParseAbstractList("y.txt",
                                "ICLR 2024 paper list\n\nx\n\nICML "
                                "1024年 论文列表\n\ny\n")
                  .status()
                  .message(),
              HasSubstr("y.txt: line 5, byte 25: the header's year '1024'"));
  EXPECT_THAT(
      ParseAbstractList("y.txt", "ICLR 2024 2025 paper list\n\nx\n")
          .status()
          .message(),
      HasSubstr("y.txt: line 1, byte 0: the header names two years, '2024' "
                "and '2025'"));
  EXPECT_THAT(ParseAbstractList("y.txt", "ICLR2024 2025 paper list\n\nx\n")
                  .status()
                  .message(),
              HasSubstr("y.txt: line 1, byte 0: the header names two years, "
                        "'ICLR2024' and '2025'"));
  // In any script's digits alike.
  EXPECT_THAT(
      ParseAbstractList("y.txt",
                        "ICLR \u0662\u0660\u0662\u0664\u0665 paper list\n\nx\n")
          .status()
          .message(),
      HasSubstr("the header's year '20245' is not a year"));
  EXPECT_THAT(
      ParseAbstractList("y.txt",
                        "ICLR \uFF12\uFF10\uFF12\uFF14 2025 paper list\n\nx\n")
          .status()
          .message(),
      HasSubstr("the header names two years, '2024' and '2025'"));
  // A number glued to a name that is no year stays the venue's.
  absl::StatusOr<ParsedAbstractList> named =
      ParseAbstractList("y.txt", "GPT4 2024 paper list\n\nx\n");
  ASSERT_THAT(named, IsOk());
  EXPECT_EQ(named->venue, "GPT4");
  EXPECT_EQ(named->year, 2024);
  absl::StatusOr<ParsedAbstractList> no_year =
      ParseAbstractList("y.txt", "ICML 07 paper list\n\nx\n");
  ASSERT_THAT(no_year, IsOk());
  EXPECT_EQ(no_year->venue, "ICML 07");
  EXPECT_EQ(no_year->year, 0);
}

// A venue is shown to people: a bidirectional override could reorder what
// a terminal shows of it.
TEST(AbstractListParserTest, AVenueWithABidiControlIsRejected) {
  EXPECT_THAT(
      ParseAbstractList("v.txt", "IC\u202ELR 2024 paper list\n\nx\n")
          .status()
          .message(),
      HasSubstr("v.txt: line 1, byte 0: the header's venue holds U+202E, "
                "a bidirectional formatting character"));
  // A zero-width space would make "ICLR\u200B" a venue of its own that
  // looks like "ICLR".
  EXPECT_THAT(
      ParseAbstractList("v.txt", "ICLR\u200B 2024 paper list\n\nx\n")
          .status()
          .message(),
      HasSubstr("v.txt: line 1, byte 0: the header's venue holds U+200B, "
                "an invisible character"));
  // So would a tag character or a Hangul filler.
  EXPECT_THAT(
      ParseAbstractList("v.txt", "ICLR\U000E0041 2024 paper list\n\nx\n")
          .status()
          .message(),
      HasSubstr("the header's venue holds U+E0041, an invisible character"));
  EXPECT_THAT(ParseAbstractList("v.txt", "\u3164 2024 paper list\n\nx\n")
                  .status()
                  .message(),
              HasSubstr("the header's venue holds U+3164"));
}

// Control characters, read as spaces in abstracts, are refused in a header
// (first or later), at their own byte; a tab is white space.
TEST(AbstractListParserTest, AHeaderWithAControlCharacterIsRejectedAtIt) {
  EXPECT_THAT(ParseAbstractList("v.txt", "IC\x1BLR 2024 paper list\n\nx\n")
                  .status()
                  .message(),
              HasSubstr("v.txt: line 1, byte 2: the header holds U+001B, "
                        "a control character"));
  EXPECT_THAT(
      ParseAbstractList("v.txt", "\nICLR\xC2\x85 2024 paper list\n\nx\n")
          .status()
          .message(),
      HasSubstr("v.txt: line 2, byte 5: the header holds U+0085"));
  EXPECT_THAT(ParseAbstractList("v.txt",
                                "ICLR 2024 paper list\n\nx\n\nNeur\x7FIPS 2023 "
                                "paper list\n\ny\n")
                  .status()
                  .message(),
              HasSubstr("v.txt: line 5, byte 29: the header holds U+007F"));
  const auto tabbed =
      ParseAbstractList("v.txt", "ICLR\t2024 paper list\n\nA \x1B b.\n");
  ASSERT_TRUE(tabbed.ok()) << tabbed.status();
  EXPECT_EQ(tabbed->venue, "ICLR");
  EXPECT_EQ(tabbed->abstracts[0].text, "A   b.");
}

// A UTF-16 or UTF-32 file, with a byte order mark or without, in either
// byte order, CJK in its header or not, is named as such at byte 0 with
// the iconv command that converts it, not as a stray invalid byte.
TEST(AbstractListParserTest, AWideEncodingIsNamedWithItsConversion) {
  auto utf16 = [](const std::u16string& text, bool little) {
    std::string bytes;
    for (const char16_t c : text) {
      const char high = static_cast<char>(c >> 8), low = static_cast<char>(c);
      bytes += little ? std::string{low, high} : std::string{high, low};
    }
    return bytes;
  };
  const std::u16string header =
      u"ICLR 2024 \u8BBA\u6587\u5217\u8868\n\nAn abstract.\n";
  const std::pair<std::string, const char*> kFiles[] = {
      {utf16(u"\uFEFF" + header, true), "UTF-16LE"},
      {utf16(u"\uFEFF" + header, false), "UTF-16BE"},
      {utf16(header, true), "UTF-16LE"},
      {utf16(header, false), "UTF-16BE"},
      {std::string("\xFF\xFE\0\0I\0\0\0", 8), "UTF-32LE"}};
  for (const auto& [content, encoding] : kFiles) {
    EXPECT_THAT(
        ParseAbstractList("u.txt", content).status().message(),
        HasSubstr(absl::StrCat("u.txt: line 1, byte 0: the file is ", encoding,
                               ", not UTF-8; convert it with `iconv -f ",
                               encoding, " -t UTF-8`")));
  }
  // A lone NUL in UTF-8 text is still named where it is.
  const std::string ascii = "ICLR 2024 paper list\n";
  EXPECT_THAT(ParseAbstractList("n.txt", ascii + std::string("a\0b\n", 4))
                  .status()
                  .message(),
              HasSubstr("n.txt: line 2, byte 22: contains a NUL byte"));
}

TEST(AbstractListParserTest, InvalidUtf8NamesLineAndByte) {
  absl::StatusOr<ParsedAbstractList> list =
      ParseAbstractList("bad.txt", "ICLR 2024 论文列表\n\nok\nbad \xFF byte");

  EXPECT_THAT(list, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(list.status().message(),
              HasSubstr("bad.txt: line 4, byte 31: not valid UTF-8"));
}

TEST(AbstractListParserTest, NulByteIsRejected) {
  absl::StatusOr<ParsedAbstractList> list = ParseAbstractList(
      "nul.txt", std::string("ICLR 2024 论文列表\n\na\0b", 27));

  EXPECT_THAT(list, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(list.status().message(),
              HasSubstr("line 3, byte 25: contains a NUL byte"));
}

// Control characters read as spaces, byte for byte: at a line's edges they
// are trimmed with its white space, inside they part words, and a line of
// nothing else is blank. Offsets stay the file's.
TEST(AbstractListParserTest, ControlCharactersAreReadAsSpaces) {
  absl::StatusOr<ParsedAbstractList> list = ParseAbstractList(
      "ctl.txt",
      "ICLR 2024 paper list\n\n\x01\x1b[31mred\x7f text\xc2\x85\n"
      "\x02\x03\n"
      "second\xc2\x9f"
      "abstract\tend\x08");

  ASSERT_THAT(list, IsOk());
  ASSERT_EQ(list->abstracts.size(), 2u);
  EXPECT_EQ(list->abstracts[0].text, "[31mred  text");
  EXPECT_EQ(list->abstracts[0].byte_offset, 24u);  // After \x01\x1b.
  EXPECT_EQ(list->abstracts[1].text, "second  abstract\tend");
  EXPECT_EQ(list->abstracts[1].line_number, 5u);
}

TEST(AbstractListParserTest, EmptyFileIsRejectedAndHeaderAloneHasNoAbstracts) {
  EXPECT_THAT(ParseAbstractList("e.txt", " \n\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("e.txt: line 1, byte 0: file is empty but "
                                 "for white space; expected a header line")));
  absl::StatusOr<ParsedAbstractList> list =
      ParseAbstractList("h.txt", "ICLR 2024 论文列表\n");
  ASSERT_THAT(list, IsOk());
  EXPECT_TRUE(list->abstracts.empty());
}

}  // namespace
}  // namespace paperdb::ingest
