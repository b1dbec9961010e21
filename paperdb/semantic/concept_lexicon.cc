#include "paperdb/semantic/concept_lexicon.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "paperdb/text/british_spelling.h"
#include "paperdb/text/english_words.h"
#include "paperdb/text/stopwords.h"
#include "paperdb/text/word_forms.h"

namespace paperdb::semantic {
namespace internal {
extern const char kConceptList[];  // concepts.txt (concept_list.cc).
}  // namespace internal

namespace {

bool IsIdCharacter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

std::string ConceptTerm(absl::string_view id) {
  return absl::StrCat("\x04", id);
}

std::string IndexedThesaurus(absl::string_view text) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    const absl::string_view stripped = absl::StripAsciiWhitespace(line);
    if (stripped.empty() || stripped[0] == '#') continue;
    for (char c : line) {
      if (c != '~') out.push_back(c);
    }
    out.push_back('\n');
  }
  return out;
}

const ConceptLexicon& ConceptLexicon::Default() {
  static const ConceptLexicon* const lexicon = [] {
    absl::StatusOr<ConceptLexicon> parsed = Parse(internal::kConceptList);
    if (!parsed.ok()) {
      std::fprintf(stderr, "paperdb: concepts.txt: %s\n",
                   parsed.status().ToString().c_str());
      std::abort();
    }
    return new ConceptLexicon(*std::move(parsed));
  }();
  return *lexicon;
}

absl::StatusOr<ConceptLexicon> ConceptLexicon::Parse(absl::string_view text) {
  ConceptLexicon lexicon;
  // Analyzed by an analyzer of its own: term ids are not needed, and the
  // thread's analyzer keeps its term epoch.
  absl::StatusOr<std::unique_ptr<text::Analyzer>> analyzer =
      text::Analyzer::Create();
  if (!analyzer.ok()) return analyzer.status();
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    auto error = [&](absl::string_view what) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", line_number, ": ", what));
    };
    const size_t tab = line.find('\t');
    if (tab == absl::string_view::npos) {
      return error("expected 'id TAB term | term ...'");
    }
    const absl::string_view id =
        absl::StripAsciiWhitespace(line.substr(0, tab));
    if (id.empty() || !std::all_of(id.begin(), id.end(), IsIdCharacter)) {
      return error(absl::StrCat("concept id '", id,
                                "' is not lower-case letters, digits and _"));
    }
    const uint32_t concept_index = static_cast<uint32_t>(lexicon.ids_.size());
    if (!lexicon.index_of_.emplace(std::string(id), concept_index).second) {
      return error(absl::StrCat("concept id '", id, "' is used twice"));
    }
    lexicon.ids_.emplace_back(id);
    std::vector<std::vector<std::string>>& stems =
        lexicon.stems_.emplace_back();
    std::vector<std::string>& written = lexicon.terms_.emplace_back();
    absl::flat_hash_set<std::vector<std::string>> seen;
    for (absl::string_view term : absl::StrSplit(line.substr(tab + 1), '|')) {
      term = absl::StripAsciiWhitespace(term);
      const bool narrower = absl::ConsumePrefix(&term, "~");
      if (term.empty()) return error("empty term");
      if (term.find('~') != absl::string_view::npos) {
        return error(absl::StrCat("term '", term,
                                  "' holds a '~' other than a leading one"));
      }
      if (narrower && written.empty()) {
        return error(absl::StrCat(
            "term '", term, "' names the concept and cannot be narrower"));
      }
      std::vector<std::string> words, folded, joiners;
      std::string joiner;          // Stopwords since the last content word.
      bool edge_stopword = false;  // A stopword before or after all words.
      uint32_t last_position = UINT32_MAX;
      for (const text::AnalyzedToken& token : (*analyzer)->Analyze(term)) {
        if (token.position == last_position) continue;  // Joined compound.
        last_position = token.position;
        const std::string word = text::Analyzer::FoldForMatching(
            term.substr(token.start_byte, token.end_byte - token.start_byte));
        // Content words are matched: a query's parser drops stopwords, so
        // "chain of thought" is typed as "chain thought". In abstracts the
        // stopwords between them must be the term's (MatchTokens()).
        if (token.stopword) {
          if (words.empty()) edge_stopword = true;
          if (!words.empty())
            absl::StrAppend(&joiner, joiner.empty() ? "" : " ", word);
          continue;
        }
        if (!words.empty()) joiners.push_back(std::exchange(joiner, ""));
        words.push_back(token.term);
        folded.push_back(word);
      }
      if (words.empty()) {
        return error(
            absl::StrCat("term '", term, "' has no words but stopwords"));
      }
      // "why" alone would make every question name the concept.
      if (std::all_of(folded.begin(), folded.end(), [](const std::string& w) {
            return text::IsFunctionWord(w);
          })) {
        return error(
            absl::StrCat("term '", term, "' has no words but function words"));
      }
      // "at scale" would match every "scale" and "scaling": the stopwords
      // at a term's edges are not matched, so they cannot narrow one word.
      if (words.size() == 1 && (edge_stopword || !joiner.empty())) {
        return error(absl::StrCat("term '", term, "' matches as the one word '",
                                  folded[0],
                                  "': its stopwords at the edges are not "
                                  "matched"));
      }
      if (words.size() > kMaxConceptTermWords) {
        return error(absl::StrCat("term '", term, "' has more than ",
                                  kMaxConceptTermWords, " words"));
      }
      if (words.size() == 1) {
        lexicon.one_word_terms_[words[0]].push_back(folded[0]);
      }
      // An acronym or a mixed-case name that spells an English word
      // ("ZeRO", "CLIP", "CoT") names the concept in an abstract only as
      // written: "non-zero" and "clipped" do not.
      std::string cased;
      if (words.size() == 1 && term.size() > 1 &&
          std::any_of(term.begin() + 1, term.end(), absl::ascii_isupper) &&
          text::IsEnglishWord(folded[0])) {
        cased = std::string(term);
      }
      // A term of the stems of an earlier one adds nothing ("LLMs" after
      // "LLM"): it matches where that one does, as that one's inflections.
      if (!seen.insert(words).second) continue;
      stems.push_back(words);
      written.emplace_back(term);
      lexicon.by_first_[words[0]].push_back({words, folded, concept_index,
                                             std::move(joiners), narrower,
                                             std::move(cased)});
    }
  }
  for (auto& [first, entries] : lexicon.by_first_) {
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& a, const Entry& b) {
                       return a.stems.size() > b.stems.size();
                     });
  }
  return lexicon;
}

