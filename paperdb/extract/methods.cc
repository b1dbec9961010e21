#include "paperdb/extract/methods.h"

#include <algorithm>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "paperdb/extract/acronyms.h"
#include "paperdb/extract/name_shape.h"

namespace paperdb::extract {
namespace {

// How far after a trigger word "(ACRONYM)" may close a long name, in words.
constexpr size_t kMaxLongNameWords = 12;

struct Word {
  size_t begin = 0;
  size_t end = 0;
};

std::vector<Word> SplitWords(absl::string_view text) {
  std::vector<Word> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() &&
           absl::ascii_isspace(static_cast<unsigned char>(text[i])))
      ++i;
    const size_t begin = i;
    while (i < text.size() &&
           !absl::ascii_isspace(static_cast<unsigned char>(text[i])))
      ++i;
    if (i > begin) words.push_back({begin, i});
  }
  return words;
}

bool OneOf(absl::string_view word,
           std::initializer_list<absl::string_view> list) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

bool StartsUpper(absl::string_view word) {
  return !word.empty() &&
         absl::ascii_isupper(static_cast<unsigned char>(word[0]));
}

// Ends a sentence or clause: a long name does not run over it.
bool EndsClause(absl::string_view word) {
  const char last = word.back();
  return last == '.' || last == ';' || last == ':' || last == ',' ||
         last == '?' || last == '!';
}

// Nouns that name what kind of thing a method is.
bool IsHeadNoun(absl::string_view word) {
  return OneOf(
      word, {"method",       "approach", "model",     "framework", "algorithm",
             "architecture", "system",   "technique", "variant",   "module",
             "network",      "pipeline", "rule",      "strategy",  "mechanism",
             "layer",        "block",    "estimator", "optimizer", "loss",
             "objective",    "agent",    "library",   "tool"});
}

// Last words of long names that are not methods: "Bin Packing Problem".
bool IsNonMethodHead(absl::string_view word) {
  return OneOf(word,
               {"problem",  "problems",  "task",       "tasks",   "dataset",
                "datasets", "benchmark", "benchmarks", "setting", "metric",
                "metrics",  "score",     "game",       "games",   "corpus",
                "suite",    "challenge", "study",      "theory",  "theorem"});
}

class MethodFinder {
 public:
  explicit MethodFinder(const PlainText& plain)
      : plain_(plain), text_(plain.text), words_(SplitWords(text_)) {}

  std::vector<Mention> Run() {
    for (size_t k = 0; k < words_.size(); ++k) {
      const absl::string_view raw = Raw(k);
      if (EndsClause(raw)) {
        const char last = raw.back();
        if ((last == ',' || last == ':') && k > 0 && Lower(k - 1) == "our" &&
            IsHeadNoun(Lower(k))) {
          TryName(k + 1, /*capitalized_ok=*/true);  // "Our method, FLATTEN,"
        }
        continue;
      }
      // The trigger words below are 5 to 10 letters long and start with one
      // of "cdinpst": most words are not lowered at all.
      const absl::string_view bare = Bare(k);
      if (bare.size() < 5 || bare.size() > 10) continue;
      switch (absl::ascii_tolower(static_cast<unsigned char>(bare[0]))) {
        case 'c':
        case 'd':
        case 'i':
        case 'n':
        case 'p':
        case 's':
        case 't':
          break;
        default:
          continue;
      }
      const std::string word = Lower(k);
      if (OneOf(word,
                {"propose", "proposes", "introduce", "introduces", "present",
                 "presents", "suggest", "suggests", "develop", "develops"})) {
        AfterTrigger(k + 1);
      } else if (OneOf(word, {"named", "called", "dubbed", "termed"})) {
        if (!LongName(k + 1)) TryName(k + 1, /*capitalized_ok=*/true);
      }
    }
    Bold();
    ColonExpansions();
    std::stable_sort(found_.begin(), found_.end(),
                     [](const Mention& a, const Mention& b) {
                       return a.span.begin < b.span.begin;
                     });
    std::vector<Mention> methods;
    absl::flat_hash_set<std::string> seen;
    for (Mention& mention : found_) {
      if (!seen.insert(mention.name).second) continue;
      mention.span = plain_.ToSource(mention.span);
      methods.push_back(std::move(mention));
    }
    return methods;
  }

 private:
  absl::string_view Raw(size_t k) const {
    return text_.substr(words_[k].begin, words_[k].end - words_[k].begin);
  }

