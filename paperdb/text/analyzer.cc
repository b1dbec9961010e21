#include "paperdb/text/analyzer.h"

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "libstemmer.h"
#include "paperdb/text/british_spelling.h"
#include "paperdb/text/stopwords.h"
#include "paperdb/text/tokenizer.h"
#include "paperdb/text/utf8.h"
#include "paperdb/text/word_forms.h"
#include "unicode/normalizer2.h"
#include "unicode/uchar.h"
#include "unicode/unistr.h"
#include "unicode/uscript.h"

namespace paperdb::text {
namespace {

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
    switch (absl::ascii_tolower(static_cast<unsigned char>(c))) {
      case 'a':
      case 'e':
      case 'i':
      case 'o':
      case 'u':
      case 'y':
        vowelless = false;
        break;
      default:
        vowelless &= absl::ascii_isalpha(static_cast<unsigned char>(c));
    }
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

std::string AsciiLower(absl::string_view word) {
  std::string out(word);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// NFKC case folding, with U+2019 as an apostrophe. On an ICU error (no
// data: a broken installation) returns the input unfolded.
icu::UnicodeString CaseFold(absl::string_view word) {
  icu::UnicodeString input = icu::UnicodeString::fromUTF8(
      icu::StringPiece(word.data(), static_cast<int32_t>(word.size())));
  input.findAndReplace(icu::UnicodeString(static_cast<UChar32>(0x2019)),
                       icu::UnicodeString(static_cast<UChar32>('\'')));
  UErrorCode error = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc_cf =
      icu::Normalizer2::getNFKCCasefoldInstance(error);
  if (U_FAILURE(error)) return input;
  icu::UnicodeString folded = nfkc_cf->normalize(input, error);
  return U_FAILURE(error) ? input : folded;
}

// Scripts whose accents are diacritics that writers of English drop or
// keep at will ("naïve", "Schrödinger", Greek tonos). In other scripts a
// nonspacing mark can be a vowel or change a letter, so it stays.
bool HasFoldableDiacritics(UScriptCode script) {
  return script == USCRIPT_LATIN || script == USCRIPT_GREEK ||
         script == USCRIPT_CYRILLIC || script == USCRIPT_COMMON ||
         script == USCRIPT_INHERITED;
}

// Removes the nonspacing marks (general category Mn) that follow a
// character of a script with foldable diacritics, after canonical
// decomposition, and recomposes: "schrödinger" -> "schrodinger". A mark at
// the start of `text` is removed too. Leaves `text` alone on an ICU error.
void RemoveDiacritics(icu::UnicodeString& text) {
  UErrorCode error = U_ZERO_ERROR;
  const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(error);
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(error);
  if (U_FAILURE(error)) return;
  const icu::UnicodeString decomposed = nfd->normalize(text, error);
  if (U_FAILURE(error)) return;
  icu::UnicodeString kept;
  bool removed = false;
  bool base_folds = true;  // Of the last character that is not a mark.
  for (int32_t i = 0; i < decomposed.length();) {
    const UChar32 c = decomposed.char32At(i);
    i += U16_LENGTH(c);
    if (u_charType(c) == U_NON_SPACING_MARK) {
      if (base_folds) {
        removed = true;
        continue;
      }
    } else {
      UErrorCode script_error = U_ZERO_ERROR;
      base_folds = HasFoldableDiacritics(uscript_getScript(c, &script_error));
    }
    kept.append(c);
  }
  if (!removed) return;
  icu::UnicodeString composed = nfc->normalize(kept, error);
  if (U_SUCCESS(error)) text = std::move(composed);
}

// True if `word` is ASCII and holds no letter (nor an apostrophe, which
// the stemmer's first step removes).
bool HasNoAsciiLetter(absl::string_view word) {
  for (const char c : word) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80 || absl::ascii_isalpha(byte) || c == '\'') return false;
  }
  return true;
}

}  // namespace

