// The analyzer: turns text into index terms. Abstracts at ingest and queries
// at search time go through the same analyzer, so they meet on equal terms.
//
// Pipeline: Tokenize() (tokenizer.h) -> drop LaTeX commands ("\times",
// "\textbf"; Greek letter names such as "\eta" are kept) -> acronym plurals
// lose their "s" ("SNNs" -> "SNN") -> tokens over kMaxTermBytes are skipped
// -> NFKC case folding (ICU "nfkc_cf";
// Unicode UAX #15 and the CaseFolding table), with U+2019 mapped to "'" ->
// Snowball English stemming (libstemmer, https://snowballstem.org).

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

// One analyzed token.
struct AnalyzedToken {
  std::string term;         // The index term: folded and stemmed.
  uint32_t start_byte = 0;  // Byte range of the token in the input.
  uint32_t end_byte = 0;
  uint32_t position = 0;  // Ordinal among the input's tokens, from 0.
  bool stopword = false;  // The folded, unstemmed word is a stopword.
};

// Tokens longer than this many bytes are not indexed (no real word is; a
// pasted blob would only bloat the term dictionary).
inline constexpr size_t kMaxTermBytes = 256;

// Not thread-safe (the Snowball stemmer keeps state): use one per thread.
class Analyzer {
 public:
  // INTERNAL if the Snowball English stemmer cannot be created.
  static absl::StatusOr<std::unique_ptr<Analyzer>> Create();

  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;
  ~Analyzer();

  // Analyzes `text`, which should be valid UTF-8 (invalid bytes separate
  // tokens). Positions count every token, stopwords included.
  std::vector<AnalyzedToken> Analyze(absl::string_view text);

  // Case-folds one word without stemming (NFKC_Casefold, ’ -> ').
  static std::string Fold(absl::string_view word);

  // Folds and stems one word.
  std::string Term(absl::string_view word);

 private:
  explicit Analyzer(sb_stemmer* stemmer) : stemmer_(stemmer) {}
  std::string Stem(const std::string& folded);

  sb_stemmer* stemmer_;  // Owned.
  // Folded word -> stem. Word frequencies are Zipfian, so a small cache
  // answers most lookups; Snowball was a fifth of ingest time without it.
  static constexpr size_t kStemCacheEntries = 1 << 17;
  absl::flat_hash_map<std::string, std::string> stem_cache_;
};

// Returns the calling thread's Analyzer, creating it on first use.
// Aborts the process if the stemmer cannot be created, which only happens
// when libstemmer lacks English (a broken installation).
Analyzer& ThreadLocalAnalyzer();

}  // namespace paperdb::text

#endif  // PAPERDB_TEXT_ANALYZER_H_
