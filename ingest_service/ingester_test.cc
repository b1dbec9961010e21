#include "ingest_service/ingester.h"

#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/index/posting_iterator.h"
#include "paperdb/index/verifier.h"
#include "paperdb/storage/keys.h"
#include "paperdb/storage/paper_table.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::ingest {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Outcome = v1::ParagraphOutcome;

class IngesterTest : public ::paperdb::testing::StoreFixture {
 protected:
  // Number of docs in the postings of `term`.
  int PostingCount(const std::string& term) {
    int count = 0;
    index::PostingIterator it(*store_, term);
    for (; it.doc() != index::kNoMoreDocs; it.Next()) ++count;
    return count;
  }

  // The store's consistency problems (empty if consistent).
  std::vector<std::string> Problems() {
    absl::StatusOr<index::VerifyReport> report = index::VerifyStore(*store_);
    if (!report.ok()) return {std::string(report.status().message())};
    return report->problems;
  }

  std::string PaperIdOfParagraph(const v1::IngestFileResponse& response,
                                 uint32_t ordinal) {
    for (const v1::ParagraphOutcome& p : response.paragraphs()) {
      if (p.paragraph_ordinal() == ordinal) return p.paper_id();
    }
    return "";
  }
};

TEST_F(IngesterTest, CountsAndListsParagraphOutcomes) {
  Ingester ingester(writer_.get(), store_.get());
  const std::string content =
      "ICLR 2024 论文列表\n\nAlpha beta.\n\nGamma.\n\nAlpha "
      "beta.\n\n----\n\n[2]\n";

  absl::StatusOr<v1::IngestFileResponse> first =
      ingester.IngestContent("a.txt", content);
  absl::StatusOr<v1::IngestFileResponse> second =
      ingester.IngestContent("a.txt", content);

  ASSERT_THAT(first, IsOk());
  EXPECT_EQ(first->added(), 2);
  EXPECT_EQ(first->skipped(), 3);  // The repeat, "----" and "[2]" (no word).
  ASSERT_EQ(first->paragraphs_size(), 5);
  EXPECT_EQ(first->paragraphs(0).outcome(), Outcome::OUTCOME_ADDED);
  EXPECT_EQ(first->paragraphs(0).line_number(), 3u);
  EXPECT_EQ(first->paragraphs(0).byte_offset(), 24u);
  EXPECT_EQ(first->paragraphs(2).outcome(), Outcome::OUTCOME_SKIPPED);
  EXPECT_EQ(first->paragraphs(2).reason(), "repeats paragraph 1");
  EXPECT_EQ(first->paragraphs(2).paper_id(), first->paragraphs(0).paper_id());
  EXPECT_EQ(first->paragraphs(3).reason(), "no word: not an abstract");
  EXPECT_EQ(first->source().paper_count(), 2);
  EXPECT_EQ(first->source().content_hash().size(), 32u);
  ASSERT_THAT(second, IsOk());
  EXPECT_EQ(second->added(), 0);
  EXPECT_EQ(second->unchanged(), 2);
  EXPECT_EQ(second->skipped(), 3);
  EXPECT_EQ(writer_->stats().doc_count(), 2u);
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(IngesterTest, RejectsBadFileNames) {
  Ingester ingester(writer_.get(), store_.get());
  const std::string content = "ICLR 2024 论文列表\n\nText.\n";

  for (const std::string& name :
       {std::string(""), std::string("lat\xE9.txt"), std::string("a\nb.txt"),
        std::string(2000, 'n'), std::string("c1\xC2\x85.txt"),
        std::string("rlo\xE2\x80\xAEtxt.exe"), std::string(" "),
        std::string("  lead.txt"), std::string("trail.txt "),
        std::string("\xE3\x80\x80wide.txt")}) {
    EXPECT_THAT(ingester.IngestContent(name, content),
                StatusIs(absl::StatusCode::kInvalidArgument))
        << name;
  }
  EXPECT_THAT(ingester.IngestContent("a.txt ", content),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("file name \"a.txt \" begins or ends with "
                                 "white space")));
  // Names are labels, never paths: these are stored as given.
  EXPECT_THAT(ingester.IngestContent("../../etc/passwd", content), IsOk());
  EXPECT_THAT(ingester.IngestContent("/abs/path.txt", content), IsOk());
  EXPECT_EQ(writer_->stats().doc_count(), 1u);
  storage::PaperTable table(store_.get());
  EXPECT_THAT(table.GetSource("../../etc/passwd"), IsOk());
}