  // Word k without surrounding punctuation.
  absl::string_view Bare(size_t k) const {
    absl::string_view w = Raw(k);
    while (!w.empty() &&
           !absl::ascii_isalnum(static_cast<unsigned char>(w.front())))
      w.remove_prefix(1);
    while (!w.empty() &&
           !absl::ascii_isalnum(static_cast<unsigned char>(w.back())))
      w.remove_suffix(1);
    return w;
  }

  // Bare(k), lower case.
  std::string Lower(size_t k) const { return absl::AsciiStrToLower(Bare(k)); }

  // The name token at the start of word k if it looks like a name, with
  // the shape; {} if none. A token with a lower-case last part
  // ("CLIP-guided") is not a name.
  Span NameAt(size_t pos, NameShape* shape) const {
    const Span token = NameTokenAt(text_, pos);
    const absl::string_view name = text_.substr(token.begin, token.size());
    *shape = ClassifyName(name);
    if (*shape == NameShape::kNone) return {};
    const size_t hyphen = name.rfind('-');
    if (hyphen != absl::string_view::npos) {
      const absl::string_view last = name.substr(hyphen + 1);
      if (last.size() >= 3 && std::all_of(last.begin(), last.end(), [](char c) {
            return absl::ascii_islower(static_cast<unsigned char>(c));
          })) {
        *shape = NameShape::kNone;
        return {};
      }
    }
    return token;
  }

  void Add(Span span) {
    found_.push_back(
        {std::string(text_.substr(span.begin, span.size())), span});
  }

  // A name at the start of word k: kName always, kCapitalized only when
  // `capitalized_ok` and ',' or ':' follows it.
  bool TryName(size_t k, bool capitalized_ok) {
    if (k >= words_.size()) return false;
    NameShape shape;
    const Span token = NameAt(words_[k].begin, &shape);
    if (token.size() == 0) return false;
    if (shape == NameShape::kCapitalized) {
      const char next = token.end < text_.size() ? text_[token.end] : ' ';
      if (!capitalized_ok || (next != ',' && next != ':')) return false;
    }
    if (IntroducedAsData(token.end)) return false;
    Add(token);
    return true;
  }

  // True if ", a [new] benchmark|dataset|evaluation|..." follows byte `end`:
  // the name is data, which FindDatasets() reports.
  bool IntroducedAsData(size_t end) const {
    if (end + 2 >= text_.size() || text_[end] != ',') return false;
    // The first word after `end` (words are in order).
    const size_t k =
        static_cast<size_t>(std::upper_bound(words_.begin(), words_.end(), end,
                                             [](size_t at, const Word& w) {
                                               return at < w.begin;
                                             }) -
                            words_.begin());
    if (k >= words_.size() || (Lower(k) != "a" && Lower(k) != "an")) {
      return false;
    }
    for (size_t j = k + 1; j < words_.size() && j <= k + 3; ++j) {
      if (OneOf(Lower(j),
                {"benchmark", "dataset", "evaluation", "corpus", "testbed"})) {
        // The head of the noun phrase: "a new evaluation to measure", not
        // "an evaluation strategy".
        return EndsClause(Raw(j)) || j + 1 >= words_.size() ||
               OneOf(Lower(j + 1), {"to", "for", "of", "that", "which", "with",
                                    "on", "in", "and", "where"});
      }
      if (EndsClause(Raw(j))) break;
    }
    return false;
  }

  // After "we propose": "X", "the X <head noun>", "[a] Long Name (X)",
  // "a ... framework, X" and "a ... rule, Long Name (X)".
  void AfterTrigger(size_t k) {
    if (k >= words_.size()) return;
    const std::string first = Lower(k);
    if (first == "a" || first == "an" || first == "the") {
      size_t j = k + 1;
      while (j < words_.size() &&
             OneOf(Lower(j),
                   {"novel", "new", "simple", "general", "unified", "efficient",
                    "effective", "principled", "lightweight", "scalable",
                    "generic", "practical", "first"})) {
        ++j;
      }
      if (j >= words_.size()) return;
      if (first == "the" && !EndsClause(Raw(j)) && j + 1 < words_.size() &&
          IsHeadNoun(Lower(j + 1))) {
        NameShape shape;
        const Span token = NameAt(words_[j].begin, &shape);
        if (shape == NameShape::kName && token.end == words_[j].end) {
          Add(token);
          return;
        }
      }
      if (LongName(j)) return;
      Appositive(j);
      return;
    }
    if (LongName(k)) return;
    TryName(k, /*capitalized_ok=*/true);
  }

