#include "paperdb/search/query_expander.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/field_terms.h"
#include "paperdb/index/posting_iterator.h"
#include "paperdb/index/terms_cache.h"
#include "paperdb/index/varint.h"
#include "paperdb/search/keep_rarest.h"
#include "paperdb/search/request_frame.h"
#include "paperdb/search/spelling_corrector.h"
#include "paperdb/search/surface_words.h"
#include "paperdb/search/word_form_expander.h"
#include "paperdb/search/word_form_iterator.h"
#include "paperdb/semantic/concept_lexicon.h"
#include "paperdb/storage/keys.h"
#include "paperdb/storage/paper_table.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/text/english_words.h"
#include "paperdb/text/stopwords.h"

namespace paperdb::search {
namespace {

// Adds every term of `node` and its children to `terms`.
void AddTerms(const QueryNode& node, absl::flat_hash_set<std::string>* terms) {
  for (const std::string& term : node.terms) terms->insert(term);
  for (const QueryNode& child : node.children) AddTerms(child, terms);
}

using Kind = QueryNode::Kind;

// Terms scanned per prefix.
constexpr size_t kMaxScannedTerms = 200000;

using index::ParseDocumentFrequency;
using index::TermDf;

// Every stored term starting with `prefix`, up to `limit` of them.
absl::StatusOr<std::vector<TermDf>> ScanTerms(const storage::Store& store,
                                              absl::string_view prefix,
                                              size_t limit) {
  return index::TermsCache::Default().Scan(store, prefix, limit);
}

QueryNode TermNode(std::string term, uint32_t position) {
  QueryNode node;
  node.kind = Kind::kTerm;
  node.terms.push_back(std::move(term));
  node.position = position;
  return node;
}

QueryNode OrNode(std::vector<QueryNode> children, bool dismax,
                 uint32_t position, bool excluded) {
  QueryNode node;
  node.kind = Kind::kOr;
  node.dismax = dismax;
  node.children = std::move(children);
  node.position = position;
  node.excluded = excluded;
  return node;
}

class Expander {
 public:
  Expander(const storage::Store& store, const CancelFn& cancelled)
      : store_(store), cancelled_(cancelled) {}

  // A rewrite of `first` through `last` (siblings, in query order): its
  // original is their words as typed, or `fallback` for nodes not read from
  // the query text.
  QueryRewrite Rewrite(QueryRewrite::Kind kind, const QueryNode& first,
                       const QueryNode& last, std::string fallback,
                       std::vector<std::string> replacements) const {
    QueryRewrite rewrite{kind, std::move(fallback), first.position,
                         std::move(replacements)};
    if (const auto typed = TypedTextOf(text_, first, last)) {
      rewrite.original = std::string(typed->text);
      rewrite.position = typed->position;
    }
    return rewrite;
  }

  absl::StatusOr<ExpandedQuery> Run(Query query) {
    text_ = query.text;
    if (!query.unread.empty()) {
      // Only what the query searches for nowhere else was dropped, once
      // each: a long query repeating its words loses nothing by the limit.
      absl::flat_hash_set<std::string> searched;
      AddTerms(query.root, &searched);
      QueryRewrite dropped{QueryRewrite::Kind::kDropped, "", 0, {}};
      for (std::string& term : query.unread) {
        if (searched.insert(term).second) {
          dropped.replacements.push_back(std::move(term));
        }
      }
      if (!dropped.replacements.empty())
        rewrites_.push_back(std::move(dropped));
      query.unread.clear();
    }
    // A word alone is told from the other words of its stem; beside other
    // words, which set the context, its stem's other words are mostly the
    // same concept in another part of speech ("predicting" for
    // "prediction") and count in full (docs/relevance.md).
    for (const std::vector<QueryNode>& run : DropRequestFrame(&query.root)) {
      std::vector<std::string> words;
      for (const QueryNode& node : run) words.push_back(node.word);
      rewrites_.push_back(Rewrite(QueryRewrite::Kind::kDropped, run.front(),
                                  run.back(), "", std::move(words)));
    }
    word_alone_ = ScoredUnits(query.root) == 1;
    PAPERDB_RETURN_IF_ERROR(JoinAdjacentWords(&query.root));
    PAPERDB_RETURN_IF_ERROR(Expand(&query.root));
    PAPERDB_RETURN_IF_ERROR(ExpandExpansions(&query.root));
    PAPERDB_RETURN_IF_ERROR(
        KeepRarestWords(store_, &query.root, &dfs_, &rewrites_));
    // Prefix expansions are stems: show words instead (Corrections() shows
    // its own).
    for (QueryRewrite& rewrite : rewrites_) {
      if (rewrite.kind != QueryRewrite::Kind::kPrefix) continue;
      PAPERDB_ASSIGN_OR_RETURN(
          rewrite.replacements,
          SurfaceWords(store_, rewrite.replacements, cancelled_));
    }
    return ExpandedQuery{std::move(query), std::move(rewrites_)};
  }

