#include "paperdb/text/analyzer.h"

#include <cstdio>
#include <cstdlib>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "libstemmer.h"
#include "paperdb/text/stopwords.h"
#include "paperdb/text/tokenizer.h"
#include "unicode/normalizer2.h"
#include "unicode/unistr.h"

namespace paperdb::text {
namespace {

bool IsAscii(absl::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// True for the plural of an acronym, which Snowball leaves alone: two or
// more capitals or digits (the first a capital) and a final lower-case 's',
// as in "SNNs", "LLMs", "GPUs"; or, in any case, letters without a vowel
// and a final 's', as users type them: "llms", "cnns", "mlps".
bool IsAcronymPlural(absl::string_view word) {
  if (word.size() < 3 || absl::ascii_tolower(word.back()) != 's') return false;
  const absl::string_view stem = word.substr(0, word.size() - 1);
  bool capitals = absl::ascii_isupper(stem[0]) && word.back() == 's';
  bool vowelless = true;
  for (char c : stem) {
    capitals &= absl::ascii_isupper(c) || absl::ascii_isdigit(c);
    vowelless &=
        absl::ascii_isalpha(c) &&
        absl::string_view("aeiouyAEIOUY").find(c) == absl::string_view::npos;
  }
  return capitals || vowelless;
}

// Names of Greek letters, which LaTeX writes as commands ($\eta$) but which
// are the words of a formula, so they stay searchable.
bool IsGreekLetterName(absl::string_view word) {
  static const auto* const kNames = new absl::flat_hash_set<std::string>{
      "alpha",  "beta",   "gamma", "delta",    "epsilon", "varepsilon",
      "zeta",   "eta",    "theta", "vartheta", "iota",    "kappa",
      "lambda", "mu",     "nu",    "xi",       "pi",      "varpi",
      "rho",    "varrho", "sigma", "varsigma", "tau",     "upsilon",
      "phi",    "varphi", "chi",   "psi",      "omega"};
  return kNames->contains(absl::AsciiStrToLower(word));
}

}  // namespace

absl::StatusOr<std::unique_ptr<Analyzer>> Analyzer::Create() {
  sb_stemmer* stemmer = sb_stemmer_new("english", "UTF_8");
  if (stemmer == nullptr) {
    return absl::InternalError("libstemmer has no English stemmer");
  }
  return std::unique_ptr<Analyzer>(new Analyzer(stemmer));
}

Analyzer::~Analyzer() { sb_stemmer_delete(stemmer_); }

std::string Analyzer::Fold(absl::string_view word) {
  if (IsAscii(word)) {
    std::string out(word);
    for (char& c : out) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
  }
  UErrorCode error = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc_cf =
      icu::Normalizer2::getNFKCCasefoldInstance(error);
  icu::UnicodeString input = icu::UnicodeString::fromUTF8(
      icu::StringPiece(word.data(), static_cast<int32_t>(word.size())));
  input.findAndReplace(icu::UnicodeString(static_cast<UChar32>(0x2019)),
                       icu::UnicodeString(static_cast<UChar32>('\'')));
  std::string out;
  if (U_FAILURE(error)) {
    input.toUTF8String(out);
    return out;
  }
  icu::UnicodeString folded = nfkc_cf->normalize(input, error);
  if (U_FAILURE(error)) folded = input;
  folded.toUTF8String(out);
  return out;
}

std::string Analyzer::Stem(const std::string& folded) {
  if (auto cached = stem_cache_.find(folded); cached != stem_cache_.end()) {
    return cached->second;
  }
  const sb_symbol* stemmed = sb_stemmer_stem(
      stemmer_, reinterpret_cast<const sb_symbol*>(folded.data()),
      static_cast<int>(folded.size()));
  if (stemmed == nullptr) return folded;  // Out of memory: index unstemmed.
  std::string stem(reinterpret_cast<const char*>(stemmed),
                   static_cast<size_t>(sb_stemmer_length(stemmer_)));
  if (stem_cache_.size() >= kStemCacheEntries) stem_cache_.clear();
  stem_cache_.emplace(folded, stem);
  return stem;
}

std::string Analyzer::Term(absl::string_view word) { return Stem(Fold(word)); }

std::vector<AnalyzedToken> Analyzer::Analyze(absl::string_view text) {
  const std::vector<TokenSpan> spans = Tokenize(text);
  std::vector<AnalyzedToken> tokens;
  tokens.reserve(spans.size());
  uint32_t position = 0;
  for (const TokenSpan& span : spans) {
    absl::string_view word =
        text.substr(span.start_byte, span.end_byte - span.start_byte);
    if (span.start_byte > 0 && text[span.start_byte - 1] == '\\' &&
        !IsGreekLetterName(word)) {
      continue;  // A LaTeX command such as \times or \textbf: markup.
    }
    if (IsAcronymPlural(word)) word.remove_suffix(1);  // "SNNs" -> "SNN".
    if (word.size() > kMaxTermBytes) {
      ++position;  // Not a word (a pasted blob): keep phrases from spanning it.
      continue;
    }
    const std::string folded = Fold(word);
    if (folded.empty()) continue;
    AnalyzedToken& token = tokens.emplace_back();
    token.stopword = IsStopword(folded);
    token.term = Stem(folded);
    token.start_byte = span.start_byte;
    token.end_byte = span.end_byte;
    token.position = position++;
  }
  return tokens;
}

Analyzer& ThreadLocalAnalyzer() {
  thread_local std::unique_ptr<Analyzer> analyzer = [] {
    absl::StatusOr<std::unique_ptr<Analyzer>> created = Analyzer::Create();
    if (!created.ok()) {
      std::fprintf(stderr, "paperdb: %s\n",
                   created.status().ToString().c_str());
      std::abort();
    }
    return *std::move(created);
  }();
  return *analyzer;
}

}  // namespace paperdb::text