bool ConceptLexicon::IsOneWordTerm(absl::string_view folded,
                                   absl::string_view stem) const {
  auto found = one_word_terms_.find(stem);
  if (found == one_word_terms_.end()) return false;
  return std::any_of(
      found->second.begin(), found->second.end(), [&](const std::string& word) {
        return word == folded || text::AreInflections(folded, word);
      });
}

int64_t ConceptLexicon::Find(absl::string_view id) const {
  auto it = index_of_.find(id);
  return it == index_of_.end() ? -1 : static_cast<int64_t>(it->second);
}

std::vector<ConceptMention> ConceptLexicon::MatchQuery(
    const std::vector<std::string>& words, const SurfaceFn& surface) const {
  const std::vector<absl::string_view> views(words.begin(), words.end());
  return MatchEntries(absl::MakeConstSpan(views), surface, 0, nullptr,
                      /*with_narrower=*/false);
}

std::vector<ConceptMention> ConceptLexicon::Match(
    absl::Span<const absl::string_view> terms, const SurfaceFn& surface,
    uint32_t first_position, const SurfaceFn& joiner) const {
  return MatchEntries(terms, surface, first_position, joiner,
                      /*with_narrower=*/true);
}

std::vector<ConceptMention> ConceptLexicon::MatchEntries(
    absl::Span<const absl::string_view> terms, const SurfaceFn& surface,
    uint32_t first_position, const SurfaceFn& joiner, bool with_narrower,
    const std::vector<bool>* written_as_is, const SurfaceFn* written) const {
  std::vector<ConceptMention> mentions;
  // Folded words, computed only where a term's stems match.
  std::vector<std::string> surfaces(terms.size());
  std::vector<bool> known(terms.size(), false);
  auto same_words = [&](const Entry& entry, size_t i) {
    if (!entry.cased.empty() && written != nullptr) {
      const std::string as_written = (*written)(i);
      if (as_written != entry.cased &&
          as_written != absl::StrCat(entry.cased, "s")) {
        return false;
      }
    }
    for (size_t k = 0; k < entry.words.size(); ++k) {
      if (!known[i + k]) {
        surfaces[i + k] = surface(i + k);
        // A British spelling is its American word, as the analyzer reads
        // it ("regularisation" names regularization).
        std::string american = text::AmericanSpelling(surfaces[i + k]);
        if (!american.empty()) surfaces[i + k] = std::move(american);
        known[i + k] = true;
      }
      if (surfaces[i + k].empty()) continue;
      if (written_as_is != nullptr && (*written_as_is)[i + k]
              ? surfaces[i + k] != entry.words[k]
              : !text::AreInflections(entry.words[k], surfaces[i + k])) {
        return false;
      }
    }
    return true;
  };
  auto same_joiners = [&](const Entry& entry, size_t i) {
    for (size_t k = 1; k < entry.stems.size(); ++k) {
      if (joiner(i + k) != entry.joiners[k - 1]) return false;
    }
    return true;
  };
  for (size_t i = 0; i < terms.size(); ++i) {
    if (terms[i].empty()) continue;
    auto it = by_first_.find(terms[i]);
    if (it == by_first_.end()) continue;
    const size_t first_mention = mentions.size();
    for (const Entry& entry : it->second) {
      if ((entry.narrower && !with_narrower) ||
          i + entry.stems.size() > terms.size() ||
          !std::equal(entry.stems.begin(), entry.stems.end(),
                      terms.begin() + static_cast<ptrdiff_t>(i)) ||
          !same_words(entry, i) || (joiner && !same_joiners(entry, i))) {
        continue;
      }
      // Longest first: a concept already found here keeps that one.
      bool found = false;
      for (size_t m = first_mention; m < mentions.size(); ++m) {
        found |= mentions[m].concept_index == entry.concept_index;
      }
      if (found) continue;
      mentions.push_back({entry.concept_index,
                          first_position + static_cast<uint32_t>(i),
                          static_cast<uint32_t>(entry.stems.size())});
    }
  }
  return mentions;
}