std::vector<size_t> LetterDigitCuts(absl::string_view word) {
  // A '.' or ',' between two digits is part of the number ("3.5").
  const auto digit = [&](size_t i) {
    if (absl::ascii_isdigit(word[i])) return true;
    return (word[i] == '.' || word[i] == ',') && i > 0 && i + 1 < word.size() &&
           absl::ascii_isdigit(word[i - 1]) && absl::ascii_isdigit(word[i + 1]);
  };
  std::vector<size_t> cuts;
  for (size_t i = 0; i < word.size(); ++i) {
    if (!absl::ascii_isalnum(word[i]) && !digit(i)) return {};
    if (i > 0 && digit(i) != digit(i - 1)) cuts.push_back(i);
  }
  return cuts;
}

absl::StatusOr<std::unique_ptr<Analyzer>> Analyzer::Create() {
  sb_stemmer* stemmer = sb_stemmer_new("english", "UTF_8");
  if (stemmer == nullptr) {
    return absl::InternalError("libstemmer has no English stemmer");
  }
  return std::unique_ptr<Analyzer>(new Analyzer(stemmer));
}

Analyzer::Analyzer(sb_stemmer* stemmer) : stemmer_(stemmer) { ResetTerms(); }

Analyzer::~Analyzer() { sb_stemmer_delete(stemmer_); }

std::string Analyzer::ShownWord(absl::string_view token_text) {
  std::string word(token_text);
  word.erase(std::remove(word.begin(), word.end(), '*'), word.end());
  return word;
}

std::string Analyzer::Fold(absl::string_view word) {
  if (IsAscii(word)) return AsciiLower(word);
  std::string out;
  CaseFold(word).toUTF8String(out);
  return out;
}

std::string Analyzer::FoldForMatching(absl::string_view word) {
  if (IsAscii(word)) return AsciiLower(word);  // No diacritics to remove.
  icu::UnicodeString folded = CaseFold(word);
  RemoveDiacritics(folded);
  std::string out;
  folded.toUTF8String(out);
  return out;
}

const Analyzer::Stemmed& Analyzer::Stem(absl::string_view word) {
  if (auto cached = stem_cache_.find(word); cached != stem_cache_.end()) {
    return cached->second;
  }
  const std::string folded =
      IsAscii(word) ? AsciiLower(word) : std::string(word);
  if (folded != word) {
    // A capitalized word: its lower case is likely known.
    if (auto cached = stem_cache_.find(folded); cached != stem_cache_.end()) {
      Stemmed entry = cached->second;
      return stem_cache_.emplace(word, std::move(entry)).first->second;
    }
  }
  Stemmed entry;
  entry.stopword = IsStopword(folded);
  // A British spelling is stemmed, and named by its form term, as its
  // American word (british_spelling.h).
  const std::string american = AmericanSpelling(folded);
  const std::string& spelled = american.empty() ? folded : american;
  if (HasNoAsciiLetter(folded)) {
    // Numbers ("2024", "5.4"): every rule of the English stemmer removes or
    // rewrites letters, so it returns these unchanged.
    entry.term = folded;
  } else {
    const sb_symbol* stemmed = sb_stemmer_stem(
        stemmer_, reinterpret_cast<const sb_symbol*>(spelled.data()),
        static_cast<int>(spelled.size()));
    // Out of memory: indexed unstemmed.
    entry.term =
        stemmed == nullptr
            ? spelled
            : std::string(reinterpret_cast<const char*>(stemmed),
                          static_cast<size_t>(sb_stemmer_length(stemmer_)));
  }
  entry.id = Intern(entry.term);
  if (!entry.stopword && !HasNoAsciiLetter(folded) &&
      HasFormTerm(spelled, entry.term)) {
    entry.form_id = Intern(FormTerm(entry.term, spelled));
  }
  return stem_cache_.emplace(word, std::move(entry)).first->second;
}

uint32_t Analyzer::Intern(const std::string& term) {
  const auto interned =
      term_ids_.try_emplace(term, static_cast<uint32_t>(term_ids_.size()));
  if (interned.second) id_terms_.push_back(term);
  return interned.first->second;
}

void Analyzer::ResetTerms() {
  static std::atomic<uint64_t> next_epoch{1};
  stem_cache_.clear();
  term_ids_.clear();
  id_terms_.clear();
  term_epoch_ = next_epoch.fetch_add(1, std::memory_order_relaxed);
}

