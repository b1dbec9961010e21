#include "paperdb/index/inverted_run.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/index/index_writer.h"
#include "paperdb/index/varint.h"
#include "paperdb/storage/keys.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_fixture.h"

namespace paperdb::index {
namespace {

using ::paperdb::testing::IsOk;
using ::paperdb::testing::MakePaper;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

AnalyzedPaper WithTerms(
    std::vector<std::pair<std::string, std::vector<uint32_t>>> terms) {
  AnalyzedPaper paper;
  for (auto& [term, positions] : terms) {
    paper.terms.push_back({term, positions});
  }
  return paper;
}

std::vector<uint32_t> DecodePositions(absl::string_view encoded) {
  std::vector<uint32_t> positions;
  const char* p = encoded.data();
  const char* limit = p + encoded.size();
  uint32_t position = 0;
  while (p < limit) {
    uint32_t gap = 0;
    if (!GetVarint32(&p, limit, &gap)) return {};
    position += gap;
    positions.push_back(position);
  }
  return positions;
}

// Terms come out in byte order, unsigned ("\xC3\xA9" after "z"), including
// ones that share their first 8 bytes or are prefixes of one another; each
// term's postings in paper order, positions as posting blocks encode them.
TEST(InvertedRunTest, InvertsPapersIntoTermsInByteOrder) {
  std::vector<AnalyzedPaper> papers;
  papers.push_back(WithTerms({{"representational", {4}},
                              {"zeta", {0, 7}},
                              {"\xC3\xA9t\xC3\xA9", {1}},
                              {"represent", {2, 300}}}));
  papers.push_back(WithTerms({}));
  papers.push_back(WithTerms({{"represent", {5}},
                              {"representation", {0}},
                              {std::string("\x02of the", 7), {3}},
                              {"zeta", {1}}}));
  const std::unique_ptr<InvertedRun> run = InvertedRun::Build(papers);

  EXPECT_EQ(run->paper_count(), 3u);
  ASSERT_EQ(run->term_count(), 6u);
  EXPECT_EQ(run->term(0), std::string("\x02of the", 7));
  EXPECT_EQ(run->term(1), "represent");
  EXPECT_EQ(run->term(2), "representation");
  EXPECT_EQ(run->term(3), "representational");
  EXPECT_EQ(run->term(4), "zeta");
  EXPECT_EQ(run->term(5), "\xC3\xA9t\xC3\xA9");

  const auto represent = run->postings(1);
  ASSERT_EQ(represent.size(), 2u);
  EXPECT_EQ(represent[0].paper, 0u);
  EXPECT_EQ(represent[0].tf, 2u);
  EXPECT_THAT(DecodePositions(run->positions(represent[0])),
              ElementsAre(2, 300));
  EXPECT_EQ(represent[1].paper, 2u);
  EXPECT_THAT(DecodePositions(run->positions(represent[1])), ElementsAre(5));
  const auto zeta = run->postings(4);
  ASSERT_EQ(zeta.size(), 2u);
  EXPECT_EQ(zeta[0].paper, 0u);
  EXPECT_THAT(DecodePositions(run->positions(zeta[0])), ElementsAre(0, 7));
  EXPECT_EQ(zeta[1].paper, 2u);
  EXPECT_THAT(DecodePositions(run->positions(zeta[1])), ElementsAre(1));
  // The terms moved into the run.
  for (const AnalyzedPaper& paper : papers) EXPECT_THAT(paper.terms, IsEmpty());
}

// Every term of `run` with its postings, as text.
std::vector<std::string> Describe(const InvertedRun& run) {
  std::vector<std::string> out;
  for (size_t t = 0; t < run.term_count(); ++t) {
    std::string line(run.term(t));
    for (const InvertedRun::Posting& p : run.postings(t)) {
      absl::StrAppend(&line, " ", p.paper, ":",
                      absl::StrJoin(DecodePositions(run.positions(p)), ","));
    }
    out.push_back(line);
  }
  return out;
}

// Papers analyzed in two term epochs (the analyzer's caches filled up in
// between, so term ids were dealt anew) are inverted by their terms'
// strings: the run equals one of papers analyzed in one epoch. Grouping by
// id across epochs would merge unrelated terms.
TEST(InvertedRunTest, PapersOfTwoTermEpochsAreInvertedByTheirTerms) {
  const v1::Paper first =
      MakePaper("p1", "Spiking networks of the brain learn delays.");
  const v1::Paper second =
      MakePaper("p2", "Graph networks, and delays of the graph.");
  std::vector<AnalyzedPaper> mixed;
  mixed.push_back(AnalyzePaper(first));
  std::string filler;  // More distinct words than the caches hold.
  for (int i = 0; i < 140000; ++i) absl::StrAppend(&filler, "z", i, "q ");
  text::ThreadLocalAnalyzer().Analyze(filler);
  mixed.push_back(AnalyzePaper(second));
  ASSERT_NE(mixed[0].term_epoch, mixed[1].term_epoch);
  std::vector<AnalyzedPaper> same;
  same.push_back(AnalyzePaper(first));
  same.push_back(AnalyzePaper(second));
  ASSERT_EQ(same[0].term_epoch, same[1].term_epoch);

  const std::vector<std::string> expected = Describe(*InvertedRun::Build(same));
  EXPECT_EQ(Describe(*InvertedRun::Build(mixed)), expected);
  EXPECT_THAT(expected, ::testing::Contains("delay 0:6 1:3"));
  EXPECT_THAT(expected, ::testing::Contains("network 0:1 1:1"));
}

TEST(InvertedRunTest, NoPapersMakeAnEmptyRun) {
  std::vector<AnalyzedPaper> papers;
  EXPECT_EQ(InvertedRun::Build(papers)->term_count(), 0u);
}

// Every key and value of `column`, in order.
std::vector<std::pair<std::string, std::string>> Scan(
    const storage::Store& store, storage::Column column) {
  std::vector<std::pair<std::string, std::string>> entries;
  std::unique_ptr<storage::StoreIterator> it = store.NewIterator(column);
  for (it->Seek(""); it->Valid(); it->Next()) {
    entries.emplace_back(std::string(it->key()), std::string(it->value()));
  }
  return entries;
}

// A file of `count` generated abstracts over a small vocabulary, so that
// terms hold more than one posting block.
std::vector<v1::Paper> GeneratedFile(const std::string& file, int first,
                                     int count) {
  static const char* const kWords[] = {
      "spiking", "networks", "of",    "the",       "learn",
      "delays",  "in",       "graph", "ResNet-18", "and",
      "sparse",  "Llama-2",  "a",     "attention"};
  std::vector<v1::Paper> papers;
  for (int i = first; i < first + count; ++i) {
    std::string abstract;
    for (int w = 0; w < 12 + i % 7; ++w) {
      if (!abstract.empty()) abstract += ' ';
      abstract += kWords[(i * 7 + w * (i % 5 + 1)) % 14];
    }
    abstract += " paper" + std::to_string(i) + ".";
    papers.push_back(MakePaper(file + "-" + std::to_string(i), abstract, file));
    papers.back().mutable_sources(0)->set_paragraph_ordinal(
        static_cast<uint32_t>(i - first + 1));
  }
  return papers;
}

// Files as the ingester prepares them: analyzed, and file i inverted if
// runs[i].
std::vector<FileUpdate> Updates(
    const std::vector<std::vector<v1::Paper>>& files, std::vector<bool> runs) {
  std::vector<FileUpdate> updates;
  for (size_t i = 0; i < files.size(); ++i) {
    const std::vector<v1::Paper>& papers = files[i];
    FileUpdate& update = updates.emplace_back();
    update.file_name = papers.front().sources(0).file_name();
    for (const v1::Paper& paper : papers) {
      update.papers.push_back(AnalyzePaper(paper));
    }
    if (runs[i]) update.run = InvertedRun::Build(update.papers);
  }
  return updates;
}

class InvertedRunCommitTest : public ::paperdb::testing::StoreFixture {};

// The same commits with and without runs leave the same postings, terms,
// ids and statistics, byte for byte: files over several blocks, a paper
// repeated within a file (skipped) and held by two files, a file without a
// run between two with (its postings merged in doc order), and a file
// replaced (its changed papers updated, dropped ones deleted).
TEST_F(InvertedRunCommitTest, CommitsWithRunsWriteWhatCommitsWithoutDo) {
  std::vector<v1::Paper> a = GeneratedFile("a.txt", 0, 300);
  a.push_back(a[5]);  // Repeated: skipped.
  std::vector<v1::Paper> b = GeneratedFile("b.txt", 300, 150);
  b.push_back(a[7]);  // Held by a.txt too.
  b.back().mutable_sources(0)->set_file_name("b.txt");
  const std::vector<v1::Paper> c = GeneratedFile("c.txt", 500, 200);
  std::vector<v1::Paper> a2 = GeneratedFile("a.txt", 1000, 40);
  a2.insert(a2.end(), a.begin() + 40, a.begin() + 280);  // 280-299 dropped.
  for (size_t k = 0; k < a2.size(); ++k) {  // As the file now holds them.
    a2[k].mutable_sources(0)->set_file_name("a.txt");
    a2[k].mutable_sources(0)->set_paragraph_ordinal(
        static_cast<uint32_t>(k + 1));
  }

  auto plain_store = storage::Store::OpenPrimary((dir_ / "plain").string());
  ASSERT_THAT(plain_store, IsOk());
  auto plain = IndexWriter::Create(plain_store->get());
  ASSERT_THAT(plain, IsOk());
  for (const bool runs : {true, false}) {
    IndexWriter& writer = runs ? *writer_ : **plain;
    ASSERT_THAT(writer.CommitFiles(Updates({a, b, c}, {runs, false, runs})),
                IsOk());
    auto replaced = writer.CommitFiles(Updates({a2}, {runs}));
    ASSERT_THAT(replaced, IsOk());
    // 0-39 (replaced by the 40 new papers) and 280-299 are gone.
    EXPECT_EQ((*replaced)[0].removed.size(), 60u);
    EXPECT_EQ((*replaced)[0].updated, 40);
  }
  for (const storage::Column column :
       {storage::Column::kPostings, storage::Column::kTerms,
        storage::Column::kPaperIds, storage::Column::kMeta}) {
    const auto with_runs = Scan(*store_, column);
    EXPECT_GT(with_runs.size(), 0u);
    EXPECT_EQ(with_runs, Scan(**plain_store, column))
        << storage::ColumnName(column);
  }
}

}  // namespace
}  // namespace paperdb::index
