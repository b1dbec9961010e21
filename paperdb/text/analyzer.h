// The analyzer: turns text into index terms. Abstracts at ingest and queries
// at search time go through the same analyzer, so they meet on equal terms.
// Terms come from a normalized view of each word; every byte offset refers
// to the original text, so what is shown keeps its case and accents.
//
// Pipeline, per token of Tokenize() (tokenizer.h):
//  1. LaTeX commands ("\times", "\textbf") are dropped; Greek letter names
//     such as "\eta" are kept as words.
//  2. Acronym plurals lose their "s" ("SNNs" -> "SNN").
//  3. Tokens over kMaxTermBytes are skipped (their position is kept).
//  4. Folding: ASCII words are lower-cased; other words get NFKC case folding
//     (ICU "nfkc_cf": Unicode UAX #15 and the CaseFolding table), with U+2019
//     mapped to "'", then lose their diacritics: NFD, drop the nonspacing
//     marks (Mn) that follow a Latin, Greek, Cyrillic or Common-script
//     character, NFC ("Schrödinger" -> "schrodinger", "k̂" -> "k"). Marks of
//     other scripts (Devanagari vowel signs, kana voicing marks) are
//     letters' parts there and stay.
//  5. Stopwords (stopwords.h) are marked, not dropped.
//  6. Snowball English stemming (libstemmer, https://snowballstem.org),
//     and beside the stem a surface-form term naming the folded word, for
//     words the stem may conflate with others (word_forms.h).
//  7. Compounds: for 2 to kMaxCompoundParts consecutive tokens joined by
//     single hyphens (tokenizer.h: "SKILL-MIX", "ResNet-18", "Proof-Pile-2",
//     "state-of-the-art"), one more token is emitted: the concatenation of
//     the parts' folded forms, stemmed ("skillmix", "resnet18",
//     "proofpile2", "stateoftheart"), stopword parts included, with the
//     position of the first part, a byte range over the whole compound and
//     `compound` set. It comes right after the first part in the result
//     and does not shift later positions, so "SKILLMIX" and the phrase
//     "skill mix" both find "SKILL-MIX". Its `stopword` is that of the
//     joined word ("in-to": "into"). A token skipped in step 1 or 3 ends a
//     chain ("x-\foo-y" joins nothing), and no joined token is emitted
//     whose term is the first part's ("model-s": "model" twice). The joined
//     term holds one position, so in a phrase it matches only as the last
//     word ("using SKILLMIX" finds "using SKILL-MIX"; "SKILLMIX is" does
//     not find "SKILL-MIX is").
//  8. Letters and digits run together in an ASCII word ("ResNet18",
//     "Wikitext2", "ADE20K", "D4RL") are split where they meet, into at
//     most kMaxCompoundParts parts at consecutive positions, each read as
//     the word it would be alone (step 2: "gmlwns2000" holds "gmlwn"), and
//     outside a hyphen chain the whole word is emitted as in step 7 (at the
//     first part's position, `compound` set): so "ResNet18" and "ResNet-18"
//     are indexed alike, "Wikitext2" holds the word "wikitext", and
//     "FLAN-MoE-32B" the phrase "32 b" that the query "32B" looks for
//     (inside a chain the chain's joined token stands for the whole).
//     Decimals ("5.4") are one token and are not split; glued to letters
//     they are one part ("GPT3.5": "gpt", "3.5"; "Qwen2.5").

#ifndef PAPERDB_TEXT_ANALYZER_H_
#define PAPERDB_TEXT_ANALYZER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

struct sb_stemmer;

namespace paperdb::text {

// No term id (AnalyzedToken::term_id).
inline constexpr uint32_t kNoTermId = UINT32_MAX;

// One analyzed token.
struct AnalyzedToken {
  std::string term;  // The index term: folded and stemmed.
  // The analyzer's id for `term` in its term epoch at the time
  // (Analyzer::term_epoch()): among tokens of one epoch, ids are equal
  // exactly when terms are. Lets an indexer group a text's tokens by term
  // without hashing strings.
  uint32_t term_id = kNoTermId;
  uint32_t start_byte = 0;  // Byte range of the token in the input.
  uint32_t end_byte = 0;
  uint32_t position = 0;  // Ordinal among the input's words, from 0.
  bool stopword = false;  // The folded, unstemmed word is a stopword.
  // The joined form of a hyphenated compound (step 7 above): it shares its
  // position with the compound's first part and spans all parts. Phrases
  // and word counts must skip these tokens; a query parser can match a
  // hyphenated query word as (phrase of its parts OR the joined term).
  bool compound = false;
  // The analyzer's id (as term_id) of the token's surface-form term
  // (word_forms.h), or kNoTermId if it has none: stopwords, joined
  // compounds, numbers, and words whose folded form is their stem or their
  // stem plus "e". Analyzer::TermText() gives the term.
  uint32_t form_id = kNoTermId;
};

// Tokens longer than this many bytes are not indexed (no real word is; a
// pasted blob would only bloat the term dictionary).
inline constexpr size_t kMaxTermBytes = 256;

// Hyphen chains of more parts than this get no joined token. Names and
// model ids have two to four parts ("Proof-Pile-2", "state-of-the-art");
// longer chains are hyphenated phrases ("end-to-end-trainable-...") that
// nobody types glued together, and the cap keeps the index from growing
// with every hyphen of such a chain. Their parts are indexed as usual.
inline constexpr size_t kMaxCompoundParts = 4;

// Byte offsets inside ASCII `word` where letters meet digits ("wikitext2":
// {8}; "ade20k": {3, 5}; "gpt3.5": {3}, a decimal being one number); empty
// if there are none, or if the word holds anything but letters, digits and
// decimal points between digits ("5.4", "x'").
std::vector<size_t> LetterDigitCuts(absl::string_view word);

// Not thread-safe (the Snowball stemmer keeps state): use one per thread.
class Analyzer {
 public:
  // INTERNAL if the Snowball English stemmer cannot be created.
  static absl::StatusOr<std::unique_ptr<Analyzer>> Create();

  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;
  ~Analyzer();