TEST_F(IngesterTest, OverlongAbstractIsRejectedAloneAndTheRestStored) {
  Ingester ingester(writer_.get(), store_.get(),
                    IngestOptions{.max_abstract_bytes = 20});
  const std::string content =
      "ICLR 2024 论文列表\n\nShort one.\n\nThis abstract is far too long.\n";

  absl::StatusOr<v1::IngestFileResponse> response =
      ingester.IngestContent("big.txt", content);

  ASSERT_THAT(response, IsOk());
  EXPECT_EQ(response->added(), 1);
  EXPECT_EQ(response->rejected(), 1);
  ASSERT_EQ(response->paragraphs_size(), 2);
  const v1::ParagraphOutcome& rejected = response->paragraphs(1);
  EXPECT_EQ(rejected.outcome(), Outcome::OUTCOME_REJECTED);
  EXPECT_EQ(rejected.line_number(), 5u);
  EXPECT_EQ(rejected.byte_offset(), 36u);
  EXPECT_EQ(rejected.reason(),
            "abstract of 30 bytes is longer than the limit of 20 "
            "(--max_abstract_bytes)");
  EXPECT_EQ(writer_->stats().doc_count(), 1u);
}

TEST_F(IngesterTest, SameBytesUnderLooserLimitsAddWhatWasRejected) {
  const std::string content =
      "ICLR 2024 论文列表\n\nShort one.\n\nThis abstract is far too long.\n";
  Ingester strict(writer_.get(), store_.get(),
                  IngestOptions{.max_abstract_bytes = 20});
  ASSERT_THAT(strict.IngestContent("f.txt", content), IsOk());
  Ingester loose(writer_.get(), store_.get());

  absl::StatusOr<v1::IngestFileResponse> again =
      loose.IngestContent("f.txt", content);

  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(again->unchanged(), 1);
  EXPECT_EQ(again->added(), 1);
  EXPECT_EQ(writer_->stats().doc_count(), 2u);
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(IngesterTest, WordsAreSeparatedByAnyUnicodeSpace) {
  Ingester ingester(writer_.get(), store_.get(),
                    IngestOptions{.max_word_bytes = 12});
  // Tabs, NBSP and U+3000 separate words; the 13-byte run is one word.
  const std::string content =
      "ICLR 2024 paper list\n\nshort\twords\xC2\xA0only\xE3\x80\x80"
      "here.\n\nthirteenbytes is long.\n";

  absl::StatusOr<v1::IngestFileResponse> response =
      ingester.IngestContent("w.txt", content);

  ASSERT_THAT(response, IsOk());
  EXPECT_EQ(response->added(), 1);
  EXPECT_EQ(response->rejected(), 1);
  EXPECT_EQ(response->paragraphs(1).reason(),
            "word of 13 bytes at byte 0 of the abstract is longer than the "
            "limit of 12 (--max_word_bytes)");
}

TEST_F(IngesterTest, SameBytesUnderStricterLimitsRemoveWhatIsNowRejected) {
  const std::string content =
      "ICLR 2024 论文列表\n\nShort one.\n\nThis abstract is far too long.\n";
  Ingester loose(writer_.get(), store_.get());
  ASSERT_THAT(loose.IngestContent("f.txt", content), IsOk());
  Ingester strict(writer_.get(), store_.get(),
                  IngestOptions{.max_abstract_bytes = 20});

  absl::StatusOr<v1::IngestFileResponse> again =
      strict.IngestContent("f.txt", content);

  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(again->rejected(), 1);
  EXPECT_EQ(again->removed(), 1);
  EXPECT_EQ(writer_->stats().doc_count(), 1u);
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(IngesterTest, ReadFileStopsAtTheLimit) {
  EXPECT_THAT(ReadFile("/dev/zero", 1 << 20),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("/dev/zero: file is larger than the limit of "
                                 "1048576 bytes")));
}

// A FIFO is read once a writer has written and closed it; until then the
// wait ends when the interrupt flag is set (SIGTERM), never blocking in
// open(2) for a writer.
TEST_F(IngesterTest, ReadFileOfAFifoWaitsForItsWriterUntilInterrupted) {
  const std::string fifo = (dir_ / "fifo.txt").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::atomic<bool> interrupted{false};
  std::thread interrupter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    interrupted = true;
  });
  EXPECT_THAT(ReadFile(fifo, SIZE_MAX - 1, &interrupted),
              StatusIs(absl::StatusCode::kCancelled,
                       HasSubstr("fifo.txt: interrupted while waiting")));
  interrupter.join();

  std::thread writer([&] { std::ofstream(fifo) << "ICLR 2024 paper list\n"; });
  absl::StatusOr<std::string> content = ReadFile(fifo);
  writer.join();
  ASSERT_THAT(content, IsOk());
  EXPECT_EQ(*content, "ICLR 2024 paper list\n");
  EXPECT_THAT(ReadFile((dir_ / "absent.txt").string()),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("absent.txt: cannot open: No such file")));
}

