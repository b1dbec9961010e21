// ConceptLexicon: the semantic side's vocabulary. A curated thesaurus of
// machine-learning concepts (concepts.txt, compiled in): each concept names
// the words and phrases the field uses for it interchangeably ("hypergraph",
// "hyperedge", "higher-order relations"; "fMRI", "brain scans"). Abstracts
// and queries are matched against it on analyzed terms (stems), so a query
// and a paper that name one concept in different words meet on it: a
// sparse expansion into a fixed concept vocabulary, in the manner of
// SPLADE or Elasticsearch's ELSER, with a thesaurus where they learn one.
//
// Each concept is indexed as a concept term, "\x04" concept id, with a
// posting at the position of each mention (its first word). Word terms
// never start with "\x04" (the tokenizer keeps only letters, digits and
// marks), nor field terms ("\x01"), common grams ("\x02") or surface-form
// terms ("\x03"). Concept terms take no part in document lengths.
//
// A term written with a leading '~' is narrower: the name of one instance
// of the concept (a model, dataset, tool: "~AlphaFold" in protein structure
// prediction). An abstract naming it is indexed under the concept, but a
// query naming it is not expanded to the concept: whoever types "AlphaFold"
// wants AlphaFold, while whoever types "protein folding" is also served by
// a paper naming AlphaFold.
//
// Thread safety: const after construction; Default() is built once.

#ifndef PAPERDB_SEMANTIC_CONCEPT_LEXICON_H_
#define PAPERDB_SEMANTIC_CONCEPT_LEXICON_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "paperdb/text/analyzer.h"

namespace paperdb::semantic {

// The concept term of concept `id`.
std::string ConceptTerm(absl::string_view id);

// True if `term` is a concept term.
inline bool IsConceptTerm(absl::string_view term) {
  return !term.empty() && term[0] == '\x04';
}

// Longest term of a concept, in words: longer ones are refused.
inline constexpr size_t kMaxConceptTermWords = 6;

// One mention of a concept in a token sequence.
struct ConceptMention {
  uint32_t concept_index = 0;  // ConceptLexicon::id(concept_index).
  uint32_t position = 0;       // Of its first word.
  uint32_t words = 0;          // Words it spans.
};

// `text`, a thesaurus, as indexing reads it: its concept lines, each ending
// in '\n', without comments, blank lines and narrower marks ('~'), which
// change no index.
std::string IndexedThesaurus(absl::string_view text);

// What Match()'s `joiner` gives for words parted by punctuation.
inline constexpr char kJoinerBreak[] = "\x01";

class ConceptLexicon {
 public:
  // The compiled-in thesaurus (paperdb/semantic/concepts.txt), parsed and
  // analyzed on first use. Aborts if it does not parse (a build defect,
  // caught by the tests).
  static const ConceptLexicon& Default();

  // Parses a thesaurus: '#' comments and blank lines; each other line
  // "id TAB term | term | ...", ids of [a-z0-9_] unique, terms of 1 to
  // kMaxConceptTermWords words, any but the first marked narrower by a
  // leading '~'. INVALID_ARGUMENT naming the line.
  static absl::StatusOr<ConceptLexicon> Parse(absl::string_view text);

  size_t size() const { return ids_.size(); }
  const std::string& id(uint32_t concept_index) const {
    return ids_[concept_index];
  }
  // A concept's terms as the thesaurus writes them (without '~'), in order.
  const std::vector<std::string>& terms(uint32_t concept_index) const {
    return terms_[concept_index];
  }
  // A concept's terms as analyzed: each one's content words' terms
  // (stems), stopwords left out, in order.
  const std::vector<std::vector<std::string>>& term_stems(
      uint32_t concept_index) const {
    return stems_[concept_index];
  }
  // The concept with id `id`, or -1.
  int64_t Find(absl::string_view id) const;
  // True if a one-word term of some concept (narrower ones included) has
  // the analyzed term `stem`: a word of the field that names a concept on
  // its own ("quantized", "quantization": "quantiz"), which spelling
  // correction leaves alone.
  bool IsOneWordTermStem(absl::string_view stem) const {
    return one_word_terms_.contains(stem);
  }
  // True if the folded word `folded`, of stem `stem`, is a one-word term of
  // some concept or an inflection of one (text::AreInflections()):
  // "recommender" and "recommenders" are; "recommend" is not.
  bool IsOneWordTerm(absl::string_view folded, absl::string_view stem) const;