  // "... framework, X," or "... rule, Long Name (X)" within the clause that
  // starts at word k.
  void Appositive(size_t k) {
    for (size_t j = k; j < words_.size() && j < k + kMaxLongNameWords; ++j) {
      const absl::string_view raw = Raw(j);
      if (raw.back() != ',') {
        if (EndsClause(raw)) return;
        continue;
      }
      if (!IsHeadNoun(Lower(j)) || j + 1 >= words_.size()) return;
      if (!LongName(j + 1)) {
        NameShape shape;
        const Span token = NameAt(words_[j + 1].begin, &shape);
        const char next = token.end < text_.size() ? text_[token.end] : ' ';
        if (shape == NameShape::kName && (next == ',' || next == '.')) {
          Add(token);
        }
      }
      return;
    }
  }

  // "Long Name (X)" starting at word k: k starts with a capital, "(X)"
  // closes the clause within kMaxLongNameWords, X is one name token. True if
  // such a parenthesis was found, even when rejected (a "Problem").
  bool LongName(size_t k) {
    if (k >= words_.size() || !StartsUpper(Raw(k))) return false;
    for (size_t j = k + 1; j < words_.size() && j <= k + kMaxLongNameWords;
         ++j) {
      if (EndsClause(Raw(j - 1))) return false;
      const absl::string_view raw = Raw(j);
      if (raw.front() != '(') continue;
      const size_t open = words_[j].begin;
      // A name token, so the ')' is near: a bounded search keeps text with
      // many unclosed parentheses linear.
      constexpr size_t kMaxNameBytes = 64;
      const size_t close =
          text_.substr(0, open + kMaxNameBytes).find(')', open);
      if (close == absl::string_view::npos) return false;
      NameShape shape;
      const Span token = NameAt(open + 1, &shape);
      if (shape != NameShape::kName || token.end != close) return false;
      if (!IsNonMethodHead(Lower(j - 1))) Add(token);
      return true;
    }
    return false;
  }

  // "**X**" and "\textbf{X}" where X is one name token.
  void Bold() {
    for (const Span bold : plain_.bold) {
      NameShape shape;
      const Span token = NameAt(bold.begin, &shape);
      if (token.size() == 0 || token.end != bold.end) continue;
      const auto alnum_at = [this](size_t i) {
        return i < text_.size() &&
               absl::ascii_isalnum(static_cast<unsigned char>(text_[i]));
      };
      if ((bold.begin > 0 && alnum_at(bold.begin - 1)) || alnum_at(bold.end)) {
        continue;  // Part of a word: "**A**UEL".
      }
      Add(token);
    }
  }

  // "X: a ..." and "X: Expansion Of X", X a kName token.
  void ColonExpansions() {
    for (size_t k = 0; k + 1 < words_.size(); ++k) {
      const absl::string_view raw = Raw(k);
      if (raw.size() < 3 || raw.back() != ':') continue;
      NameShape shape;
      const Span token = NameAt(words_[k].begin, &shape);
      if (shape != NameShape::kName || token.end + 1 != words_[k].end) {
        continue;
      }
      const absl::string_view next = Raw(k + 1);
      if (next == "a" || next == "an") {
        Add(token);
        continue;
      }
      // The expansion: the next words up to a clause end.
      const size_t begin = words_[k + 1].begin;
      size_t end = begin;
      for (size_t j = k + 1; j < words_.size() && j <= k + kMaxLongNameWords;
           ++j) {
        end = words_[j].end;
        if (EndsClause(Raw(j))) break;
      }
      const absl::string_view name = text_.substr(token.begin, token.size());
      if (StartsUpper(Raw(k + 1)) &&
          internal::BestLongFormStart(name, text_.substr(begin, end - begin)) ==
              0) {
        Add(token);
      }
    }
  }

  const PlainText& plain_;
  absl::string_view text_;
  std::vector<Word> words_;
  std::vector<Mention> found_;  // Plain-text spans until Run() maps them.
};

}  // namespace

std::vector<Mention> FindMethods(absl::string_view text) {
  return FindMethods(StripMarkup(text));
}

std::vector<Mention> FindMethods(const PlainText& plain) {
  return MethodFinder(plain).Run();
}

}  // namespace paperdb::extract
