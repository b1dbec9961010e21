// The extractors on the 76 bundled ICLR 2024 abstracts (data/*.txt): the
// exact set of names they find, reviewed by hand for precision. A change
// to an extractor that changes what it finds here must update these lists
// after reading the new output of paperdb_extract_report.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/extract/acronyms.h"
#include "paperdb/extract/code_links.h"
#include "paperdb/extract/datasets.h"
#include "paperdb/extract/methods.h"

namespace paperdb::extract {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

// Every abstract of data/*.txt, files in name order.
std::vector<std::string> CorpusAbstracts() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(PAPERDB_DATA_DIR)) {
    if (entry.path().extension() == ".txt") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> abstracts;
  for (const auto& file : files) {
    std::ifstream in(file);
    std::stringstream buffer;
    buffer << in.rdbuf();
    bool header = true;
    for (absl::string_view paragraph :
         absl::StrSplit(buffer.str(), "\n\n", absl::SkipWhitespace())) {
      if (header) {
        header = false;
        continue;
      }
      abstracts.emplace_back(absl::StripAsciiWhitespace(paragraph));
    }
  }
  return abstracts;
}

const std::vector<std::string>& Abstracts() {
  static const auto* const abstracts =
      new std::vector<std::string>(CorpusAbstracts());
  return *abstracts;
}

const std::string& AbstractWith(absl::string_view needle) {
  for (const std::string& text : Abstracts()) {
    if (absl::string_view(text).find(needle) != absl::string_view::npos) {
      return text;
    }
  }
  static const std::string* const none = new std::string;
  return *none;
}

TEST(CorpusTest, HasTheBundled76Abstracts) {
  EXPECT_EQ(Abstracts().size(), 76u);
}

TEST(CorpusTest, MethodNamesOnAllAbstracts) {
  std::vector<std::string> names;
  for (const std::string& text : Abstracts()) {
    for (const Mention& m : FindMethods(text)) names.push_back(m.name);
  }

  // Reviewed: all 41 are names the abstract introduces. Borderline: the
  // STanHop-Net memory modules "Plug-and-Play" and "Tune-and-Play" (named
  // components in bold, not methods of their own) and "TabUnit" (a module
  // of UniTabE).
  EXPECT_THAT(names, ElementsAreArray({"LIFT",
                                       "FLATTEN",
                                       "iTransformer",
                                       "MUSE",
                                       "SEA",
                                       "Balance-Marking",
                                       "ARM",
                                       "AirPhyNet",
                                       "CCQD",
                                       "CARE",
                                       "SRL",
                                       "NCL",
                                       "Kosmos-2",
                                       "CLIP-MUSED",
                                       "VLAP",
                                       "Pathformer",
                                       "LightHGNN",
                                       "PassUntil",
                                       "VWFormer",
                                       "STanHop-Net",
                                       "STanHop",
                                       "Plug-and-Play",
                                       "Tune-and-Play",
                                       "UniTabE",
                                       "TabUnit",
                                       "FedGP",
                                       "CURE",
                                       "PerSAM",
                                       "PerSAM-F",
                                       "DrS",
                                       "LEVER",
                                       "DreamClean",
                                       "DREAM",
                                       "PNLSVI",
                                       "Diffusion-TS",
                                       "Hedgehog",
                                       "EMO",
                                       "NfgTransformer",
                                       "Llemma",
                                       "CDE",
                                       "CAM"}));
}

TEST(CorpusTest, DatasetNamesOnAllAbstracts) {
  std::vector<std::string> names;
  for (const std::string& text : Abstracts()) {
    for (const Mention& m : FindDatasets(text)) names.push_back(m.name);
  }

  // Reviewed: all are datasets, benchmarks or evaluation suites the
  // abstracts name (QDAX is a suite of tasks, SKILL-MIX an evaluation).
  EXPECT_THAT(names, ElementsAreArray({"ImageNet",
                                       "SKILL-MIX",
                                       "MIMIC-IV",
                                       "eICU",
                                       "ADNI",
                                       "WikiText-2",
                                       "Hanabi",
                                       "CIFAR-10",
                                       "FFHQ",
                                       "QDAX",
                                       "GrIT",
                                       "ADE20K",
                                       "D3IL",
                                       "Jigsaw Civil Comments",
                                       "Anthropic HH",
                                       "BeaverTails",
                                       "PKU-SafeRLHF",
                                       "PerSeg",
                                       "Spiking Heidelberg Digits",
                                       "Spiking Speech Commands",
                                       "Google Speech Commands",
                                       "WikiText-103",
                                       "GLUE",
                                       "OpenWebText",
                                       "Proof-Pile-2",
                                       "MATH",
                                       "D4RL"}));
}

TEST(CorpusTest, AcronymsOnAllAbstracts) {
  size_t count = 0;
  for (const std::string& text : Abstracts()) {
    count += FindAcronyms(text).size();
  }

  // Reviewed: every one of the 84 pairs the report prints is right.
  EXPECT_EQ(count, 84u);
}

TEST(CorpusTest, LiftAbstract) {
  const std::string& text = AbstractWith("named LIFT");

  const std::vector<Mention> methods = FindMethods(text);
  const std::vector<CodeLink> links = FindCodeLinks(text);
  const std::vector<Acronym> acronyms = FindAcronyms(text);

  ASSERT_EQ(methods.size(), 1u);
  EXPECT_EQ(methods[0].name, "LIFT");
  EXPECT_EQ(methods[0].span, (Span{663, 667}));
  ASSERT_EQ(links.size(), 1u);
  EXPECT_EQ(links[0].host, "github.com");
  EXPECT_EQ(links[0].repository, "SJTU-Quant/LIFT");
  EXPECT_EQ(links[0].kind, CodeLinkKind::kRepository);
  ASSERT_EQ(acronyms.size(), 1u);
  EXPECT_EQ(acronyms[0].acronym, "MTS");
  EXPECT_EQ(acronyms[0].expansion, "multivariate time series");
  EXPECT_EQ(acronyms[0].expansion_span, (Span{84, 108}));
  EXPECT_EQ(acronyms[0].acronym_span, (Span{110, 113}));
}

TEST(CorpusTest, SpikingDelaysAbstractDatasets) {
  const std::string& text = AbstractWith("Spiking Heidelberg Dataset");

  std::vector<std::string> written;
  for (const Mention& m : FindDatasets(text)) {
    written.push_back(text.substr(m.span.begin, m.span.size()));
  }

  EXPECT_THAT(written, ElementsAre("SHD", "Spiking Speech Commands",
                                   "Google Speech Commands"));
}

TEST(CorpusTest, LinkKindsOnAllAbstracts) {
  int repositories = 0, pages = 0, anonymous = 0, other = 0;
  for (const std::string& text : Abstracts()) {
    for (const CodeLink& link : FindCodeLinks(text)) {
      switch (link.kind) {
        case CodeLinkKind::kRepository:
          ++repositories;
          EXPECT_NE(link.repository, "") << link.url;
          break;
        case CodeLinkKind::kProjectPage:
          ++pages;
          break;
        case CodeLinkKind::kAnonymousReview:
          ++anonymous;
          break;
        case CodeLinkKind::kOther:
          ++other;
          break;
      }
    }
  }

  EXPECT_EQ(repositories, 15);
  EXPECT_EQ(pages, 4);  // skill-mix, IceFormer, DrS, CAM.
  EXPECT_EQ(anonymous, 1);
  EXPECT_EQ(other, 1);  // aka.ms/kosmos-2.
}

}  // namespace
}  // namespace paperdb::extract
