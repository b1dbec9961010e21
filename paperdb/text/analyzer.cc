#include "paperdb/text/analyzer.h"

#include <cstdio>
#include <cstdlib>

#include "absl/status/status.h"
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
  const sb_symbol* stemmed = sb_stemmer_stem(
      stemmer_, reinterpret_cast<const sb_symbol*>(folded.data()),
      static_cast<int>(folded.size()));
  if (stemmed == nullptr) return folded;  // Out of memory: index unstemmed.
  return std::string(reinterpret_cast<const char*>(stemmed),
                     static_cast<size_t>(sb_stemmer_length(stemmer_)));
}

std::string Analyzer::Term(absl::string_view word) { return Stem(Fold(word)); }

std::vector<AnalyzedToken> Analyzer::Analyze(absl::string_view text) {
  const std::vector<TokenSpan> spans = Tokenize(text);
  std::vector<AnalyzedToken> tokens;
  tokens.reserve(spans.size());
  uint32_t position = 0;
  for (const TokenSpan& span : spans) {
    const std::string folded =
        Fold(text.substr(span.start_byte, span.end_byte - span.start_byte));
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