// A directory's entries that are not regular files are named with the
// reason, never thrown: a symlink loop, a dangling symlink, a
// subdirectory, a FIFO. The regular files are listed as before.
TEST_F(IngesterTest, ADirectorysOtherEntriesAreSkippedWithTheReason) {
  const std::filesystem::path in = dir_ / "in";
  std::filesystem::create_directories(in / "sub");
  std::ofstream(in / "a.txt") << "ICLR 2024 paper list\n\nA.\n";
  std::filesystem::create_symlink("l2", in / "l1");
  std::filesystem::create_symlink("l1", in / "l2");
  std::filesystem::create_symlink("nowhere", in / "dangling");
  ASSERT_EQ(mkfifo((in / "fifo").c_str(), 0600), 0);
  std::ofstream(in / ".hidden") << "x";

  std::vector<SkippedEntry> skipped;
  absl::StatusOr<std::vector<std::string>> files =
      ListInputFiles({in.string()}, &skipped);

  ASSERT_THAT(files, IsOk());
  EXPECT_THAT(*files, ElementsAre((in / "a.txt").string()));
  std::vector<std::string> named;
  for (const SkippedEntry& entry : skipped) {
    named.push_back(
        absl::StrCat(std::filesystem::path(entry.path).filename().string(),
                     ": ", entry.reason, entry.unreadable ? " (error)" : ""));
  }
  EXPECT_THAT(named,
              ElementsAre("dangling: No such file or directory (error)",
                          "fifo: not a regular file",
                          "l1: Too many levels of symbolic links (error)",
                          "l2: Too many levels of symbolic links (error)",
                          "sub: a directory (directories are not walked)"));
  EXPECT_THAT(ListInputFiles({(in / "l1").string()}),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("l1: Too many levels of symbolic links")));
}

TEST_F(IngesterTest, TenMibParagraphAndFortyThousandByteWordAreRejected) {
  Ingester ingester(writer_.get(), store_.get());
  std::string huge;
  for (int i = 0; huge.size() < (10u << 20); ++i) huge += "word ";
  const std::string content = "ICLR 2024 paper list\n\n" + huge +
                              "\n\nA fine abstract.\n\nSee " +
                              std::string(40000, 'x') + " here.\n";

  absl::StatusOr<v1::IngestFileResponse> response =
      ingester.IngestContent("hostile.txt", content);

  ASSERT_THAT(response, IsOk());
  EXPECT_EQ(response->added(), 1);
  EXPECT_EQ(response->rejected(), 2);
  EXPECT_THAT(response->paragraphs(0).reason(),
              HasSubstr("bytes is longer than the limit of 262144"));
  EXPECT_EQ(response->paragraphs(2).reason(),
            "word of 40000 bytes at byte 4 of the abstract is longer than "
            "the limit of 2048 (--max_word_bytes)");
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(IngesterTest, FilesOverTheLimitsAreRejectedWhole) {
  Ingester ingester(writer_.get(), store_.get(),
                    IngestOptions{.max_file_bytes = 100, .max_paragraphs = 3});
  std::string many = "ICLR 2024 paper list\n";
  for (int i = 0; i < 5; ++i) many += "\np" + std::to_string(i) + "\n";

  EXPECT_THAT(ingester.IngestContent("big.txt", std::string(101, 'x')),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("big.txt: file of 101 bytes is larger than "
                                 "the limit of 100 (--max_file_mib)")));
  EXPECT_THAT(ingester.IngestContent("many.txt", many),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("many.txt: line 9, byte 34: file holds 5 "
                                 "paragraphs, more than the limit of 3")));
  EXPECT_THAT(ingester.IngestContent("empty.txt", ""),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("empty.txt: line 1, byte 0: file is empty;")));
  EXPECT_EQ(writer_->stats().doc_count(), 0u);
}