  // Analyzes `text`, which should be valid UTF-8 (invalid bytes separate
  // tokens). Positions count every word, stopwords included; compound
  // tokens add none. Tokens come in text order, a joined compound right
  // after its first part.
  std::vector<AnalyzedToken> Analyze(absl::string_view text);

  // Case-folds text without stemming (NFKC_Casefold, ’ -> '), keeping
  // diacritics. Paper ids hash this form, so it must not change.
  static std::string Fold(absl::string_view word);

  // A token's text (a token's byte range of the analyzed text) as a word
  // to show: without the markdown emphasis asterisks a token keeps inside
  // a word ("Hop**field": "Hopfield"; tokenizer.h), case as written.
  static std::string ShownWord(absl::string_view token_text);

  // Fold(), then diacritics removed (step 4 above): the form terms are
  // stemmed from.
  static std::string FoldForMatching(absl::string_view word);

  // Folds for matching and stems one word.
  std::string Term(absl::string_view word);

  // The term (a stem or a surface-form term) with id `id` of the current
  // term epoch. REQUIRES: id < term_id_limit().
  const std::string& TermText(uint32_t id) const { return id_terms_[id]; }

  // Identifies this analyzer's current numbering of terms (term ids),
  // unique among all analyzers of the process and never 0. It changes only
  // at the start of an Analyze() call (when the caches are full and are
  // emptied), never during one.
  uint64_t term_epoch() const { return term_epoch_; }
  // Term ids of the current epoch are below this.
  uint32_t term_id_limit() const {
    return static_cast<uint32_t>(term_ids_.size());
  }

 private:
  explicit Analyzer(sb_stemmer* stemmer);
  // A word's stem and the stem's term id (interned), and whether the word
  // folded is a stopword.
  struct Stemmed {
    std::string term;
    uint32_t id = kNoTermId;
    uint32_t form_id = kNoTermId;  // Its surface-form term's id, if any.
    bool stopword = false;
  };
  // The id of `term` in the current epoch, interned if new.
  uint32_t Intern(const std::string& term);
  // The Stemmed of `word`: a folded form (FoldForMatching()), or an ASCII
  // word as written, whose folded form is its ASCII lower case (the two
  // never disagree: a folded ASCII form is its own lower case). Valid until
  // the next call.
  const Stemmed& Stem(absl::string_view word);
  // Empties the stem cache and the term ids; starts a new term epoch.
  void ResetTerms();
  // FoldForMatching(), with non-ASCII words cached.
  std::string CachedFoldForMatching(absl::string_view word);

  sb_stemmer* stemmer_;  // Owned.
  // Word (as Stem() takes it) -> its stem, the stem's term id and the
  // stopword flag, side by side so that a token costs one lookup. Word
  // frequencies are Zipfian, so a small cache answers most lookups;
  // Snowball was a fifth of ingest time without it.
  static constexpr size_t kStemCacheEntries = 1 << 17;
  absl::flat_hash_map<std::string, Stemmed> stem_cache_;
  // Term -> term id (0, 1, 2, ... in order of first use).
  absl::flat_hash_map<std::string, uint32_t> term_ids_;
  std::vector<std::string> id_terms_;  // Term id -> term.
  uint64_t term_epoch_ = 0;
  // Non-ASCII word -> FoldForMatching(word): three ICU normalizations that
  // would otherwise make such a word cost several times an ASCII one.
  static constexpr size_t kFoldCacheEntries = 1 << 14;
  absl::flat_hash_map<std::string, std::string> fold_cache_;
};

// Returns the calling thread's Analyzer, creating it on first use.
// Aborts the process if the stemmer cannot be created, which only happens
// when libstemmer lacks English (a broken installation).
Analyzer& ThreadLocalAnalyzer();

}  // namespace paperdb::text

#endif  // PAPERDB_TEXT_ANALYZER_H_
