// The parsed form of a search query: a tree of terms, phrases, prefixes and
// field filters under AND and OR (see query_parser.h for the syntax).

#ifndef PAPERDB_SEARCH_QUERY_H_
#define PAPERDB_SEARCH_QUERY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace paperdb::search {

struct QueryNode {
  enum class Kind {
    kTerm,    // One analyzed term: terms[0].
    kPhrase,  // terms at consecutive positions, or within `slop` extra
              // positions in any order when slop > 0 ("a b"~N).
    kPrefix,  // Any term starting with terms[0] (folded) or terms[1] (its
              // stem, if different): "grap*". Expanded by the searcher.
    kField,   // A typed field: `field` is one of the names in
              // field_terms.h, `value` its folded value; for a year range,
              // `value` and `value_end` bound it (inclusive).
    kAnd,     // Every child that is not `excluded`, and none that is.
    kOr,      // Any child. With `dismax`, a doc's score is its best
              // child's, not the sum (expansions of one word).
  };
  Kind kind = Kind::kTerm;
  std::vector<std::string> terms;
  uint32_t slop = 0;
  std::string field;
  std::string value;
  std::string value_end;
  std::vector<QueryNode> children;
  bool excluded = false;  // Only on children of a kAnd.
  bool dismax = false;
  // Made by the query expander (an acronym and its expansion): not
  // expanded again.
  bool expansion = false;
  // An alternative that spells out an acronym (a phrase or words of its
  // expansion, beside the acronym in a dismax kOr): the acronym's term. The
  // searcher scores it with the idf of one concept, not the sum of its
  // words' idfs (searcher.h).
  std::string acronym_of;
  // The word as typed (kTerm from a bare word), for spelling corrections and
  // acronym expansion; a quoted phrase's text as typed (kPhrase), for the
  // rewrites it causes; empty for terms from phrases or expansions.
  std::string word;
  // Where the node starts in the query text, in code points (0-based).
  uint32_t position = 0;
  // The node's words as typed, for rewrites: code points [text_begin,
  // text_end) of Query::text, from its first word's first character to its
  // last word's last (a quoted phrase or word with its quotes, a word
  // without punctuation glued to it, a prefix with its '*'). Both 0 for
  // nodes not read from the text.
  uint32_t text_begin = 0;
  uint32_t text_end = 0;
  // A kTerm of one plain word, bare or quoted: the word folded
  // (Analyzer::FoldForMatching()), which tells which words of its stem are
  // the word typed (text/word_forms.h); empty otherwise.
  std::string surface;
  // A quoted single word: only papers holding that word, or an inflection
  // of it, match; not the other words of its stem.
  bool surface_only = false;
  // Set by the expander when other words share the stem
  // (word_form_iterator.h): the form terms of the word typed, of the other
  // words, and whether the stem's occurrences without a form term are the
  // word typed. The searcher weighs papers holding only other words less.
  bool split_forms = false;
  // A word of a run that names a concept (semantic_query.h): not
  // spelling-corrected, the concept standing beside it.
  bool concept_word = false;
  // The node's score is multiplied by this (a concept matched instead of
  // words: paperdb/search/semantic_query.h).
  double boost = 1.0;
  std::vector<std::string> same_forms;
  std::vector<std::string> other_forms;
  bool unmarked_same = false;
};

struct Query {
  // A kAnd node (possibly with no children) at the top.
  QueryNode root;
  // The query as typed (UTF-8), which the nodes' `position`s count code
  // points in; empty for a query built in code.
  std::string text;
  // The text did not parse as a query but is long enough to be pasted
  // prose (query_parser.h), so it was read as plain words.
  bool read_as_text = false;
  // The terms of words, phrases and filters past the first kMaxClauses
  // (query_parser.h), which the query leaves out.
  std::vector<std::string> unread;

  // True if nothing is required (empty, only stopwords, only exclusions).
  bool MatchesNothing() const;
};

// A term or phrase a result is highlighted with: the leaves of a query that
// are not excluded, after expansion.
struct MatchUnit {
  std::vector<std::string> terms;  // One term, or a phrase's terms.
  uint32_t slop = 0;
  // What a highlight of the unit counts when a snippet's window is chosen
  // (ByteSpan::weight); 0: its number of terms. A concept's term counts 1,
  // so the words typed decide the window before a concept's longer names.
  uint32_t weight = 0;
};

// The distinct highlightable units of `node`, excluded subtrees skipped.
std::vector<MatchUnit> CollectMatchUnits(const QueryNode& node);

// The words of `first` through `last` (siblings, in query order) as typed:
// code points [first.text_begin, last.text_end) of the query's `text`, and
// where they start (code points). nullopt for nodes not read from the text
// (text_end 0) or an empty `text`.
struct TypedText {
  absl::string_view text;
  uint32_t position = 0;
};
std::optional<TypedText> TypedTextOf(absl::string_view text,
                                     const QueryNode& first,
                                     const QueryNode& last);

// True for a field filter, or an AND or OR of filters only
// ("(venue:ICLR OR venue:NeurIPS)"): it restricts the matches in every
// mode (full, partial and any-term) and is never a word a paper may lack.
bool IsFilter(const QueryNode& node);

// How many words and phrases `node` scores (not filters or exclusions), a
// word's alternatives (an OR of its expansions) counted once.
size_t ScoredUnits(const QueryNode& node);

}  // namespace paperdb::search

#endif  // PAPERDB_SEARCH_QUERY_H_