 private:
  absl::StatusOr<uint32_t> Df(const std::string& term) {
    return DocumentFrequency(store_, term);
  }

  absl::Status Expand(QueryNode* node) {
    switch (node->kind) {
      case Kind::kAnd:
      case Kind::kOr: {
        // Words inside an exclusion are excluded as typed: a correction
        // there would drop papers the user never named.
        const bool outer = in_exclusion_;
        in_exclusion_ = in_exclusion_ || node->excluded;
        for (QueryNode& child : node->children) {
          if (absl::Status s = Expand(&child); !s.ok()) {
            in_exclusion_ = outer;
            return s;
          }
        }
        in_exclusion_ = outer;
        return absl::OkStatus();
      }
      case Kind::kPhrase:
        return absl::OkStatus();
      case Kind::kField:
        return ExpandField(node);
      case Kind::kPrefix:
        return ExpandPrefix(node);
      case Kind::kTerm:
        return ExpandTerm(node);
    }
    return absl::OkStatus();
  }

  // A kField's `terms` become the field terms it matches.
  absl::Status ExpandField(QueryNode* node) {
    std::vector<TermDf> found;
    if (node->field == index::kYearField) {
      PAPERDB_ASSIGN_OR_RETURN(
          found, ScanTerms(store_, index::FieldPrefix(node->field), 10000));
      std::erase_if(found, [&](const TermDf& t) {
        index::FieldTermParts parts;
        return !index::ParseFieldTerm(t.term, &parts) ||
               parts.key < node->value || parts.key > node->value_end;
      });
    } else {
      PAPERDB_ASSIGN_OR_RETURN(
          found,
          ScanTerms(store_, index::FieldTermPrefix(node->field, node->value),
                    1000));
      // A method or dataset name no paper names as written is the family of
      // its numbered variants: `dataset:WikiText` is WikiText-2 and
      // WikiText-103, `method:ResNet` ResNet-18 and ResNet-50 (their keys
      // go on with a digit), not ImageNet for `dataset:Image`.
      if (found.empty() && (node->field == index::kDatasetField ||
                            node->field == index::kMethodField)) {
        PAPERDB_ASSIGN_OR_RETURN(
            found, ScanTerms(store_,
                             absl::StrCat(index::FieldPrefix(node->field),
                                          node->value),
                             1000));
        std::erase_if(found, [&](const TermDf& t) {
          index::FieldTermParts parts;
          return !index::ParseFieldTerm(t.term, &parts) ||
                 parts.key.size() <= node->value.size() ||
                 !absl::ascii_isdigit(parts.key[node->value.size()]);
        });
      }
    }
    node->terms.clear();
    for (TermDf& t : found) node->terms.push_back(std::move(t.term));
    return absl::OkStatus();
  }

