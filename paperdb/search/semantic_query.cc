#include "paperdb/search/semantic_query.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_join.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/field_keys.h"
#include "paperdb/index/terms_cache.h"
#include "paperdb/search/spelling_corrector.h"
#include "paperdb/semantic/concept_lexicon.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/text/english_words.h"
#include "paperdb/text/stopwords.h"

namespace paperdb::search {
namespace {

using Kind = QueryNode::Kind;

// Appends the analyzed words of `node` to `words`, and their folded forms
// to `surfaces` ("" where unknown: a phrase's words), or an empty word (a
// break) if it is not a word or phrase the query asks for.
void AppendWords(const QueryNode& node, std::vector<std::string>* words,
                 std::vector<std::string>* surfaces) {
  if (node.excluded) {
    words->emplace_back();
    surfaces->emplace_back();
    return;
  }
  switch (node.kind) {
    case Kind::kTerm:
      words->push_back(node.terms[0]);
      surfaces->push_back(node.surface);
      return;
    case Kind::kPhrase:
      // The thesaurus is matched on content words (concept_lexicon.h).
      for (const std::string& term : node.terms) {
        if (text::IsStopword(term)) continue;
        words->push_back(term);
        surfaces->emplace_back();
      }
      return;
    case Kind::kOr:
      // A hyphenated word: the phrase of its parts, then the joined form.
      if (node.dismax && !node.children.empty() &&
          node.children[0].kind == Kind::kPhrase) {
        AppendWords(node.children[0], words, surfaces);
        return;
      }
      // Each side of an OR on its own.
      for (const QueryNode& child : node.children) {
        AppendWords(child, words, surfaces);
        words->emplace_back();
        surfaces->emplace_back();
      }
      return;
    case Kind::kAnd:
      for (const QueryNode& child : node.children) {
        AppendWords(child, words, surfaces);
      }
      return;
    default:
      break;
  }
  words->emplace_back();
  surfaces->emplace_back();
}

// A run of words that names concepts.
struct Run {
  uint32_t begin = 0;  // [begin, end) of the words (or children).
  uint32_t end = 0;
  std::vector<uint32_t> concepts;  // Concept indexes, most words first.
  uint32_t words_begin = 0;  // Of the words, once begin, end are children.
  uint32_t words_end = 0;
};

// The runs of `words` (analyzed, with their folded forms) that name
// concepts: the longest mentions first, none overlapping another; several
// concepts on one run share it. In word order.
std::vector<Run> ConceptRuns(const std::vector<std::string>& words,
                             const std::vector<std::string>& surfaces) {
  const semantic::ConceptLexicon& lexicon = semantic::ConceptLexicon::Default();
  std::vector<semantic::ConceptMention> mentions =
      lexicon.MatchQuery(words, [&](size_t i) { return surfaces[i]; });
  std::stable_sort(
      mentions.begin(), mentions.end(),
      [](const semantic::ConceptMention& a, const semantic::ConceptMention& b) {
        return a.words > b.words;
      });
  std::vector<Run> runs;
  std::vector<bool> taken(words.size(), false);
  for (const semantic::ConceptMention& m : mentions) {
    const uint32_t begin = m.position, end = m.position + m.words;
    auto same = std::find_if(runs.begin(), runs.end(), [&](const Run& r) {
      return r.begin == begin && r.end == end;
    });
    if (same != runs.end()) {
      same->concepts.push_back(m.concept_index);
      continue;
    }
    if (std::any_of(taken.begin() + begin, taken.begin() + end,
                    [](bool t) { return t; })) {
      continue;
    }
    std::fill(taken.begin() + begin, taken.begin() + end, true);
    runs.push_back({begin, end, {m.concept_index}});
  }
  std::sort(runs.begin(), runs.end(),
            [](const Run& a, const Run& b) { return a.begin < b.begin; });
  return runs;
}

// The concept term of concept `concept_index`, at `position`.
QueryNode ConceptNode(uint32_t concept_index, uint32_t position) {
  const semantic::ConceptLexicon& lexicon = semantic::ConceptLexicon::Default();
  QueryNode term;
  term.terms.push_back(semantic::ConceptTerm(lexicon.id(concept_index)));
  term.position = position;
  return term;
}

// Appends the analyzed terms of `concept_index` to `units`, each of weight
// 1.
void AddUnits(uint32_t concept_index, std::vector<MatchUnit>* units) {
  for (const std::vector<std::string>& stems :
       semantic::ConceptLexicon::Default().term_stems(concept_index)) {
    units->push_back({.terms = stems, .slop = 0, .weight = 1});
  }
}

}  // namespace

ConceptQuery ConceptQueryOf(const Query& parsed, bool require_all) {
  ConceptQuery out;
  out.query.root.kind = Kind::kAnd;
  // The query's filters and exclusions still apply.
  if (parsed.root.kind == Kind::kAnd) {
    for (const QueryNode& child : parsed.root.children) {
      if (child.excluded || IsFilter(child)) {
        out.query.root.children.push_back(child);
      }
    }
  }
  std::vector<std::string> words, surfaces;
  AppendWords(parsed.root, &words, &surfaces);
  const semantic::ConceptLexicon& lexicon = semantic::ConceptLexicon::Default();
  QueryNode any;
  any.kind = Kind::kOr;
  absl::flat_hash_set<uint32_t> seen;
  for (const Run& run : ConceptRuns(words, surfaces)) {
    for (uint32_t concept_index : run.concepts) {
      if (!seen.insert(concept_index).second) continue;
      out.concept_ids.push_back(lexicon.id(concept_index));
      any.children.push_back(ConceptNode(concept_index, run.begin));
      AddUnits(concept_index, &out.units);
    }
  }
  if (any.children.empty()) {
    out.query.root.children.clear();  // No concept: nothing matches.
  } else if (require_all) {
    for (QueryNode& term : any.children) {
      out.query.root.children.push_back(std::move(term));
    }
  } else if (any.children.size() == 1) {
    // One concept: its term alone (its total is its document frequency).
    out.query.root.children.push_back(std::move(any.children[0]));
  } else {
    out.query.root.children.push_back(std::move(any));
  }
  return out;
}

namespace {

// Of a word the corpus defines as an acronym, the expansions compared with
// a concept's terms (a word has one or two in practice).
constexpr size_t kMaxExpansionsCompared = 16;

// The content words' terms of `text`, stopwords and joined compounds left
// out: how the thesaurus' terms are analyzed (ConceptLexicon::term_stems).
std::vector<std::string> ContentStems(absl::string_view text) {
  std::vector<std::string> stems;
  for (text::AnalyzedToken& token : text::ThreadLocalAnalyzer().Analyze(text)) {
    if (!token.stopword && !token.compound) {
      stems.push_back(std::move(token.term));
    }
  }
  return stems;
}

// A word the corpus defines as an acronym means what its papers say it
// means: of `concepts`, the ones that read it otherwise ("BNN" as Bayesian
// neural network, where the papers write binary neural networks) are
// dropped, and those with a term spelling one of the corpus's expansions
// are kept. False if none is left. A word the corpus does not define keeps
// all. Store errors.
absl::StatusOr<bool> KeepSenseOfDefinedAcronym(
    const storage::Store& store, const std::string& word,
    std::vector<uint32_t>* concepts) {
  PAPERDB_ASSIGN_OR_RETURN(
      const std::vector<index::TermDf> found,
      index::TermsCache::Default().Scan(
          store, index::FieldTermPrefix(index::kAcronymField, word),
          kMaxExpansionsCompared));
  if (found.empty()) return true;
  std::vector<std::vector<std::string>> expansions;
  for (const index::TermDf& term : found) {
    index::FieldTermParts parts;
    if (index::ParseFieldTerm(term.term, &parts)) {
      expansions.push_back(ContentStems(parts.display));
    }
  }
  const semantic::ConceptLexicon& lexicon = semantic::ConceptLexicon::Default();
  std::erase_if(*concepts, [&](uint32_t concept_index) {
    for (const std::vector<std::string>& stems :
         lexicon.term_stems(concept_index)) {
      if (std::find(expansions.begin(), expansions.end(), stems) !=
          expansions.end()) {
        return false;
      }
    }
    return true;
  });
  return !concepts->empty();
}

// Replaces, in `words` and `surfaces`, each plain word of `root` that no
// paper holds, that is not English nor a thesaurus word, and that no run of
// the words as typed covers, by its most frequent spelling correction: the
// expander reads "optimizaton" as "optimization", so it names that word's
// concept too. `first_word[c]` is child c's first word. Adds the children
// replaced to `corrected`.
absl::Status CorrectMisspelledWords(const storage::Store& store,
                                    const QueryNode& root,
                                    const std::vector<uint32_t>& first_word,
                                    std::vector<std::string>* words,
                                    std::vector<std::string>* surfaces,
                                    absl::flat_hash_set<uint32_t>* corrected) {
  const semantic::ConceptLexicon& lexicon = semantic::ConceptLexicon::Default();
  std::vector<uint32_t> candidates;
  for (uint32_t c = 0; c < root.children.size(); ++c) {
    const QueryNode& child = root.children[c];
    if (child.kind != Kind::kTerm || child.excluded || child.word.empty() ||
        child.terms.size() != 1 || child.surface.empty() ||
        text::IsEnglishWord(child.surface) ||
        lexicon.IsOneWordTermStem(child.terms[0])) {
      continue;
    }
    PAPERDB_ASSIGN_OR_RETURN(
        const uint32_t df,
        index::TermsCache::Default().DocumentFrequency(store, child.terms[0]));
    if (df == 0) candidates.push_back(c);
  }
  if (candidates.empty()) return absl::OkStatus();
  std::vector<bool> covered(words->size(), false);
  for (const Run& run : ConceptRuns(*words, *surfaces)) {
    for (uint32_t k = run.begin; k < run.end; ++k) covered[k] = true;
  }
  for (uint32_t c : candidates) {
    const uint32_t w = first_word[c];
    if (covered[w]) continue;
    PAPERDB_ASSIGN_OR_RETURN(
        std::vector<SpellingCorrection> found,
        SpellingCorrections(store, root.children[c].surface,
                            root.children[c].terms[0], CancelFn()));
    if (found.empty() || found[0].word.empty()) continue;
    (*words)[w] = std::move(found[0].term);
    (*surfaces)[w] = std::move(found[0].word);
    corrected->insert(c);
  }
  return absl::OkStatus();
}

// ExpandConcepts() on one conjunction `root`: its runs of words become
// groups of the words and the concepts they name. Appends to *added the
// concepts not in it yet.
absl::Status ExpandConjunction(const storage::Store& store,
                               absl::string_view text, QueryNode& root,
                               std::vector<MatchUnit>* units,
                               std::vector<QueryRewrite>* rewrites,
                               std::vector<std::string>* added_ids) {
  std::vector<std::string>& added = *added_ids;
  const semantic::ConceptLexicon& lexicon = semantic::ConceptLexicon::Default();
  // The conjunction's children as words: a plain word's stem, a
  // hyphenated word's parts ("low-cost"), else a break. first_word[c] is
  // child c's first word; a run must cover whole children.
  std::vector<std::string> words, surfaces;
  std::vector<uint32_t> first_word, child_of;
  for (uint32_t c = 0; c < root.children.size(); ++c) {
    const QueryNode& child = root.children[c];
    first_word.push_back(static_cast<uint32_t>(words.size()));
    if (child.kind == Kind::kTerm && !child.excluded && !child.word.empty() &&
        child.terms.size() == 1) {
      words.push_back(child.terms[0]);
      surfaces.push_back(child.surface);
    } else if (child.kind == Kind::kOr && child.dismax && !child.excluded &&
               !child.children.empty() &&
               child.children[0].kind == Kind::kPhrase &&
               child.children[0].slop == 0) {
      for (const std::string& part : child.children[0].terms) {
        if (text::IsStopword(part)) continue;
        words.push_back(part);
        surfaces.emplace_back();  // Unknown: the stems decide.
      }
    } else {
      words.emplace_back();
      surfaces.emplace_back();
    }
    child_of.resize(words.size(), c);
  }
  first_word.push_back(static_cast<uint32_t>(words.size()));
  absl::flat_hash_set<uint32_t> corrected;
  PAPERDB_RETURN_IF_ERROR(CorrectMisspelledWords(
      store, root, first_word, &words, &surfaces, &corrected));
  std::vector<Run> runs;
  for (Run& run : ConceptRuns(words, surfaces)) {
    // In children: [begin, end) of root.children.
    const uint32_t begin = child_of[run.begin];
    const uint32_t end = child_of[run.end - 1] + 1;
    if (first_word[begin] != run.begin || first_word[end] != run.end) {
      continue;  // Part of a hyphenated word only.
    }
    run.words_begin = run.begin;
    run.words_end = run.end;
    run.begin = begin;
    run.end = end;
    runs.push_back(std::move(run));
  }
  // Words that spell an acronym's expansion the corpus defines are left to
  // the expander's acronym rule ("spiking neural networks" or "SNN"), at
  // full weight.
  std::vector<Run> kept;
  for (Run& run : runs) {
    std::vector<std::string> content;
    for (uint32_t k = run.words_begin; k < run.words_end; ++k) {
      if (!text::IsStopword(words[k])) content.push_back(words[k]);
    }
    if (content.size() >= 2) {
      PAPERDB_ASSIGN_OR_RETURN(
          const std::vector<index::TermDf> defined,
          index::TermsCache::Default().Scan(
              store,
              index::FieldTermPrefix(index::kExpansionField,
                                     absl::StrJoin(content, " ")),
              1));
      if (!defined.empty()) continue;
    } else if (content.size() == 1) {
      PAPERDB_ASSIGN_OR_RETURN(
          const bool meant,
          KeepSenseOfDefinedAcronym(store, content[0], &run.concepts));
      if (!meant) continue;
    }
    kept.push_back(std::move(run));
  }
  runs = std::move(kept);
  // A concept counts once: a later run naming a concept an earlier one
  // named keeps its words only ("graph rewiring over-squashing").
  absl::flat_hash_set<uint32_t> claimed;
  kept.clear();
  for (Run& run : runs) {
    std::erase_if(run.concepts, [&](uint32_t concept_index) {
      return !claimed.insert(concept_index).second;
    });
    if (!run.concepts.empty()) kept.push_back(std::move(run));
  }
  runs = std::move(kept);
  for (const Run& run : runs) {
    for (uint32_t concept_index : run.concepts) {
      if (std::find(added.begin(), added.end(), lexicon.id(concept_index)) !=
          added.end()) {
        continue;
      }
      added.push_back(lexicon.id(concept_index));
    }
  }
  // Rebuilt from the back, so that earlier indexes stay valid.
  std::vector<QueryRewrite> made;
  for (auto run = runs.rbegin(); run != runs.rend(); ++run) {
    std::vector<QueryNode>& c = root.children;
    const uint32_t position = c[run->begin].position;
    QueryRewrite rewrite{QueryRewrite::Kind::kConcept, "", position, {}};
    const QueryNode& first = c[run->begin];
    const QueryNode& last = c[run->end - 1];
    if (const auto typed = TypedTextOf(text, first, last)) {
      // The words as typed, with the stopwords and hyphens between them
      // ("Tree of Thoughts").
      rewrite.original = std::string(typed->text);
      rewrite.position = typed->position;
    } else {
      for (uint32_t k = run->begin; k < run->end; ++k) {
        if (k > run->begin) rewrite.original += ' ';
        rewrite.original += c[k].word;
      }
    }
    // The concept stands for words no paper holds: they are not
    // spelling-corrected into other words (unless they name it through
    // their correction).
    for (uint32_t k = run->begin; k < run->end; ++k) {
      c[k].concept_word = !corrected.contains(k);
    }
    std::vector<QueryNode> alternatives;
    if (run->end - run->begin == 1) {
      alternatives.push_back(std::move(c[run->begin]));
    } else {
      QueryNode all;
      all.kind = Kind::kAnd;
      all.position = position;
      // The words name one concept: they weigh one concept's idf, as an
      // acronym's expansion does (searcher.h).
      all.acronym_of = semantic::ConceptTerm(lexicon.id(run->concepts.front()));
      for (uint32_t k = run->begin; k < run->end; ++k) {
        all.children.push_back(std::move(c[k]));
      }
      alternatives.push_back(std::move(all));
    }
    for (uint32_t concept_index : run->concepts) {
      QueryNode term = ConceptNode(concept_index, position);
      term.boost = kConceptWeight;
      alternatives.push_back(std::move(term));
      const std::vector<std::string>& written = lexicon.terms(concept_index);
      for (size_t t = 0; t < written.size() && t < 4; ++t) {
        rewrite.replacements.push_back(written[t]);
      }
      AddUnits(concept_index, units);
    }
    QueryNode group;
    group.kind = Kind::kOr;
    group.dismax = true;
    group.position = position;
    group.children = std::move(alternatives);
    c[run->begin] = std::move(group);
    c.erase(c.begin() + run->begin + 1, c.begin() + run->end);
    made.push_back(std::move(rewrite));
  }
  rewrites->insert(rewrites->end(), made.rbegin(), made.rend());
  return absl::OkStatus();
}

// ExpandConjunction() on `node` if it is a conjunction, then on each
// conjunction or plain word an OR under it holds (a branch of "brain scans
// OR robotics"), not under an exclusion, in query order.
absl::Status ExpandNode(const storage::Store& store, absl::string_view text,
                        QueryNode& node, std::vector<MatchUnit>* units,
                        std::vector<QueryRewrite>* rewrites,
                        std::vector<std::string>* added) {
  if (node.excluded) return absl::OkStatus();
  if (node.kind == Kind::kAnd) {
    PAPERDB_RETURN_IF_ERROR(
        ExpandConjunction(store, text, node, units, rewrites, added));
    for (QueryNode& child : node.children) {
      if (child.kind == Kind::kOr && !child.dismax) {
        PAPERDB_RETURN_IF_ERROR(
            ExpandNode(store, text, child, units, rewrites, added));
      }
    }
    return absl::OkStatus();
  }
  if (node.kind != Kind::kOr || node.dismax) return absl::OkStatus();
  for (QueryNode& branch : node.children) {
    if (branch.kind == Kind::kAnd || branch.kind == Kind::kOr) {
      PAPERDB_RETURN_IF_ERROR(
          ExpandNode(store, text, branch, units, rewrites, added));
      continue;
    }
    // A branch of one word (or one hyphenated word): a conjunction of one.
    QueryNode one;
    one.kind = Kind::kAnd;
    one.position = branch.position;
    one.children.push_back(std::move(branch));
    PAPERDB_RETURN_IF_ERROR(
        ExpandConjunction(store, text, one, units, rewrites, added));
    branch = std::move(one.children.front());
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ExpandConcepts(
    const storage::Store& store, Query* query, std::vector<MatchUnit>* units,
    std::vector<QueryRewrite>* rewrites) {
  std::vector<std::string> added;
  PAPERDB_RETURN_IF_ERROR(
      ExpandNode(store, query->text, query->root, units, rewrites, &added));
  return added;
}

}  // namespace paperdb::search