std::string Analyzer::CachedFoldForMatching(absl::string_view word) {
  if (IsAscii(word)) return AsciiLower(word);
  if (auto cached = fold_cache_.find(word); cached != fold_cache_.end()) {
    return cached->second;
  }
  std::string folded = FoldForMatching(word);
  if (fold_cache_.size() >= kFoldCacheEntries) fold_cache_.clear();
  fold_cache_.emplace(word, folded);
  return folded;
}

std::string Analyzer::Term(absl::string_view word) {
  return Stem(CachedFoldForMatching(word)).term;
}

std::vector<AnalyzedToken> Analyzer::Analyze(absl::string_view text) {
  // The caches are bounded between analyses, so that term ids stay valid
  // through one.
  if (stem_cache_.size() >= kStemCacheEntries) ResetTerms();
  auto set_term = [](AnalyzedToken& token, const Stemmed& stemmed) {
    token.term_id = stemmed.id;
    token.term = stemmed.term;
    token.stopword = stemmed.stopword;
    token.form_id = stemmed.form_id;
  };
  const std::vector<TokenSpan> spans = Tokenize(text);
  std::vector<AnalyzedToken> tokens;
  tokens.reserve(spans.size() + spans.size() / 4);
  uint32_t position = 0;
  // The hyphen chain being read: tokens joined by single hyphens.
  size_t chain_first = 0;       // Index of its first part in `tokens`.
  size_t chain_parts = 0;       // 0: none.
  uint32_t chain_end = 0;       // End byte of its last part.
  std::string chain_joined;     // Its parts' folded forms, concatenated.
  size_t chain_head_bytes = 0;  // Bytes of chain_joined from its first part.
  // Emits the chain's joined token, if it gets one (analyzer.h, step 7),
  // right after its first part, and ends the chain.
  auto end_chain = [&] {
    // A word hyphened to a particle ("trade-off", "warm-ups") is a phrasal
    // noun, not its head inflected: the head's form term names the
    // compound, so that "trading" does not count it as "trade".
    if (chain_parts == 2 && tokens.size() == chain_first + 2 &&
        !tokens[chain_first].stopword &&
        !HasNoAsciiLetter(tokens[chain_first].term) &&
        chain_joined.size() <= kMaxTermBytes &&
        IsParticle(absl::string_view(chain_joined).substr(chain_head_bytes))) {
      AnalyzedToken& head = tokens[chain_first];
      head.form_id = Intern(FormTerm(head.term, chain_joined));
    }
    if (chain_parts >= 2 && chain_parts <= kMaxCompoundParts &&
        chain_joined.size() <= kMaxTermBytes) {
      const AnalyzedToken& first = tokens[chain_first];
      AnalyzedToken joined;
      set_term(joined, Stem(chain_joined));
      joined.start_byte = first.start_byte;
      joined.end_byte = chain_end;
      joined.position = first.position;
      joined.compound = true;
      joined.form_id = kNoTermId;
      // Equal terms at one position would count twice ("model-s").
      if (joined.term != first.term) {
        tokens.insert(tokens.begin() + static_cast<ptrdiff_t>(chain_first) + 1,
                      std::move(joined));
      }
    }
    chain_parts = 0;
    chain_joined.clear();
  };
  // The stem cache is larger than the CPU's caches, and most of a lookup
  // is waiting for memory: the lookup of the word kPrefetchDistance tokens
  // ahead is started early, so that its wait overlaps this token's work.
  constexpr size_t kPrefetchDistance = 6;
  for (size_t i = 0; i < spans.size() && i < kPrefetchDistance; ++i) {
    stem_cache_.prefetch(text.substr(spans[i].start_byte,
                                     spans[i].end_byte - spans[i].start_byte));
  }
  std::string unmarked;  // A word without its emphasis marks.
  for (size_t i = 0; i < spans.size(); ++i) {
    if (i + kPrefetchDistance < spans.size()) {
      const TokenSpan& ahead = spans[i + kPrefetchDistance];
      stem_cache_.prefetch(
          text.substr(ahead.start_byte, ahead.end_byte - ahead.start_byte));
    }
    const TokenSpan& span = spans[i];
    absl::string_view word =
        text.substr(span.start_byte, span.end_byte - span.start_byte);
    if (span.inner_emphasis) {
      unmarked.assign(word.data(), word.size());
      std::erase(unmarked, '*');
      word = unmarked;
    }
    if (span.start_byte > 0 && text[span.start_byte - 1] == '\\' &&
        !IsGreekLetterName(word)) {
      if (chain_parts > 0) end_chain();
      continue;  // A LaTeX command such as \times or \textbf: markup.
    }
    if (IsAcronymPlural(word)) word.remove_suffix(1);  // "SNNs" -> "SNN".
    if (word.size() > kMaxTermBytes) {
      if (chain_parts > 0) end_chain();
      ++position;  // Not a word (a pasted blob): keep phrases from spanning it.
      continue;
    }
    // ASCII words (most) are folded only when needed: the stem cache takes
    // them as written.
    const bool ascii = IsAscii(word);
    std::string folded;
    if (!ascii) {
      folded = CachedFoldForMatching(word);
      if (folded.empty()) {
        if (chain_parts > 0) end_chain();
        continue;
      }
    }
    // Chains are rare: only their tokens pay for them.
    if (chain_parts > 0 && !span.after_hyphen) end_chain();
    const bool in_chain =
        chain_parts > 0 || (i + 1 < spans.size() && spans[i + 1].after_hyphen);
    std::vector<size_t> cuts;
    if (ascii) {
      // Letters and digits run together ("ResNet18", "Wikitext2", the
      // "32B" of "FLAN-MoE-32B"): indexed like "ResNet-18", as parts, plus
      // the whole outside a hyphen chain (inside one, the chain's joined
      // token stands for it). ASCII words only, so that the parts' offsets
      // are the word's.
      cuts = LetterDigitCuts(word);
      if (cuts.size() >= kMaxCompoundParts) cuts.clear();
      if (cuts.empty() && !in_chain) {
        AnalyzedToken& token = tokens.emplace_back();
        set_term(token, Stem(word));
        token.start_byte = span.start_byte;
        token.end_byte = span.end_byte;
        token.position = position++;
        continue;
      }
    }
    if (ascii) folded = AsciiLower(word);
    if (in_chain) {
      if (chain_parts == 0) chain_first = tokens.size();
      ++chain_parts;
      chain_end = span.end_byte;
      if (chain_parts <= kMaxCompoundParts) chain_joined += folded;
      if (chain_parts == 1) chain_head_bytes = chain_joined.size();
    }
    if (!cuts.empty()) {
      cuts.push_back(folded.size());
      size_t from = 0;
      const uint32_t first_position = position;
      for (size_t k = 0; k < cuts.size(); ++k) {
        // A part is read as the word it would be alone ("gmlwns" of
        // "gmlwns2000" as "gmlwns": an acronym plural).
        absl::string_view part =
            absl::string_view(folded).substr(from, cuts[k] - from);
        absl::string_view written = word.substr(from, cuts[k] - from);
        if (IsAcronymPlural(written)) part.remove_suffix(1);
        AnalyzedToken& token = tokens.emplace_back();
        set_term(token, Stem(part));
        token.start_byte = span.start_byte + static_cast<uint32_t>(from);
        // The last part ends where the word does: with an acronym plural's
        // 's' ("A100s"), which the parts leave out.
        token.end_byte = k + 1 == cuts.size()
                             ? span.end_byte
                             : span.start_byte + static_cast<uint32_t>(cuts[k]);
        token.position = position++;
        const Stemmed* whole_term =
            k == 0 && !in_chain ? &Stem(folded) : nullptr;
        if (whole_term != nullptr && whole_term->id != token.term_id) {
          AnalyzedToken& whole = tokens.emplace_back();
          set_term(whole, *whole_term);
          whole.start_byte = span.start_byte;
          whole.end_byte = span.end_byte;
          whole.position = first_position;
          whole.compound = true;
          whole.form_id = kNoTermId;
        }
        from = cuts[k];
      }
      continue;
    }
    AnalyzedToken& token = tokens.emplace_back();
    set_term(token, Stem(folded));
    token.start_byte = span.start_byte;
    token.end_byte = span.end_byte;
    token.position = position++;
  }
  if (chain_parts > 0) end_chain();
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