  absl::Status ExpandPrefix(QueryNode* node) {
    std::vector<TermDf> found;
    for (const std::string& prefix : node->terms) {
      if (IsCancelRequested(cancelled_)) return SearchCancelledError();
      PAPERDB_ASSIGN_OR_RETURN(std::vector<TermDf> more,
                               ScanTerms(store_, prefix, kMaxScannedTerms));
      found.insert(found.end(), std::make_move_iterator(more.begin()),
                   std::make_move_iterator(more.end()));
    }
    if (node->terms.size() > 1) {
      // One prefix may hold another's terms ("learning*" and "learn*"):
      // each term once, in O(n log n) for up to kMaxScannedTerms each.
      std::sort(
          found.begin(), found.end(),
          [](const TermDf& a, const TermDf& b) { return a.term < b.term; });
      found.erase(std::unique(found.begin(), found.end(),
                              [](const TermDf& a, const TermDf& b) {
                                return a.term == b.term;
                              }),
                  found.end());
    }
    if (IsCancelRequested(cancelled_)) return SearchCancelledError();
    // Stopwords would make `a*` match every paper.
    std::erase_if(found,
                  [](const TermDf& t) { return text::IsStopword(t.term); });
    std::sort(found.begin(), found.end(), [](const TermDf& a, const TermDf& b) {
      return a.df > b.df || (a.df == b.df && a.term < b.term);
    });
    const size_t budget =
        kMaxExpandedTerms - std::min(kMaxExpandedTerms, prefix_terms_);
    found.resize(std::min({found.size(), kMaxPrefixTerms, budget}));
    prefix_terms_ += found.size();
    QueryRewrite rewrite = Rewrite(QueryRewrite::Kind::kPrefix, *node, *node,
                                   node->terms[0] + "*", {});
    std::vector<QueryNode> children;
    for (TermDf& t : found) {
      rewrite.replacements.push_back(t.term);
      children.push_back(TermNode(std::move(t.term), node->position));
    }
    rewrites_.push_back(std::move(rewrite));
    *node = OrNode(std::move(children), true, node->position, node->excluded);
    return absl::OkStatus();
  }

  // Two adjacent words a paper writes as one ("ice former": "IceFormer",
  // "Dream Clean": "DreamClean"), as Meilisearch concatenates consecutive
  // query words: in the query's conjunction, two plain words (not excluded
  // or quoted) whose joined form, folded and stemmed, some paper holds
  // become one group: both words, or the joined one, the better scored
  // (searcher.h's disjunction max). A kJoined rewrite says so.
  absl::Status JoinAdjacentWords(QueryNode* root) {
    if (root->kind != Kind::kAnd) return absl::OkStatus();
    std::vector<QueryNode>& c = root->children;
    auto plain = [](const QueryNode& n) {
      return n.kind == Kind::kTerm && !n.excluded && !n.surface_only &&
             !n.word.empty() && n.terms.size() == 1;
    };
    for (size_t k = 0; k + 1 < c.size(); ++k) {
      if (!plain(c[k]) || !plain(c[k + 1])) continue;
      const std::string joined = absl::StrCat(c[k].word, c[k + 1].word);
      const std::vector<text::AnalyzedToken> tokens =
          text::ThreadLocalAnalyzer().Analyze(joined);
      if (tokens.size() != 1 || tokens[0].stopword) continue;
      PAPERDB_ASSIGN_OR_RETURN(const uint32_t df, Df(tokens[0].term));
      if (df == 0) continue;
      rewrites_.push_back(Rewrite(QueryRewrite::Kind::kJoined, c[k], c[k + 1],
                                  joined, {text::Analyzer::Fold(joined)}));
      const uint32_t position = c[k].position;
      QueryNode both;
      both.kind = Kind::kAnd;
      both.position = position;
      both.children.push_back(std::move(c[k]));
      both.children.push_back(std::move(c[k + 1]));
      std::vector<QueryNode> alternatives;
      alternatives.push_back(std::move(both));
      alternatives.push_back(TermNode(tokens[0].term, position));
      c[k] = OrNode(std::move(alternatives), true, position, false);
      c.erase(c.begin() + static_cast<std::ptrdiff_t>(k) + 1);
    }
    return absl::OkStatus();
  }