namespace {

// True if `gap`, the text between two words, keeps them together in a
// concept's term: white space, hyphens and slashes only ("key/value",
// "multi-head").
bool IsWordGap(absl::string_view gap) {
  for (size_t i = 0; i < gap.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(gap[i]);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '-' ||
        c == '/') {
      continue;
    }
    // U+2010 HYPHEN and U+2011 NON-BREAKING HYPHEN: E2 80 90 / 91.
    if (c == 0xE2 && i + 2 < gap.size() &&
        static_cast<unsigned char>(gap[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(gap[i + 2]) == 0x90 ||
         static_cast<unsigned char>(gap[i + 2]) == 0x91)) {
      i += 2;
      continue;
    }
    return false;
  }
  return true;
}

// True if `gap` is one hyphen (ASCII, U+2010 or U+2011).
bool IsHyphen(absl::string_view gap) {
  return gap == "-" || gap == "\u2010" || gap == "\u2011";
}

}  // namespace

std::vector<ConceptMention> ConceptLexicon::MatchTokens(
    absl::string_view text,
    absl::Span<const text::AnalyzedToken> tokens) const {
  auto fold = [text](const text::AnalyzedToken& token) {
    return text::Analyzer::FoldForMatching(
        text.substr(token.start_byte, token.end_byte - token.start_byte));
  };
  // Content words in order (stopwords skipped, as in terms); joined
  // compounds matched alone.
  std::vector<absl::string_view> words;
  std::vector<const text::AnalyzedToken*> word_tokens;
  std::vector<std::string> joiners;  // Before each of `words`.
  // A word hyphened to a particle is part of a phrasal noun and names a
  // concept only as written: "trade-off" is not "trading", though
  // "trade" and "trading" are one word inflected.
  std::vector<bool> written_as_is;
  std::string joiner;
  bool parted = false;  // Punctuation since the last word.
  uint32_t last_end = 0;
  std::vector<ConceptMention> mentions;
  for (const text::AnalyzedToken& token : tokens) {
    if (token.compound) {
      if (!by_first_.contains(token.term)) continue;
      std::string folded = fold(token);
      // The joined form: "hyper-graph" is "hypergraph".
      folded.erase(std::remove(folded.begin(), folded.end(), '-'),
                   folded.end());
      const absl::string_view term = token.term;
      for (ConceptMention m : Match(
               absl::MakeConstSpan(&term, 1), [&](size_t) { return folded; },
               token.position)) {
        mentions.push_back(m);
      }
      continue;
    }
    const absl::string_view gap =
        token.start_byte > last_end
            ? text.substr(last_end, token.start_byte - last_end)
            : absl::string_view();
    if (!words.empty() && !gap.empty()) parted |= !IsWordGap(gap);
    last_end = token.end_byte;
    if (!words.empty() && joiner.empty() && !parted && IsHyphen(gap) &&
        text::IsParticle(fold(token))) {
      written_as_is.back() = true;
    }
    if (token.stopword) {
      absl::StrAppend(&joiner, joiner.empty() ? "" : " ", fold(token));
      continue;
    }
    joiners.push_back(parted ? std::string(kJoinerBreak)
                             : std::exchange(joiner, ""));
    joiner.clear();
    parted = false;
    words.push_back(token.term);
    word_tokens.push_back(&token);
    written_as_is.push_back(false);
  }
  const SurfaceFn as_written = [&](size_t i) {
    const text::AnalyzedToken& token = *word_tokens[i];
    return std::string(
        text.substr(token.start_byte, token.end_byte - token.start_byte));
  };
  std::vector<ConceptMention> runs = MatchEntries(
      absl::MakeConstSpan(words),
      [&](size_t i) { return fold(*word_tokens[i]); }, 0,
      [&](size_t i) { return joiners[i]; }, /*with_narrower=*/true,
      &written_as_is, &as_written);
  for (ConceptMention& m : runs) {
    m.position = word_tokens[m.position]->position;  // Index -> position.
    mentions.push_back(m);
  }
  std::stable_sort(mentions.begin(), mentions.end(),
                   [](const ConceptMention& a, const ConceptMention& b) {
                     return a.position < b.position;
                   });
  return mentions;
}

}  // namespace paperdb::semantic
