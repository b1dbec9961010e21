// Parser: a recursive-descent parser of the query syntax (query_parser.h)
// that walks the text keeping byte and code point offsets in step, for
// errors naming the character position. Its grammar rules are in
// query_parser.cc; its leaves (words, phrases, field filters) in
// query_parser_leaves.cc. Internal to the query parser.

#ifndef PAPERDB_SEARCH_QUERY_PARSER_IMPL_H_
#define PAPERDB_SEARCH_QUERY_PARSER_IMPL_H_

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "paperdb/common/error_details.h"
#include "paperdb/extract/datasets.h"
#include "paperdb/index/field_keys.h"
#include "paperdb/search/query_lexer.h"
#include "paperdb/search/query_parser.h"
#include "paperdb/search/query_tree.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/text/utf8.h"
#include "paperdb/text/word_forms.h"
#include "unicode/uchar.h"
#include "unicode/utf8.h"

namespace paperdb::search::internal {

class Parser {
 public:
  explicit Parser(absl::string_view text) : text_(text) {}

  absl::StatusOr<Query> Parse();

 private:
  // Appends the terms of `node` (a phrase's joined by spaces, a filter as
  // field:value) to `out`.
  static void AppendTerms(const QueryNode& node, std::vector<std::string>* out);

  static bool IsEmpty(const QueryNode& node) {
    return (node.kind == QueryNode::Kind::kAnd ||
            node.kind == QueryNode::Kind::kOr) &&
           node.children.empty();
  }

  void Advance(size_t bytes) {
    const size_t end = at_ + bytes;
    while (at_ < end) {
      at_ += text::Utf8SequenceLength(static_cast<unsigned char>(text_[at_]));
      ++code_point_;
    }
  }

  void SkipSpaces() {
    while (size_t n = SpaceAt(text_, at_)) Advance(n);
  }

  static absl::Status Error(uint32_t position, absl::string_view what,
                            absl::string_view reason = "QUERY_SYNTAX") {
    return WithReason(WithField(absl::InvalidArgumentError(absl::StrCat(
                                    "query: character ", position, ": ", what)),
                                "query"),
                      reason, {{"position", absl::StrCat(position)}});
  }

  // True if an operator word (`OR`, `AND`, `NOT`) stands at at_.
  bool OperatorAt(absl::string_view op) const {
    if (!absl::StartsWith(text_.substr(at_), op)) return false;
    const size_t end = at_ + op.size();
    return end == text_.size() || SpaceAt(text_, end) > 0 ||
           text_[end] == '(' || text_[end] == ')' || QuoteAt(text_, end) > 0;
  }

  bool AtEnd() const { return at_ >= text_.size(); }
  bool AtClose() const { return !AtEnd() && text_[at_] == ')'; }

  // or := and ("OR" and)*
  absl::StatusOr<QueryNode> ParseOr(size_t depth);

  // True for a conjunction of exclusions only (`-a -b`), or one exclusion.
  static bool OnlyExcludes(const QueryNode& node);

  static size_t CountExcluded(const QueryNode& node);

  // and := unary+ (implicit AND; an `AND` between operands is allowed)
  absl::StatusOr<QueryNode> ParseAnd(size_t depth);

  // unary := ("-" | "NOT") primary | primary
  absl::StatusOr<QueryNode> ParseUnary(size_t depth);

  // primary := "(" or ")" | phrase | field ":" value | word ["*"]
  absl::StatusOr<QueryNode> ParsePrimary(size_t depth);

  // The folded word `token` was analyzed from, a token of `text` just
  // analyzed by the thread's analyzer: its surface form (word_forms.h), or,
  // for a word indexed without one, its folded text if that is the stem or
  // the stem plus "e", else the stem ("LLMs" is "llm").
  static std::string SurfaceOf(absl::string_view text,
                               const text::AnalyzedToken& token);

  // Reads a quoted phrase at at_ and an optional "~N" after it.
  absl::StatusOr<QueryNode> ParsePhrase();

  // The text between the quote at at_ and its closing quote; at_ moves past
  // the closing quote.
  absl::StatusOr<absl::string_view> QuotedText();