  absl::Status ExpandTerm(QueryNode* node) {
    if (IsCancelRequested(cancelled_)) return SearchCancelledError();
    PAPERDB_ASSIGN_OR_RETURN(const uint32_t df, Df(node->terms[0]));
    dfs_[node->terms[0]] = df;
    // An excluded word excludes the word and its inflections, as a quoted
    // one matches them: "-transformer" keeps papers writing only
    // "transformations".
    if (!node->surface.empty() && (node->excluded || in_exclusion_)) {
      node->surface_only = true;
    }
    if (df > 0 && !node->surface.empty() &&
        (word_alone_ || node->surface_only)) {
      PAPERDB_ASSIGN_OR_RETURN(WordFormResolution forms,
                               ResolveWordForms(store_, node, df));
      if (!forms.corrected.empty() && !node->excluded) {
        rewrites_.push_back(Rewrite(QueryRewrite::Kind::kSpelling, *node, *node,
                                    node->word, {forms.corrected}));
      }
      // A quoted word does not match the other words: nothing to say.
      if (!forms.other_words.empty() && !node->excluded &&
          !node->surface_only) {
        rewrites_.push_back(
            Rewrite(forms.typed_word_found ? QueryRewrite::Kind::kStem
                                           : QueryRewrite::Kind::kStemOnly,
                    *node, *node, node->surface, std::move(forms.other_words)));
      }
    } else if (df > 0 && !node->surface.empty() && !node->excluded &&
               !text::IsEnglishWord(node->surface)) {
      // Beside other words every word of the stem counts, so a typo that
      // stems like the word ("reinforcment") matches as it; the response
      // still names the word it stands for.
      QueryNode probe = *node;
      PAPERDB_ASSIGN_OR_RETURN(WordFormResolution forms,
                               ResolveWordForms(store_, &probe, df));
      if (!forms.corrected.empty()) {
        rewrites_.push_back(Rewrite(QueryRewrite::Kind::kSpelling, *node, *node,
                                    node->word, {forms.corrected}));
      }
    }
    if (node->word.empty()) return absl::OkStatus();
    std::vector<QueryNode> alternatives;
    // A real English word the corpus lacks ("rewording") is not a typo of
    // a corpus word ("reward"), nor is a word the thesaurus lists as a
    // concept's name ("quantized" is not "quantified"): it stays as typed.
    if (df == 0 && !node->excluded && !in_exclusion_ && !node->concept_word &&
        !semantic::ConceptLexicon::Default().IsOneWordTermStem(
            node->terms[0]) &&
        !text::IsEnglishWord(text::Analyzer::Fold(node->word))) {
      PAPERDB_ASSIGN_OR_RETURN(alternatives, Corrections(*node));
    }
    PAPERDB_RETURN_IF_ERROR(AcronymExpansions(*node, &alternatives));
    if (alternatives.empty()) return absl::OkStatus();
    const uint32_t position = node->position;
    const bool excluded = node->excluded;
    const uint32_t text_begin = node->text_begin, text_end = node->text_end;
    node->excluded = false;
    if (df > 0) alternatives.insert(alternatives.begin(), std::move(*node));
    *node = OrNode(std::move(alternatives), true, position, excluded);
    node->expansion = true;
    node->text_begin = text_begin, node->text_end = text_end;  // As typed.
    return absl::OkStatus();
  }

  absl::StatusOr<std::vector<QueryNode>> Corrections(const QueryNode& node) {
    std::vector<QueryNode> out;
    PAPERDB_ASSIGN_OR_RETURN(
        std::vector<SpellingCorrection> found,
        SpellingCorrections(store_, text::Analyzer::Fold(node.word),
                            node.terms[0], cancelled_));
    if (found.empty()) return out;
    // Shown as the corpus word nearest the one typed, else as a stored
    // abstract writes the stem.
    std::vector<std::string> terms;
    for (const SpellingCorrection& c : found) terms.push_back(c.term);
    PAPERDB_ASSIGN_OR_RETURN(std::vector<std::string> shown,
                             SurfaceWords(store_, terms, cancelled_));
    QueryRewrite rewrite =
        Rewrite(QueryRewrite::Kind::kSpelling, node, node, node.word, {});
    std::vector<QueryRewrite> stem_rewrites;
    for (size_t i = 0; i < found.size(); ++i) {
      rewrite.replacements.push_back(found[i].word.empty() ? std::move(shown[i])
                                                           : found[i].word);
      dfs_[found[i].term] = found[i].df;
      QueryNode corrected = TermNode(std::move(found[i].term), node.position);
      // A corrected word counts as that word typed: alone, its stem's other
      // words are told apart from it as ExpandTerm() tells them apart.
      if (word_alone_ && !found[i].word.empty() && !node.excluded) {
        corrected.surface = found[i].word;
        PAPERDB_ASSIGN_OR_RETURN(
            WordFormResolution forms,
            ResolveWordForms(store_, &corrected, found[i].df));
        if (!forms.other_words.empty()) {
          QueryRewrite stem =
              Rewrite(forms.typed_word_found ? QueryRewrite::Kind::kStem
                                             : QueryRewrite::Kind::kStemOnly,
                      node, node, "", std::move(forms.other_words));
          stem.original = found[i].word;
          stem_rewrites.push_back(std::move(stem));
        }
      }
      out.push_back(std::move(corrected));
    }
    rewrites_.push_back(std::move(rewrite));
    for (QueryRewrite& stem : stem_rewrites)
      rewrites_.push_back(std::move(stem));
    return out;
  }

