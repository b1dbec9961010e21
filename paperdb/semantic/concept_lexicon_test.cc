#include "paperdb/semantic/concept_lexicon.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "paperdb/common/hash.h"
#include "paperdb/storage/keys.h"

namespace paperdb::semantic {
namespace internal {
extern const char kConceptList[];  // concepts.txt (concept_list.cc).
}  // namespace internal
namespace {

using ::testing::HasSubstr;

constexpr char kThesaurus[] =
    "# A test thesaurus.\n"
    "hypergraph\thypergraph | hyperedge | higher-order relations\n"
    "brain_imaging\tfMRI | brain scans | brain activity\n"
    "\n"
    "llm\tlarge language model | LLM | chatbot\n"
    "tabular\ttabular data | rows and columns | key/value store\n";

std::vector<std::string> Ids(const ConceptLexicon& lexicon,
                             const std::vector<ConceptMention>& mentions) {
  std::vector<std::string> ids;
  for (const ConceptMention& m : mentions) {
    ids.push_back(lexicon.id(m.concept_index));
  }
  return ids;
}

std::vector<ConceptMention> MatchText(const ConceptLexicon& lexicon,
                                      absl::string_view text) {
  std::unique_ptr<text::Analyzer> analyzer = *text::Analyzer::Create();
  return lexicon.MatchTokens(text, analyzer->Analyze(text));
}

TEST(ConceptLexiconTest, FindsEveryTermOfAConceptInAnyInflection) {
  absl::StatusOr<ConceptLexicon> lexicon = ConceptLexicon::Parse(kThesaurus);
  ASSERT_TRUE(lexicon.ok()) << lexicon.status();
  EXPECT_EQ(lexicon->size(), 4u);
  const std::vector<ConceptMention> mentions = MatchText(
      *lexicon,
      "Hyperedges join many nodes; chatbots and Large Language Models read "
      "brain scans, unlike hyper-graph methods.");
  EXPECT_THAT(Ids(*lexicon, mentions),
              ::testing::ElementsAre("hypergraph", "llm", "llm",
                                     "brain_imaging", "hypergraph"));
  EXPECT_EQ(mentions[0].position, 0u);
  EXPECT_EQ(mentions[2].position, 6u);  // "Large Language Models".
  EXPECT_EQ(mentions[2].words, 3u);
}

TEST(ConceptLexiconTest, ATermOfAnEarlierTermsStemsMatchesAsThatOne) {
  // "quantized" has the stems of "quantization" ("quantiz"): listed once,
  // and matched as "quantization" and its inflections are. Its stem still
  // names the concept alone.
  absl::StatusOr<ConceptLexicon> lexicon =
      ConceptLexicon::Parse("quantization\tquantization | quantized | INT8\n");
  ASSERT_TRUE(lexicon.ok()) << lexicon.status();
  EXPECT_EQ(lexicon->terms(0).size(), 2u);
  EXPECT_EQ(Ids(*lexicon, MatchText(*lexicon, "weight quantizations")),
            std::vector<std::string>{"quantization"});
  EXPECT_TRUE(MatchText(*lexicon, "quantized weights").empty());
  EXPECT_TRUE(lexicon->IsOneWordTermStem("quantiz"));
  EXPECT_FALSE(lexicon->IsOneWordTermStem("weight"));
}

TEST(ConceptLexiconTest, AnAcronymSpellingAnEnglishWordMatchesAsWritten) {
  // "ZeRO", "CLIP" and "CoT" spell "zero", "clip" and "cot": an abstract
  // names them only with their capitals (a plural 's' too). "GPT" spells
  // no word and matches in any case, as do longer terms.
  absl::StatusOr<ConceptLexicon> lexicon = ConceptLexicon::Parse(
      "memory\tmemory-efficient training | ~ZeRO\n"
      "vlm\tvision-language model | ~CLIP\n"
      "cot\tchain of thought | CoT\n"
      "llm\tlarge language model | ~GPT\n");
  ASSERT_TRUE(lexicon.ok()) << lexicon.status();
  EXPECT_TRUE(MatchText(*lexicon, "non-zero weights").empty());
  EXPECT_TRUE(MatchText(*lexicon, "clipped gradients and zero shot").empty());
  EXPECT_TRUE(MatchText(*lexicon, "a baby's cot").empty());
  EXPECT_EQ(Ids(*lexicon, MatchText(*lexicon, "DeepSpeed ZeRO stage 3")),
            std::vector<std::string>{"memory"});
  EXPECT_EQ(Ids(*lexicon, MatchText(*lexicon, "two CLIPs and CoT")),
            (std::vector<std::string>{"vlm", "cot"}));
  EXPECT_EQ(Ids(*lexicon, MatchText(*lexicon, "gpt models")),
            std::vector<std::string>{"llm"});
}

TEST(ConceptLexiconTest, WordsMustBeConsecutive) {
  absl::StatusOr<ConceptLexicon> lexicon = ConceptLexicon::Parse(kThesaurus);
  ASSERT_TRUE(lexicon.ok());
  EXPECT_TRUE(MatchText(*lexicon, "brain and its scans").empty());
  EXPECT_TRUE(MatchText(*lexicon, "higher order complex relations").empty());
  // In a text, the stopwords between a term's words must be the term's own,
  // and no punctuation but hyphens and slashes may part them.
  EXPECT_TRUE(MatchText(*lexicon, "higher order of relations").empty());
  EXPECT_TRUE(MatchText(*lexicon, "brain) scans").empty());
  EXPECT_TRUE(MatchText(*lexicon, "brain. Scans").empty());
  EXPECT_TRUE(MatchText(*lexicon, "rows or columns").empty());
  EXPECT_TRUE(MatchText(*lexicon, "rows, columns").empty());
  EXPECT_EQ(Ids(*lexicon, MatchText(*lexicon, "rows and columns")),
            std::vector<std::string>{"tabular"});
  EXPECT_EQ(Ids(*lexicon, MatchText(*lexicon, "a key-value store")),
            std::vector<std::string>{"tabular"});
  EXPECT_EQ(Ids(*lexicon, MatchText(*lexicon,
                                    "higher\xE2\x80\x90order "
                                    "relations")),
            std::vector<std::string>{"hypergraph"});
  // A query's words carry no stopwords: its parser drops them, so "rows and
  // columns" is typed as "rows columns".
  std::unique_ptr<text::Analyzer> analyzer = *text::Analyzer::Create();
  const std::vector<std::string> typed = {analyzer->Term("rows"),
                                          analyzer->Term("columns")};
  EXPECT_EQ(
      Ids(*lexicon, lexicon->MatchQuery(typed, [](size_t) { return ""; })),
      std::vector<std::string>{"tabular"});
}

TEST(ConceptLexiconTest, NarrowerTermsIndexTextsButDoNotExpandQueries) {
  absl::StatusOr<ConceptLexicon> lexicon = ConceptLexicon::Parse(
      "protein\tprotein structure prediction | protein folding | ~AlphaFold\n"
      "seg\timage segmentation | ~segment anything\n");
  ASSERT_TRUE(lexicon.ok()) << lexicon.status();
  EXPECT_EQ(lexicon->terms(0)[2], "AlphaFold");
  // An abstract naming the instance is indexed under its concept...
  EXPECT_EQ(Ids(*lexicon, MatchText(*lexicon,
                                    "We improve AlphaFold and the "
                                    "Segment Anything model.")),
            (std::vector<std::string>{"protein", "seg"}));
  // ...but a query naming it names only the instance.
  std::unique_ptr<text::Analyzer> analyzer = *text::Analyzer::Create();
  auto query = [&](std::vector<std::string> words) {
    for (std::string& w : words) w = analyzer->Term(w);
    return Ids(*lexicon, lexicon->MatchQuery(words, [](size_t) { return ""; }));
  };
  EXPECT_TRUE(query({"alphafold"}).empty());
  EXPECT_TRUE(query({"segment", "anything"}).empty());
  EXPECT_EQ(query({"protein", "folding"}), std::vector<std::string>{"protein"});
  EXPECT_EQ(IndexedThesaurus("# x~\n\na\tb | ~c\nd\te"), "a\tb | c\nd\te\n");
}

TEST(ConceptLexiconTest, MalformedLinesAreNamed) {
  EXPECT_THAT(ConceptLexicon::Parse("a\t~x | y\n").status().message(),
              HasSubstr("term 'x' names the concept and cannot be narrower"));
  EXPECT_THAT(ConceptLexicon::Parse("a\tx | y~z\n").status().message(),
              HasSubstr("term 'y~z' holds a '~' other than a leading one"));
  EXPECT_THAT(ConceptLexicon::Parse("a\tx\nno tab here\n").status().message(),
              HasSubstr("line 2"));
  EXPECT_THAT(ConceptLexicon::Parse("a\tx\na\ty\n").status().message(),
              HasSubstr("used twice"));
  EXPECT_THAT(ConceptLexicon::Parse("Bad-Id\tx\n").status().message(),
              HasSubstr("is not lower-case"));
  EXPECT_THAT(ConceptLexicon::Parse("a\tx |  | y\n").status().message(),
              HasSubstr("empty term"));
  EXPECT_THAT(ConceptLexicon::Parse("a\tcause | why\n").status().message(),
              HasSubstr("term 'why' has no words but function words"));
}

TEST(ConceptLexiconTest, AStopwordCannotNarrowASingleWord) {
  EXPECT_THAT(ConceptLexicon::Parse("big\tbig | at scale\n").status().message(),
              HasSubstr("line 1: term 'at scale' matches as the one word "
                        "'scale': its stopwords at the edges are not matched"));
  EXPECT_THAT(
      ConceptLexicon::Parse("p\tparallel | in parallel\n").status().message(),
      HasSubstr("matches as the one word 'parallel'"));
  // Stopwords inside a term are matched, and a term of two words is narrow.
  EXPECT_TRUE(ConceptLexicon::Parse("s\tstate of the art | the curse of "
                                    "dimensionality\n")
                  .ok());
}

// Terms whose stem also spells an unrelated, common word of abstracts are
// not in the compiled-in thesaurus: "related work" is not taxonomy
// induction, a GAN's discriminator is not fairness, a medical device is not
// an edge device, a cross-entropy loss is not information theory.
TEST(ConceptLexiconTest, CompiledInTermsDoNotMatchUnrelatedWordsOfTheirStem) {
  const ConceptLexicon& lexicon = ConceptLexicon::Default();
  const std::pair<const char*, const char*> kUnrelated[] = {
      {"We survey related work and the relations between tasks.",
       "taxonomy_induction"},
      {"The discriminator is trained with a discriminative loss.", "fairness"},
      {"Wearable medical devices record signals.", "edge_devices"},
      {"We minimize the cross-entropy of the classifier.",
       "information_theory"},
      {"Fixed points are computed at scale, on the fly.", "gen_fix"},
      {"Fixed points are computed at scale, on the fly.", "gen_realtime"},
      {"Instruction tuning follows the instructions.", "gen_teach"},
      {"We use MIMIC-IV records.", "gen_imitate"},
      {"Dataset distillation condenses the training set.",
       "knowledge_distillation"},
      {"Detected bounding boxes are grounded in text.", "object_detection"}};
  for (const auto& [text, concept_id] : kUnrelated) {
    EXPECT_THAT(Ids(lexicon, MatchText(lexicon, text)),
                ::testing::Not(::testing::Contains(concept_id)))
        << text;
  }
  EXPECT_THAT(Ids(lexicon, MatchText(lexicon,
                                     "Models run on-device inference "
                                     "and avoid discrimination.")),
              ::testing::ElementsAre("edge_devices"));
}

// A word hyphened to a particle is part of a phrasal noun: "trade-off" is
// not "trading", nor "set-up" "setting"; as the term writes it, the word
// still names its concept ("made-up facts").
// A British spelling names the concept its American word does, in papers
// and in queries alike.
TEST(ConceptLexiconTest, ABritishSpellingNamesItsWordsConcept) {
  const ConceptLexicon& lexicon = ConceptLexicon::Default();
  EXPECT_THAT(Ids(lexicon, MatchText(lexicon, "Regularisation of deep nets.")),
              ::testing::Contains("regularization"));
  EXPECT_THAT(Ids(lexicon, MatchText(lexicon, "We study vector quantisation.")),
              ::testing::Contains("vector_quantization"));
}

TEST(ConceptLexiconTest, APhrasalNounNamesNoConceptOfItsWordInflected) {
  const ConceptLexicon& lexicon = ConceptLexicon::Default();
  for (const char* text : {"We study the trade-off between accuracy and speed.",
                           "the trade\u2010offs of speed", "trade-offs"}) {
    EXPECT_THAT(Ids(lexicon, MatchText(lexicon, text)),
                ::testing::Not(::testing::Contains("finance")))
        << text;
  }
  EXPECT_THAT(Ids(lexicon, MatchText(lexicon,
                                     "We study algorithmic trading and "
                                     "trade execution.")),
              ::testing::Contains("finance"));
  EXPECT_THAT(Ids(lexicon, MatchText(lexicon, "LLMs produce made-up facts.")),
              ::testing::Contains("hallucination"));
}

TEST(ConceptLexiconTest, TheCompiledInThesaurusParses) {
  const ConceptLexicon& lexicon = ConceptLexicon::Default();
  EXPECT_GE(lexicon.size(), 300u);
  EXPECT_GE(lexicon.Find("large_language_model"), 0);
  EXPECT_EQ(ConceptTerm("x"), "\x04x");
  EXPECT_TRUE(IsConceptTerm(ConceptTerm("x")));
}

// Terms of one concept stand in for each other in a search, so no concept
// holds a term and its opposite ("sparse rewards" beside "dense rewards"
// made a query for one match the other). A term containing both words
// ("sparse and dense fusion") names one thing and is not a pair.
TEST(ConceptLexiconTest, NoConceptHoldsATermAndItsOpposite) {
  const std::pair<absl::string_view, absl::string_view> kOpposites[] = {
      {"sparse", "dense"},
      {"online", "offline"},
      {"supervised", "unsupervised"},
      {"positive", "negative"},
      {"low", "high"},
      {"small", "large"},
      {"fast", "slow"},
      {"white-box", "black-box"}};
  for (absl::string_view line :
       absl::StrSplit(IndexedThesaurus(internal::kConceptList), '\n')) {
    const size_t tab = line.find('\t');
    if (tab == absl::string_view::npos) continue;
    std::vector<std::string> terms =
        absl::StrSplit(line.substr(tab + 1), " | ");
    const absl::flat_hash_set<std::string> set(terms.begin(), terms.end());
    for (const std::string& term : terms) {
      for (const auto& [a, b] : kOpposites) {
        for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
          std::vector<std::string> words = absl::StrSplit(term, ' ');
          for (std::string& word : words) {
            if (word != from) continue;
            word = std::string(to);
            const std::string opposite = absl::StrJoin(words, " ");
            EXPECT_FALSE(set.contains(opposite))
                << line.substr(0, tab) << ": '" << term << "' and '" << opposite
                << "'";
            word = std::string(from);
          }
        }
      }
    }
  }
}

// Concept postings are part of the stored format: a store indexed with
// another thesaurus lacks this one's postings, and `verify` would report
// them. A changed concepts.txt needs kSchemaVersion raised and this hash set
// to the new file's.
TEST(ConceptLexiconTest, TheThesaurusIsTheOneTheSchemaVersionIndexes) {
  const uint64_t hash = Hash64(IndexedThesaurus(internal::kConceptList));
  EXPECT_EQ(hash, storage::kIndexedThesaurusHash)
      << "paperdb/semantic/concepts.txt changed: raise kSchemaVersion in "
         "paperdb/storage/keys.h and set kIndexedThesaurusHash to 0x"
      << std::hex << hash;
}

}  // namespace
}  // namespace paperdb::semantic