  absl::StatusOr<QueryNode> PhraseNode(absl::string_view phrase,
                                       QueryNode node) {
    node.kind = QueryNode::Kind::kPhrase;
    std::vector<text::AnalyzedToken> tokens =
        text::ThreadLocalAnalyzer().Analyze(phrase);
    // With its quotes (one code point each), as typed.
    SetTextSpan(phrase, 0, phrase.size(), &node);
    node.text_begin -= 1;
    node.text_end += 1;
    if (tokens.size() == 1 && !tokens[0].stopword) {
      // A quoted word: that word, not the other words of its stem.
      node.surface = SurfaceOf(phrase, tokens[0]);
      node.surface_only = true;
    }
    uint32_t last_position = UINT32_MAX;
    for (text::AnalyzedToken& token : tokens) {
      // A joined compound shares its first part's position: the parts
      // carry the phrase.
      if (token.position == last_position) continue;
      last_position = token.position;
      node.terms.push_back(std::move(token.term));
    }
    if (node.terms.size() > kMaxPhraseTerms) {
      return Error(
          node.position,
          absl::StrCat("phrase of ", node.terms.size(),
                       " words is longer than the limit of ", kMaxPhraseTerms),
          kPhraseTooLong);
    }
    if (node.terms.empty()) return EmptyNode();
    if (node.terms.size() == 1) {
      node.kind = QueryNode::Kind::kTerm;
      node.slop = 0;
    } else {
      node.word = std::string(phrase);  // As typed, for rewrites.
    }
    return node;
  }

  // Sets node->text_begin and text_end to the span of `tokens` (analyzed
  // from `part`, a view into text_): from the first token's start to the
  // furthest token end, in code points of text_.
  void SetTextSpan(absl::string_view part,
                   const std::vector<text::AnalyzedToken>& tokens,
                   QueryNode* node) const {
    if (tokens.empty()) return;
    size_t end = 0;
    for (const text::AnalyzedToken& token : tokens) {
      end = std::max(end, static_cast<size_t>(token.end_byte));
    }
    SetTextSpan(part, tokens.front().start_byte, end, node);
  }

  // Sets node->text_begin and text_end to bytes [begin, end) of `part`, a
  // view into text_, in code points of text_.
  void SetTextSpan(absl::string_view part, size_t begin, size_t end,
                   QueryNode* node) const {
    const size_t offset = static_cast<size_t>(part.data() - text_.data());
    node->text_begin = text::CountCodePoints(text_.substr(0, offset + begin));
    node->text_end = node->text_begin +
                     text::CountCodePoints(part.substr(begin, end - begin));
  }

  // The end of the word at at_: the next space or quote, or a ')' that
  // closes a group. A ')' is text if a '(' opened inside the word ("f(x)")
  // or inside an earlier one (glued_open_: pasted LaTeX such as
  // "P(Y=1 \mid X=x)") is still open. *net, if not null, is set to the
  // change the word makes to glued_open_.
  size_t WordEnd(ptrdiff_t* net = nullptr) const;

  absl::StatusOr<QueryNode> ParseWord();

  static bool IsField(absl::string_view name);

  // Parses "name:value" at at_; `colon` is the colon's byte offset from at_.
  absl::StatusOr<QueryNode> ParseField(std::string name, size_t colon);

  absl::StatusOr<QueryNode> YearFilter(absl::string_view value,
                                       uint32_t position, QueryNode node) {
    auto year = [](absl::string_view digits, std::string* out) {
      int y = 0;
      if (digits.size() != 4 || !absl::SimpleAtoi(digits, &y) || y < 0) {
        return false;
      }
      *out = absl::StrFormat("%04d", y);
      return true;
    };
    const size_t dots = value.find("..");
    bool ok;
    if (dots == absl::string_view::npos) {
      ok = year(value, &node.value);
      node.value_end = node.value;
    } else {
      const absl::string_view from = value.substr(0, dots);
      const absl::string_view to = value.substr(dots + 2);
      ok = (from.empty() || year(from, &node.value)) &&
           (to.empty() || year(to, &node.value_end)) &&
           !(from.empty() && to.empty());
      if (from.empty()) node.value = "0000";
      if (to.empty()) node.value_end = "9999";
    }
    if (ok && node.value > node.value_end) {
      return Error(position,
                   absl::StrCat("year: the range ", value,
                                " is reversed: write the earlier year first"));
    }
    if (!ok) {
      return Error(position,
                   "year: expected a year such as 2024 or a range such as "
                   "2020..2023, 2020.. or ..2023");
    }
    return node;
  }

  absl::string_view text_;
  size_t at_ = 0;
  uint32_t code_point_ = 0;
  // '(' opened inside words read so far and not yet closed: a later ')'
  // glued to a word closes one of them as text, not a group.
  size_t glued_open_ = 0;
  size_t leaves_ = 0;
  std::vector<std::string> unread_;  // Past kMaxClauses leaves.
};

}  // namespace paperdb::search::internal

#endif  // PAPERDB_SEARCH_QUERY_PARSER_IMPL_H_