  // The phrase of the most frequent expansion of `node`'s word, if the
  // corpus defines it as an acronym.
  absl::Status AcronymExpansions(const QueryNode& node,
                                 std::vector<QueryNode>* out) {
    // "Dream" or "clean" typed as words are the English words; "DREAM" is
    // the acronym a paper defines.
    if (text::IsEnglishWord(text::Analyzer::Fold(node.word)) &&
        std::count_if(node.word.begin(), node.word.end(), absl::ascii_isupper) <
            2) {
      return absl::OkStatus();
    }
    PAPERDB_ASSIGN_OR_RETURN(
        std::vector<TermDf> found,
        ScanTerms(store_,
                  index::FieldTermPrefix(index::kAcronymField, node.terms[0]),
                  100));
    if (found.empty()) return absl::OkStatus();
    std::stable_sort(
        found.begin(), found.end(),
        [](const TermDf& a, const TermDf& b) { return a.df > b.df; });
    index::FieldTermParts parts;
    if (!index::ParseFieldTerm(found[0].term, &parts)) return absl::OkStatus();
    QueryNode phrase;
    phrase.kind = Kind::kPhrase;
    phrase.position = node.position;
    uint32_t last = UINT32_MAX;
    for (text::AnalyzedToken& token :
         text::ThreadLocalAnalyzer().Analyze(parts.display)) {
      if (token.position == last) continue;
      last = token.position;
      phrase.terms.push_back(std::move(token.term));
    }
    if (phrase.terms.empty() ||
        (phrase.terms.size() == 1 && phrase.terms[0] == node.terms[0])) {
      return absl::OkStatus();
    }
    if (phrase.terms.size() == 1) phrase.kind = Kind::kTerm;
    phrase.acronym_of = node.terms[0];
    rewrites_.push_back(Rewrite(QueryRewrite::Kind::kAcronym, node, node,
                                node.word, {std::string(parts.display)}));
    out->push_back(std::move(phrase));
    return absl::OkStatus();
  }

  // The term of a conjunction's child that is one plain word (not excluded),
  // or a misspelled word's one correction ("lerning": "learn"); else null.
  static const std::string* PlainTerm(const QueryNode& child) {
    if (child.excluded) return nullptr;
    if (child.kind == Kind::kTerm) return &child.terms[0];
    if (child.kind == Kind::kOr && child.expansion &&
        child.children.size() == 1 && child.children[0].kind == Kind::kTerm &&
        child.children[0].terms.size() == 1) {
      return &child.children[0].terms[0];
    }
    return nullptr;
  }