  // The folded word (Analyzer::FoldForMatching()) at index i of the
  // terms given to Match(), or "" if unknown (then the stem alone decides).
  using SurfaceFn = std::function<std::string(size_t i)>;

  // The concepts mentioned in `terms`, the analyzed terms of consecutive
  // content words (stopwords left out, as the thesaurus' terms are matched
  // on content words; an empty string breaks a run), with
  // the position of terms[0] given: at each word, every concept with a
  // term starting there (its longest). A term matches where each of its
  // words has the same stem and is the same word inflected
  // (text::AreInflections() of the folded words): "recommender" is not
  // "recommend", nor "imitate" "imitation". In position order.
  //
  // With `joiner` (MatchTokens()), what stands between terms[i-1] and
  // terms[i] in a text must be what stands between those words in the
  // thesaurus' term: the same stopwords, folded and space-separated ("" for
  // none: "image-to-video" is not "image and video"), and no punctuation
  // but hyphens and slashes (kJoinerBreak: "causal) reasoning" is not
  // "causal reasoning").
  std::vector<ConceptMention> Match(absl::Span<const absl::string_view> terms,
                                    const SurfaceFn& surface,
                                    uint32_t first_position = 0,
                                    const SurfaceFn& joiner = nullptr) const;

  // Match() for a query's words (`surface` as there): narrower terms left
  // out, so a query naming an instance does not name its concept.
  std::vector<ConceptMention> MatchQuery(const std::vector<std::string>& words,
                                         const SurfaceFn& surface) const;

  // Match() over an analyzer's tokens of `text`, its content words with the
  // stopwords and punctuation between them as joiners ("rows and columns"
  // matches the term "rows and columns", not "rows, columns"); joined
  // compounds are tried as one word at their first part's position too
  // ("hyper-graph" is "hypergraph"). A mention's position is its first
  // word's.
  std::vector<ConceptMention> MatchTokens(
      absl::string_view text,
      absl::Span<const text::AnalyzedToken> tokens) const;

 private:
  struct Entry {
    std::vector<std::string> stems;
    std::vector<std::string> words;  // Folded, as the thesaurus writes them.
    uint32_t concept_index = 0;
    // Before words[k] (k >= 1): the stopwords between it and words[k-1],
    // folded and space-separated.
    std::vector<std::string> joiners;
    bool narrower = false;  // Written with '~'.
    // A one-word term that is an acronym or mixed-case name spelling an
    // English word ("ZeRO"): as written, which is all an abstract's word
    // may be (or it with a plural 's'). Empty otherwise.
    std::string cased;
  };
  // Match() with narrower terms or not; where `written_as_is` (if given)
  // holds true for a word, a term matches it only as the term writes it,
  // not inflected. `written` (if given) is each word as the text writes
  // it, for Entry::cased.
  std::vector<ConceptMention> MatchEntries(
      absl::Span<const absl::string_view> terms, const SurfaceFn& surface,
      uint32_t first_position, const SurfaceFn& joiner, bool with_narrower,
      const std::vector<bool>* written_as_is = nullptr,
      const SurfaceFn* written = nullptr) const;
  std::vector<std::string> ids_;
  std::vector<std::vector<std::string>> terms_;
  std::vector<std::vector<std::vector<std::string>>> stems_;
  absl::flat_hash_map<std::string, uint32_t> index_of_;
  // Stem -> the folded words of one-word terms of that stem.
  absl::flat_hash_map<std::string, std::vector<std::string>> one_word_terms_;
  // First stem -> the entries starting with it, longest first.
  absl::flat_hash_map<std::string, std::vector<Entry>> by_first_;
};

}  // namespace paperdb::semantic

#endif  // PAPERDB_SEMANTIC_CONCEPT_LEXICON_H_