TEST_F(IngesterTest, HeaderWithoutAbstractsStoresAnEmptyFile) {
  Ingester ingester(writer_.get(), store_.get());

  absl::StatusOr<v1::IngestFileResponse> response =
      ingester.IngestContent("h.txt", "NeurIPS 2023 论文列表\n\n\n");

  ASSERT_THAT(response, IsOk());
  EXPECT_EQ(response->added(), 0);
  EXPECT_EQ(response->source().paper_count(), 0);
}

TEST_F(IngesterTest, ChangedFileReplacesItsPapers) {
  Ingester ingester(writer_.get(), store_.get());
  ASSERT_THAT(ingester.IngestContent(
                  "list.txt",
                  "ICLR 2024 paper list\n\nAlpha stays.\n\nBeta edited "
                  "later.\n\nGamma vanishes.\n\nDelta stays too.\n"),
              IsOk());
  ASSERT_EQ(PostingCount("gamma"), 1);

  absl::StatusOr<v1::IngestFileResponse> second = ingester.IngestContent(
      "list.txt",
      "ICLR 2024 paper list\n\nAlpha stays.\n\nBeta edited "
      "now.\n\nDelta stays too.\n\nEpsilon arrives.\n");

  ASSERT_THAT(second, IsOk());
  EXPECT_EQ(second->unchanged(), 2);  // Alpha, Delta.
  EXPECT_EQ(second->updated(), 1);    // Beta, edited in place.
  EXPECT_EQ(second->added(), 1);      // Epsilon.
  EXPECT_EQ(second->removed(), 2);    // Old Beta, Gamma.
  ASSERT_EQ(second->paragraphs_size(), 2);
  EXPECT_EQ(second->paragraphs(0).outcome(), Outcome::OUTCOME_UPDATED);
  EXPECT_EQ(second->paragraphs(0).paragraph_ordinal(), 2u);
  EXPECT_EQ(second->paragraphs(0).replaced_paper_id(),
            second->removed_paper_ids(0));
  EXPECT_EQ(second->paragraphs(1).outcome(), Outcome::OUTCOME_ADDED);
  EXPECT_EQ(writer_->stats().doc_count(), 4u);
  EXPECT_EQ(PostingCount("gamma"), 0);
  EXPECT_EQ(PostingCount("later"), 0);
  EXPECT_EQ(PostingCount("now"), 1);
  EXPECT_EQ(PostingCount("stay"), 2);
  EXPECT_THAT(store_->Get(storage::Column::kTerms, "gamma"),
              StatusIs(absl::StatusCode::kNotFound));
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(IngesterTest, EditOfCaseOrSpacingOnlyReplacesTheStoredText) {
  Ingester ingester(writer_.get(), store_.get());
  ASSERT_THAT(
      ingester.IngestContent("h.txt",
                             "ICLR 2024 paper list\n\nGraphs for Molecule "
                             "property prediction.\n"),
      IsOk());

  absl::StatusOr<v1::IngestFileResponse> edited = ingester.IngestContent(
      "h.txt",
      "ICLR 2024 paper list\n\nGraphs for molecule  property prediction.\n");

  ASSERT_THAT(edited, IsOk());
  EXPECT_EQ(edited->updated(), 1);
  EXPECT_EQ(edited->removed(), 0);
  ASSERT_EQ(edited->paragraphs_size(), 1);
  EXPECT_EQ(edited->paragraphs(0).outcome(), Outcome::OUTCOME_UPDATED);
  EXPECT_EQ(edited->paragraphs(0).replaced_paper_id(),
            edited->paragraphs(0).paper_id());
  storage::PaperTable table(store_.get());
  auto doc = table.FindDocId(edited->paragraphs(0).paper_id());
  ASSERT_THAT(doc, IsOk());
  auto record = table.Get(*doc);
  ASSERT_THAT(record, IsOk());
  EXPECT_EQ(record->paper().abstract(),
            "Graphs for molecule  property prediction.");
  EXPECT_EQ(writer_->stats().doc_count(), 1u);
  EXPECT_EQ(PostingCount("molecul"), 1);
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(IngesterTest, AnotherFilesSpellingOfAStoredPaperIsASecondSource) {
  // The same words in capitals in another file: one paper (its id hashes
  // the case-folded text), unchanged, and its text stays the first file's.
  Ingester ingester(writer_.get(), store_.get());
  ASSERT_THAT(ingester.IngestContent(
                  "ok.txt", "ICLR 2024 paper list\n\nGraphs for molecules.\n"),
              IsOk());
  absl::StatusOr<v1::IngestFileResponse> upper = ingester.IngestContent(
      "upper.txt", "ICLR 2024 paper list\n\nGRAPHS FOR  MOLECULES.\n");

  ASSERT_THAT(upper, IsOk());
  EXPECT_EQ(upper->unchanged(), 1);
  EXPECT_EQ(upper->updated(), 0);
  EXPECT_EQ(upper->paragraphs_size(), 0);  // Lists changed ones only.
  storage::PaperTable table(store_.get());
  auto record = table.Get(0);
  ASSERT_THAT(record, IsOk());
  EXPECT_EQ(record->paper().abstract(), "Graphs for molecules.");
  ASSERT_EQ(record->paper().sources_size(), 2);
  EXPECT_EQ(record->paper().sources(1).file_name(), "upper.txt");
  EXPECT_EQ(writer_->stats().doc_count(), 1u);

  ASSERT_THAT(writer_->DeleteSource("upper.txt"), IsOk());
  record = table.Get(0);
  ASSERT_THAT(record, IsOk());
  EXPECT_EQ(record->paper().abstract(), "Graphs for molecules.");
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(IngesterTest, SameAbstractInTwoFilesIsOnePaperUntilBothAreDeleted) {
  Ingester ingester(writer_.get(), store_.get());
  const std::string shared = "ICLR 2024 paper list\n\nShared abstract.\n";
  ASSERT_THAT(ingester.IngestContent("a.txt", shared + "\nOnly in a.\n"),
              IsOk());
  absl::StatusOr<v1::IngestFileResponse> b =
      ingester.IngestContent("b.txt", shared);
  ASSERT_THAT(b, IsOk());
  EXPECT_EQ(b->unchanged(), 1);
  EXPECT_EQ(writer_->stats().doc_count(), 2u);

  absl::StatusOr<index::DeleteSourceResult> deleted =
      writer_->DeleteSource("a.txt");

  ASSERT_THAT(deleted, IsOk());
  EXPECT_EQ(deleted->papers_deleted, 1);  // "Only in a."
  EXPECT_EQ(deleted->papers_kept, 1);     // Shared, still in b.txt.
  EXPECT_EQ(writer_->stats().doc_count(), 1u);
  EXPECT_EQ(PostingCount("share"), 1);
  EXPECT_EQ(PostingCount("only"), 0);
  storage::PaperTable table(store_.get());
  EXPECT_THAT(table.GetSource("a.txt"), StatusIs(absl::StatusCode::kNotFound));
  auto record = table.Get(0);
  ASSERT_THAT(record, IsOk());
  ASSERT_EQ(record->paper().sources_size(), 1);
  EXPECT_EQ(record->paper().sources(0).file_name(), "b.txt");
  EXPECT_THAT(Problems(), IsEmpty());

  ASSERT_THAT(writer_->DeleteSource("b.txt"), IsOk());
  EXPECT_EQ(writer_->stats().doc_count(), 0u);
  EXPECT_EQ(writer_->stats().total_doc_length_terms(), 0u);
  EXPECT_EQ(PostingCount("share"), 0);
  EXPECT_THAT(writer_->DeleteSource("b.txt"),
              StatusIs(absl::StatusCode::kNotFound));
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(IngesterTest, DeletedPaperComesBackWhenTheSameFileIsIngestedAgain) {
  Ingester ingester(writer_.get(), store_.get());
  const std::string content =
      "ICLR 2024 paper list\n\nKeep me.\n\nDelete me.\n";
  absl::StatusOr<v1::IngestFileResponse> first =
      ingester.IngestContent("f.txt", content);
  ASSERT_THAT(first, IsOk());
  const std::string doomed = PaperIdOfParagraph(*first, 2);

  absl::StatusOr<index::DeletePaperResult> deleted =
      writer_->DeletePaper(doomed);

  ASSERT_THAT(deleted, IsOk());
  EXPECT_THAT(deleted->file_names, ElementsAre("f.txt"));
  EXPECT_EQ(PostingCount("delet"), 0);
  storage::PaperTable table(store_.get());
  auto source = table.GetSource("f.txt");
  ASSERT_THAT(source, IsOk());
  EXPECT_EQ(source->source().paper_count(), 1);
  EXPECT_EQ(source->source().content_hash(), "");
  EXPECT_THAT(writer_->DeletePaper(doomed),
              StatusIs(absl::StatusCode::kNotFound));
  EXPECT_THAT(Problems(), IsEmpty());

  absl::StatusOr<v1::IngestFileResponse> again =
      ingester.IngestContent("f.txt", content);

  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(again->added(), 1);
  EXPECT_EQ(again->unchanged(), 1);
  EXPECT_EQ(PostingCount("delet"), 1);
  EXPECT_THAT(Problems(), IsEmpty());
}

// An edited paragraph replaces the paper at the same paragraph even when a
// paper deleted from the file since shortened its stored list.
TEST_F(IngesterTest, AnEditAfterADeleteReplacesThePaperAtItsParagraph) {
  Ingester ingester(writer_.get(), store_.get());
  auto file = [](absl::string_view e) {
    return absl::StrCat(
        "ICLR 2024 paper list\n\nAlpha one.\n\nBravo two."
        "\n\nCharlie three.\n\nDelta four.\n\n",
        e, "\n");
  };
  absl::StatusOr<v1::IngestFileResponse> first =
      ingester.IngestContent("f.txt", file("Echo five."));
  ASSERT_THAT(first, IsOk());
  const std::string old_echo = PaperIdOfParagraph(*first, 5);
  ASSERT_THAT(writer_->DeletePaper(PaperIdOfParagraph(*first, 2)), IsOk());

  absl::StatusOr<v1::IngestFileResponse> edited =
      ingester.IngestContent("f.txt", file("Echo five, edited."));

  ASSERT_THAT(edited, IsOk());
  EXPECT_EQ(edited->added(), 1);  // Bravo, deleted before.
  EXPECT_EQ(edited->updated(), 1);
  EXPECT_EQ(edited->unchanged(), 3);
  ASSERT_EQ(edited->paragraphs_size(), 2);  // Those not unchanged.
  EXPECT_EQ(edited->paragraphs(0).paragraph_ordinal(), 2u);
  EXPECT_EQ(edited->paragraphs(0).outcome(), Outcome::OUTCOME_ADDED);
  EXPECT_EQ(edited->paragraphs(1).paragraph_ordinal(), 5u);
  EXPECT_EQ(edited->paragraphs(1).outcome(), Outcome::OUTCOME_UPDATED);
  EXPECT_EQ(edited->paragraphs(1).replaced_paper_id(), old_echo);
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(IngesterTest, DeletingManyPapersRewritesSharedPostingBlocks) {
  // 300 papers share "common" (three posting blocks); delete every third.
  Ingester ingester(writer_.get(), store_.get());
  std::string content = "ICLR 2024 paper list\n";
  for (int i = 0; i < 300; ++i) {
    content += "\nCommon text number w" + std::to_string(i) + ".\n";
  }
  absl::StatusOr<v1::IngestFileResponse> response =
      ingester.IngestContent("many.txt", content);
  ASSERT_THAT(response, IsOk());
  ASSERT_EQ(response->added(), 300);

  for (int i = 0; i < 300; i += 3) {
    ASSERT_THAT(writer_->DeletePaper(response->paragraphs(i).paper_id()),
                IsOk());
  }

  EXPECT_EQ(PostingCount("common"), 200);
  EXPECT_EQ(PostingCount("w0"), 0);
  EXPECT_EQ(PostingCount("w1"), 1);
  index::PostingIterator common(*store_, "common");
  EXPECT_EQ(common.doc(), 1u);
  EXPECT_EQ(writer_->stats().doc_count(), 200u);
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(IngesterTest, CancelledIngestStoresNothing) {
  Ingester ingester(writer_.get(), store_.get());

  EXPECT_THAT(ingester.IngestContent("c.txt", "ICLR 2024 paper list\n\nA b.\n",
                                     [] { return true; }),
              StatusIs(absl::StatusCode::kCancelled));
  EXPECT_EQ(writer_->stats().doc_count(), 0u);
}

// `ingest_service --db=D a/same.txt b/same.txt` is refused: a source is
// named by its file's name, so the second file would silently replace the
// first one's papers.
TEST_F(IngesterTest, TwoInputFilesOfTheSameNameAreRefused) {
  for (const char* sub : {"a", "b"}) {
    std::filesystem::create_directories(dir_ / sub);
    std::ofstream(dir_ / sub / "same.txt") << "ICLR 2024 paper list\n\nA.\n";
  }
  const std::string a = (dir_ / "a" / "same.txt").string();
  const std::string b = (dir_ / "b" / "same.txt").string();

  const auto both = ListInputFiles({a, (dir_ / "b").string()});
  EXPECT_THAT(both, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(both.status().message(),
              HasSubstr(a + " and " + b + " are both named 'same.txt'"));
  // The same file twice is one source, as before.
  EXPECT_THAT(ListInputFiles({a, a}), IsOk());
}

}  // namespace
}  // namespace paperdb::ingest