  // Runs of 2 to 6 consecutive words in a conjunction, or a phrase, that
  // spell a defined expansion also match its acronym.
  absl::Status ExpandExpansions(QueryNode* node) {
    if (node->expansion) return absl::OkStatus();
    if (node->kind == Kind::kOr) {
      for (QueryNode& child : node->children) {
        PAPERDB_RETURN_IF_ERROR(ExpandExpansions(&child));
      }
      return absl::OkStatus();
    }
    if (node->kind == Kind::kPhrase && !node->excluded && node->slop == 0) {
      PAPERDB_ASSIGN_OR_RETURN(std::optional<Acronym> acronym,
                               AcronymOf(node->terms));
      if (acronym.has_value()) {
        rewrites_.push_back(Rewrite(
            QueryRewrite::Kind::kAcronym, *node, *node,
            node->word.empty() ? absl::StrJoin(node->terms, " ") : node->word,
            {acronym->display}));
        const uint32_t position = node->position;
        node->acronym_of = acronym->term;
        std::vector<QueryNode> alternatives;
        alternatives.push_back(std::move(*node));
        alternatives.push_back(TermNode(std::move(acronym->term), position));
        *node = OrNode(std::move(alternatives), true, position, false);
        node->expansion = true;
      }
      return absl::OkStatus();
    }
    if (node->kind != Kind::kAnd) return absl::OkStatus();
    for (QueryNode& child : node->children) {
      if (child.kind != Kind::kTerm) {
        PAPERDB_RETURN_IF_ERROR(ExpandExpansions(&child));
      }
    }
    std::vector<QueryNode>& c = node->children;
    for (size_t i = 0; i < c.size(); ++i) {
      for (size_t n = std::min<size_t>(6, c.size() - i); n >= 2; --n) {
        std::vector<std::string> words;
        for (size_t k = i; k < i + n; ++k) {
          const std::string* term = PlainTerm(c[k]);
          if (term == nullptr) break;
          words.push_back(*term);
        }
        if (words.size() != n) continue;
        PAPERDB_ASSIGN_OR_RETURN(std::optional<Acronym> acronym,
                                 AcronymOf(words));
        if (!acronym.has_value()) continue;
        rewrites_.push_back(Rewrite(
            QueryRewrite::Kind::kAcronym, c[i], c[i + n - 1],
            absl::StrJoin(c.begin() + static_cast<ptrdiff_t>(i),
                          c.begin() + static_cast<ptrdiff_t>(i + n), " ",
                          [](std::string* out, const QueryNode& word) {
                            out->append(word.word.empty() ? *PlainTerm(word)
                                                          : word.word);
                          }),
            {acronym->display}));
        QueryNode all;
        all.kind = Kind::kAnd;
        all.position = c[i].position;
        all.acronym_of = acronym->term;
        for (size_t k = i; k < i + n; ++k) {
          all.children.push_back(std::move(c[k]));
        }
        std::vector<QueryNode> alternatives;
        alternatives.push_back(std::move(all));
        alternatives.push_back(
            TermNode(std::move(acronym->term), c[i].position));
        c[i] = OrNode(std::move(alternatives), true, c[i].position, false);
        c[i].expansion = true;
        c.erase(c.begin() + static_cast<ptrdiff_t>(i) + 1,
                c.begin() + static_cast<ptrdiff_t>(i + n));
        break;
      }
    }
    return absl::OkStatus();
  }

  // The analyzed acronym whose expansion's content terms are `terms`.
  // An acronym the corpus defines for an expansion: its index term, and
  // the acronym as a paper writes it (for the rewrite).
  struct Acronym {
    std::string term;
    std::string display;
  };

  absl::StatusOr<std::optional<Acronym>> AcronymOf(
      const std::vector<std::string>& terms) {
    std::vector<std::string> content;
    for (const std::string& term : terms) {
      if (!text::IsStopword(term)) content.push_back(term);
    }
    if (content.empty()) return std::nullopt;
    PAPERDB_ASSIGN_OR_RETURN(
        std::vector<TermDf> found,
        ScanTerms(store_,
                  index::FieldTermPrefix(index::kExpansionField,
                                         absl::StrJoin(content, " ")),
                  100));
    if (found.empty()) return std::nullopt;
    std::stable_sort(
        found.begin(), found.end(),
        [](const TermDf& a, const TermDf& b) { return a.df > b.df; });
    index::FieldTermParts parts;
    if (!index::ParseFieldTerm(found[0].term, &parts)) return std::nullopt;
    std::vector<text::AnalyzedToken> tokens =
        text::ThreadLocalAnalyzer().Analyze(parts.display);
    if (tokens.size() != 1) return std::nullopt;
    return Acronym{std::move(tokens[0].term), std::string(parts.display)};
  }

  const storage::Store& store_;
  const CancelFn& cancelled_;  // Outlived by the caller's.
  std::string text_;           // The query as typed.
  size_t prefix_terms_ = 0;    // Terms all prefixes expanded to so far.
  std::vector<QueryRewrite> rewrites_;
  bool word_alone_ = false;    // The query scores one word or phrase.
  bool in_exclusion_ = false;  // Expand() is inside an excluded group.
  absl::flat_hash_map<std::string, uint32_t> dfs_;
};

}  // namespace

absl::StatusOr<uint32_t> DocumentFrequency(const storage::Store& store,
                                           const std::string& term) {
  return index::TermsCache::Default().DocumentFrequency(store, term);
}

absl::StatusOr<ExpandedQuery> ExpandQuery(const storage::Store& store,
                                          Query query,
                                          const CancelFn& cancelled) {
  return Expander(store, cancelled).Run(std::move(query));
}

}  // namespace paperdb::search
