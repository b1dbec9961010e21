#include "paperdb/search/query_parser.h"

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
#include "paperdb/text/analyzer.h"
#include "paperdb/text/utf8.h"
#include "paperdb/text/word_forms.h"
#include "unicode/uchar.h"
#include "unicode/utf8.h"

namespace paperdb::search {

bool Query::MatchesNothing() const {
  for (const QueryNode& child : root.children) {
    if (!child.excluded) return false;
  }
  return true;
}

namespace {

constexpr absl::string_view kLeftQuote = "\xE2\x80\x9C";   // U+201C “
constexpr absl::string_view kRightQuote = "\xE2\x80\x9D";  // U+201D ”
constexpr absl::string_view kFieldNames =
    "venue, year, has, host, method, dataset";

// Byte length of the quote mark at `text[i]`, or 0 if there is none.
size_t QuoteAt(absl::string_view text, size_t i) {
  if (i >= text.size()) return 0;
  if (text[i] == '"') return 1;
  const absl::string_view rest = text.substr(i);
  if (absl::StartsWith(rest, kLeftQuote) || absl::StartsWith(rest, kRightQuote))
    return 3;
  return 0;
}

// Byte length of the white-space character (Unicode White_Space: ASCII
// spaces, NBSP, U+3000, ...) at `text[i]`, or 0 if there is none.
size_t SpaceAt(absl::string_view text, size_t i) {
  if (i >= text.size()) return 0;
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  int32_t next = static_cast<int32_t>(i);
  UChar32 c;
  U8_NEXT(s, next, static_cast<int32_t>(text.size()), c);
  return c >= 0 && u_isUWhiteSpace(c) ? static_cast<size_t>(next) - i : 0;
}

// Byte length of the minus sign ('-' or U+2212 MINUS SIGN) at `text[i]`,
// or 0 if there is none.
size_t MinusAt(absl::string_view text, size_t i) {
  if (i >= text.size()) return 0;
  if (text[i] == '-') return 1;
  return absl::StartsWith(text.substr(i), "\xE2\x88\x92") ? 3 : 0;
}

bool SameNode(const QueryNode& a, const QueryNode& b) {
  if (a.kind != b.kind || a.excluded != b.excluded || a.terms != b.terms ||
      a.slop != b.slop || a.field != b.field || a.value != b.value ||
      a.value_end != b.value_end || a.dismax != b.dismax ||
      a.children.size() != b.children.size()) {
    return false;
  }
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (!SameNode(a.children[i], b.children[i])) return false;
  }
  return true;
}

// Adds `child` to the kAnd or kOr `parent` unless it repeats a sibling;
// nested nodes of the same kind are flattened.
void AddChild(QueryNode child, QueryNode* parent) {
  if (child.kind == parent->kind && !child.excluded && !child.dismax &&
      !parent->dismax) {
    for (QueryNode& grandchild : child.children) {
      AddChild(std::move(grandchild), parent);
    }
    return;
  }
  for (const QueryNode& sibling : parent->children) {
    if (SameNode(sibling, child)) return;
  }
  parent->children.push_back(std::move(child));
}

// A kAnd or kOr with one child that is not excluded is that child.
QueryNode Simplify(QueryNode node) {
  if ((node.kind == QueryNode::Kind::kAnd ||
       node.kind == QueryNode::Kind::kOr) &&
      node.children.size() == 1 && !node.children[0].excluded) {
    QueryNode only = std::move(node.children[0]);
    only.excluded = node.excluded;
    return only;
  }
  return node;
}

// A node that matches nothing and is dropped by its parent.
QueryNode EmptyNode() {
  QueryNode node;
  node.kind = QueryNode::Kind::kAnd;
  return node;
}

// The key of the dataset `value` names: that of its canonical name if it is
// a curated alias in any case ("shd" -> "Spiking Heidelberg Digits", which
// papers are indexed under), else NameKey(value).
std::string DatasetKey(absl::string_view value) {
  static const absl::flat_hash_map<std::string, std::string>* const kByAlias =
      [] {
        auto* by_alias = new absl::flat_hash_map<std::string, std::string>;
        std::vector<std::pair<std::string, std::string>> spellings =
            extract::CuratedDatasetSpellings();
        // Canonical names first: a key that is some dataset's own stays its.
        std::stable_partition(
            spellings.begin(), spellings.end(),
            [](const auto& s) { return s.first == s.second; });
        for (const auto& [spelling, canonical] : spellings) {
          by_alias->emplace(index::NameKey(spelling),
                            index::NameKey(canonical));
        }
        return by_alias;
      }();
  std::string key = index::NameKey(value);
  const auto it = kByAlias->find(key);
  return it == kByAlias->end() ? key : it->second;
}

// Walks the query keeping the byte offset and the code point offset in step.
class Parser {
 public:
  explicit Parser(absl::string_view text) : text_(text) {}

  absl::StatusOr<Query> Parse() {
    Query query;
    query.root.kind = QueryNode::Kind::kAnd;
    absl::StatusOr<QueryNode> node = ParseOr(0);
    if (!node.ok()) return node.status();
    SkipSpaces();
    if (at_ < text_.size()) {
      // Only a ')' stops ParseOr() before the end.
      return Error(code_point_,
                   "unbalanced parenthesis: ')' without an opening '('");
    }
    if (node->kind == QueryNode::Kind::kAnd && !node->excluded) {
      query.root = *std::move(node);
    } else if (!IsEmpty(*node)) {
      query.root.children.push_back(*std::move(node));
    }
    query.unread = std::move(unread_);
    return query;
  }

 private:
  // Appends the terms of `node` (a phrase's joined by spaces, a filter as
  // field:value) to `out`.
  static void AppendTerms(const QueryNode& node,
                          std::vector<std::string>* out) {
    switch (node.kind) {
      case QueryNode::Kind::kTerm:
      case QueryNode::Kind::kPrefix:
        out->push_back(node.terms[0]);
        return;
      case QueryNode::Kind::kPhrase:
        out->push_back(absl::StrJoin(node.terms, " "));
        return;
      case QueryNode::Kind::kField:
        out->push_back(absl::StrCat(node.field, ":", node.value));
        return;
      case QueryNode::Kind::kAnd:
      case QueryNode::Kind::kOr:
        for (const QueryNode& child : node.children) AppendTerms(child, out);
        return;
    }
  }

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

  static absl::Status Error(uint32_t position, absl::string_view what) {
    return WithReason(WithField(absl::InvalidArgumentError(absl::StrCat(
                                    "query: character ", position, ": ", what)),
                                "query"),
                      "QUERY_SYNTAX", {{"position", absl::StrCat(position)}});
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
  absl::StatusOr<QueryNode> ParseOr(size_t depth) {
    QueryNode node;
    node.kind = QueryNode::Kind::kOr;
    SkipSpaces();
    node.position = code_point_;
    if (OperatorAt("OR")) {
      return Error(code_point_, "expected a word, phrase or '(' before OR");
    }
    absl::StatusOr<QueryNode> first = ParseAnd(depth);
    if (!first.ok()) return first.status();
    const bool first_excludes_only = OnlyExcludes(*first);
    if (!IsEmpty(*first)) AddChild(*std::move(first), &node);
    while (true) {
      SkipSpaces();
      if (!OperatorAt("OR")) break;
      const uint32_t or_position = code_point_;
      Advance(2);
      SkipSpaces();
      if (AtEnd() || AtClose() || OperatorAt("OR") || OperatorAt("AND")) {
        return Error(or_position,
                     "dangling OR: expected a word, phrase or '(' after it");
      }
      if (first_excludes_only) {
        return Error(node.position,
                     "an OR operand cannot only exclude: write `a -b`, not "
                     "`-b OR a`");
      }
      absl::StatusOr<QueryNode> next = ParseAnd(depth);
      if (!next.ok()) return next.status();
      if (OnlyExcludes(*next)) {
        return Error(or_position,
                     "an OR operand cannot only exclude: write `a -b`, not "
                     "`a OR -b`");
      }
      if (!IsEmpty(*next)) AddChild(*std::move(next), &node);
    }
    return Simplify(std::move(node));
  }

  // True for a conjunction of exclusions only (`-a -b`), or one exclusion.
  static bool OnlyExcludes(const QueryNode& node) {
    if (node.excluded) return true;
    return node.kind == QueryNode::Kind::kAnd && !node.children.empty() &&
           node.children.size() == CountExcluded(node);
  }

  static size_t CountExcluded(const QueryNode& node) {
    size_t n = 0;
    for (const QueryNode& child : node.children) n += child.excluded;
    return n;
  }

  // and := unary+ (implicit AND; an `AND` between operands is allowed)
  absl::StatusOr<QueryNode> ParseAnd(size_t depth) {
    QueryNode node;
    node.kind = QueryNode::Kind::kAnd;
    node.position = code_point_;
    bool need_operand = false;
    uint32_t and_position = 0;
    size_t operands = 0;
    while (true) {
      SkipSpaces();
      if (AtEnd() || AtClose() || OperatorAt("OR")) break;
      if (OperatorAt("AND")) {
        if (need_operand || operands == 0) {
          return Error(code_point_,
                       "dangling AND: expected a word, phrase or '(' before "
                       "it");
        }
        and_position = code_point_;
        need_operand = true;
        Advance(3);
        continue;
      }
      need_operand = false;
      ++operands;
      absl::StatusOr<QueryNode> unary = ParseUnary(depth);
      if (!unary.ok()) return unary.status();
      if (IsEmpty(*unary)) continue;
      if (leaves_ >= kMaxClauses) {
        AppendTerms(*unary, &unread_);
        continue;
      }
      ++leaves_;
      AddChild(*std::move(unary), &node);
    }
    if (need_operand) {
      return Error(and_position,
                   "dangling AND: expected a word, phrase or '(' after it");
    }
    if (CountExcluded(node) > 0) return node;  // Keep the kAnd.
    return Simplify(std::move(node));
  }

  // unary := ("-" | "NOT") primary | primary
  absl::StatusOr<QueryNode> ParseUnary(size_t depth) {
    const uint32_t position = code_point_;
    bool excluded = false;
    if (OperatorAt("NOT")) {
      Advance(3);
      SkipSpaces();
      if (AtEnd() || AtClose() || OperatorAt("OR") || OperatorAt("AND")) {
        return Error(position,
                     "dangling NOT: expected a word, phrase or '(' to exclude");
      }
      excluded = true;
    } else if (const size_t minus = MinusAt(text_, at_); minus > 0) {
      Advance(minus);
      if (AtEnd() || SpaceAt(text_, at_) > 0 || AtClose()) {
        return Error(position,
                     "a minus sign must be followed by a word, a quoted "
                     "phrase or '(' to exclude");
      }
      excluded = true;
    }
    if (excluded && (OperatorAt("NOT") || MinusAt(text_, at_) > 0)) {
      return Error(position,
                   "a double exclusion (`--x`, `NOT NOT x`, `NOT -x`): "
                   "expected a word, phrase or '(' to exclude");
    }
    absl::StatusOr<QueryNode> node = ParsePrimary(depth);
    if (!node.ok()) return node.status();
    if (excluded) {
      if (OnlyExcludes(*node)) {
        return Error(position,
                     "a double exclusion (`-(-x)`): expected something to "
                     "match inside the excluded group");
      }
      node->excluded = true;
      node->position = position;
    }
    return node;
  }

  // primary := "(" or ")" | phrase | field ":" value | word ["*"]
  absl::StatusOr<QueryNode> ParsePrimary(size_t depth) {
    if (text_[at_] == '(') {
      const uint32_t open = code_point_;
      if (depth + 1 > kMaxDepth) {
        return Error(
            open, absl::StrCat("parentheses nested deeper than ", kMaxDepth));
      }
      Advance(1);
      absl::StatusOr<QueryNode> inner = ParseOr(depth + 1);
      if (!inner.ok()) return inner.status();
      SkipSpaces();
      if (!AtClose()) {
        return Error(open,
                     "unbalanced parenthesis: expected a closing ')' for "
                     "this '('");
      }
      Advance(1);
      inner->position = open;
      return inner;
    }
    if (QuoteAt(text_, at_) > 0) return ParsePhrase();
    return ParseWord();
  }

  // The folded word `token` was analyzed from, a token of `text` just
  // analyzed by the thread's analyzer: its surface form (word_forms.h), or,
  // for a word indexed without one, its folded text if that is the stem or
  // the stem plus "e", else the stem ("LLMs" is "llm").
  static std::string SurfaceOf(absl::string_view text,
                               const text::AnalyzedToken& token) {
    if (token.form_id != text::kNoTermId) {
      return std::string(
          text::FormOf(text::ThreadLocalAnalyzer().TermText(token.form_id)));
    }
    std::string folded = text::Analyzer::FoldForMatching(
        text.substr(token.start_byte, token.end_byte - token.start_byte));
    if (text::HasFormTerm(folded, token.term)) return token.term;
    return folded;
  }

  // Reads a quoted phrase at at_ and an optional "~N" after it.
  absl::StatusOr<QueryNode> ParsePhrase() {
    QueryNode node;
    node.position = code_point_;
    absl::StatusOr<absl::string_view> phrase = QuotedText();
    if (!phrase.ok()) return phrase.status();
    if (!AtEnd() && text_[at_] == '~') {
      const uint32_t tilde = code_point_;
      Advance(1);
      const size_t digits = at_;
      while (!AtEnd() && absl::ascii_isdigit(text_[at_])) Advance(1);
      uint32_t slop = 0;
      const bool ends = AtEnd() || SpaceAt(text_, at_) > 0 || AtClose() ||
                        QuoteAt(text_, at_) > 0;
      if (at_ == digits ||
          !absl::SimpleAtoi(text_.substr(digits, at_ - digits), &slop) ||
          slop > kMaxSlop) {
        return Error(tilde, absl::StrCat("expected a number of positions "
                                         "from 0 to ",
                                         kMaxSlop, " after '~'"));
      }
      if (!ends) {
        // "~2~3", "~2x": the number is fine, what follows it is not.
        return Error(code_point_, absl::StrCat("expected a space or the end "
                                               "of the query after '~",
                                               slop, "'"));
      }
      node.slop = slop;
    }
    return PhraseNode(*phrase, std::move(node));
  }

  // The text between the quote at at_ and its closing quote; at_ moves past
  // the closing quote.
  absl::StatusOr<absl::string_view> QuotedText() {
    const uint32_t open_position = code_point_;
    Advance(QuoteAt(text_, at_));
    const size_t start = at_;
    while (!AtEnd() && QuoteAt(text_, at_) == 0) Advance(1);
    if (AtEnd()) {
      return Error(open_position,
                   "unterminated phrase: expected a closing '\"'");
    }
    const absl::string_view phrase = text_.substr(start, at_ - start);
    Advance(QuoteAt(text_, at_));
    return phrase;
  }

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
                       " words is longer than the limit of ", kMaxPhraseTerms));
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
  size_t WordEnd(ptrdiff_t* net = nullptr) const {
    size_t i = at_;
    ptrdiff_t inner = 0;
    size_t closed_earlier = 0;  // Of glued_open_.
    while (i < text_.size() && SpaceAt(text_, i) == 0 &&
           QuoteAt(text_, i) == 0) {
      if (text_[i] == '(') ++inner;
      if (text_[i] == ')') {
        if (inner > 0) {
          --inner;
        } else if (closed_earlier < glued_open_) {
          ++closed_earlier;
        } else {
          break;
        }
      }
      i += text::Utf8SequenceLength(static_cast<unsigned char>(text_[i]));
    }
    if (net != nullptr) *net = inner - static_cast<ptrdiff_t>(closed_earlier);
    return i;
  }

  absl::StatusOr<QueryNode> ParseWord() {
    QueryNode node;
    node.position = code_point_;
    const size_t start = at_;
    ptrdiff_t net = 0;
    const size_t end = WordEnd(&net);
    glued_open_ =
        static_cast<size_t>(static_cast<ptrdiff_t>(glued_open_) + net);
    absl::string_view word = text_.substr(start, end - start);
    // field:value (not a URL such as https://...). A known field with
    // nothing after the colon is an error; "Note:" is a word.
    if (const size_t colon = word.find(':');
        colon != absl::string_view::npos && colon > 0 &&
        !absl::StartsWith(word.substr(colon + 1), "/")) {
      const absl::string_view name = word.substr(0, colon);
      bool letters = true;
      for (char c : name) letters &= absl::ascii_isalpha(c) || c == '_';
      const std::string field = absl::AsciiStrToLower(name);
      const bool has_value =
          colon + 1 < word.size() || QuoteAt(text_, start + colon + 1) > 0;
      if (letters && (has_value || IsField(field))) {
        return ParseField(field, colon);
      }
    }
    if (const size_t tilde = word.rfind('~');
        tilde != absl::string_view::npos && tilde + 1 < word.size() &&
        absl::ascii_isdigit(word[tilde + 1])) {
      Advance(tilde);
      return Error(code_point_,
                   "'~N' follows a quoted phrase (\"a b\"~N); a word is "
                   "already matched with spelling tolerance");
    }
    Advance(end - start);
    bool prefix = false;
    if (absl::EndsWith(word, "*")) {
      while (absl::EndsWith(word, "*")) word.remove_suffix(1);
      prefix = true;
    }
    std::vector<text::AnalyzedToken> tokens =
        text::ThreadLocalAnalyzer().Analyze(word);
    const bool has_word_characters =
        std::any_of(word.begin(), word.end(), [](char c) {
          return absl::ascii_isalnum(static_cast<unsigned char>(c)) ||
                 static_cast<unsigned char>(c) >= 0x80;
        });
    if (tokens.empty() && word.size() > text::kMaxTermBytes && !prefix &&
        has_word_characters) {
      // Longer than any indexed term: a word no paper holds (an AND of it
      // falls back to the other words), not a word to ignore.
      node.kind = QueryNode::Kind::kTerm;
      node.terms.push_back(std::string(word));
      node.word = std::string(word);
      SetTextSpan(word, 0, word.size(), &node);
      return node;
    }
    if (tokens.empty()) return EmptyNode();
    if (prefix && tokens.size() > 1) {
      // Letters and digits, or parts joined by hyphens ("sigma2*",
      // "ResNet-1*"): the prefix of the joined compound the analyzer gives
      // at the first part's position ("sigma2" matches "sigma20"), which
      // the index holds as one term.
      for (size_t i = 1; i < tokens.size(); ++i) {
        if (tokens[i].position != tokens[i - 1].position) continue;
        node.kind = QueryNode::Kind::kPrefix;
        SetTextSpan(text_.substr(start, end - start), tokens[0].start_byte,
                    end - start, &node);
        node.terms.push_back(std::move(tokens[i].term));
        return node;
      }
      return Error(node.position,
                   absl::StrCat("'", word,
                                "*' is several words: a prefix must be one "
                                "word (letters and digits joined)"));
    }
    if (tokens.size() == 1) {
      if (tokens[0].stopword && !prefix) {
        return EmptyNode();
      }
      if (prefix) {
        node.kind = QueryNode::Kind::kPrefix;
        // With its '*'s: the word ends with them.
        SetTextSpan(text_.substr(start, end - start), tokens[0].start_byte,
                    end - start, &node);
        const std::string folded = text::Analyzer::Fold(word.substr(
            tokens[0].start_byte, tokens[0].end_byte - tokens[0].start_byte));
        node.terms.push_back(folded);
        if (tokens[0].term != folded) node.terms.push_back(tokens[0].term);
        return node;
      }
      node.kind = QueryNode::Kind::kTerm;
      node.surface = SurfaceOf(word, tokens[0]);
      node.terms.push_back(std::move(tokens[0].term));
      node.word = std::string(word.substr(
          tokens[0].start_byte, tokens[0].end_byte - tokens[0].start_byte));
      SetTextSpan(word, tokens, &node);
      return node;
    }
    // Several terms: the parts as a phrase, or a joined compound the
    // analyzer gives at the first part's position ("resnet18").
    SetTextSpan(word, tokens, &node);
    QueryNode phrase;
    phrase.kind = QueryNode::Kind::kPhrase;
    phrase.position = node.position;
    phrase.text_begin = node.text_begin;
    phrase.text_end = node.text_end;
    std::vector<QueryNode> joined;
    uint32_t last_position = UINT32_MAX;
    for (text::AnalyzedToken& token : tokens) {
      if (token.position == last_position) {
        QueryNode term;
        term.terms.push_back(std::move(token.term));
        term.position = node.position;
        term.text_begin = node.text_begin;
        term.text_end = node.text_end;
        joined.push_back(std::move(term));
        continue;
      }
      last_position = token.position;
      phrase.terms.push_back(std::move(token.term));
    }
    if (phrase.terms.size() > kMaxPhraseTerms) {
      return Error(node.position,
                   absl::StrCat("word of ", phrase.terms.size(),
                                " parts is longer than the phrase limit of ",
                                kMaxPhraseTerms));
    }
    if (phrase.terms.size() == 1) phrase.kind = QueryNode::Kind::kTerm;
    if (joined.empty()) return phrase;
    node.kind = QueryNode::Kind::kOr;
    node.dismax = true;
    // As typed: the searcher's partial-match fill splits only a word typed
    // with hyphens ("WikiText-103"), not one split where letters meet
    // digits ("llama2").
    node.word = std::string(word);
    node.children.push_back(std::move(phrase));
    for (QueryNode& j : joined) AddChild(std::move(j), &node);
    return node;
  }

  static bool IsField(absl::string_view name) {
    return name == index::kVenueField || name == index::kYearField ||
           name == index::kHasField || name == index::kHostField ||
           name == index::kMethodField || name == index::kDatasetField;
  }

  // Parses "name:value" at at_; `colon` is the colon's byte offset from at_.
  absl::StatusOr<QueryNode> ParseField(std::string name, size_t colon) {
    QueryNode node;
    node.kind = QueryNode::Kind::kField;
    node.position = code_point_;
    const uint32_t name_position = code_point_;
    Advance(colon + 1);
    const uint32_t value_position = code_point_;
    std::string value;
    if (QuoteAt(text_, at_) > 0) {
      absl::StatusOr<absl::string_view> quoted = QuotedText();
      if (!quoted.ok()) return quoted.status();
      value = std::string(*quoted);
    } else {
      const size_t end = WordEnd();
      value = std::string(text_.substr(at_, end - at_));
      Advance(end - at_);
    }
    node.field = name;
    if (name == index::kYearField) {
      return YearFilter(value, value_position, std::move(node));
    }
    if (name == index::kHasField) {
      if (absl::AsciiStrToLower(value) != "code") {
        return Error(value_position, "has: expected `has:code`");
      }
      node.value = "code";
      return node;
    }
    if (name != index::kVenueField && name != index::kHostField &&
        name != index::kMethodField && name != index::kDatasetField) {
      return Error(name_position,
                   absl::StrCat("unknown field '", name, "': expected one of ",
                                kFieldNames));
    }
    node.value = name == index::kDatasetField  ? DatasetKey(value)
                 : name == index::kMethodField ? index::NameKey(value)
                                               : index::FieldKey(value);
    if (name == index::kHostField && absl::StartsWith(node.value, "www.")) {
      node.value.erase(0, 4);
    }
    if (node.value.empty()) {
      return Error(value_position,
                   absl::StrCat("expected a value after '", name, ":'"));
    }
    return node;
  }

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

void CollectInto(const QueryNode& node, std::vector<MatchUnit>* units) {
  if (node.excluded) return;
  switch (node.kind) {
    case QueryNode::Kind::kTerm:
    case QueryNode::Kind::kPhrase: {
      MatchUnit unit{node.terms, node.slop};
      for (const MatchUnit& u : *units) {
        if (u.terms == unit.terms && u.slop == unit.slop) return;
      }
      units->push_back(std::move(unit));
      return;
    }
    case QueryNode::Kind::kAnd:
    case QueryNode::Kind::kOr:
      for (const QueryNode& child : node.children) CollectInto(child, units);
      return;
    case QueryNode::Kind::kPrefix:
    case QueryNode::Kind::kField:
      return;
  }
}

// True for a query of at least kPastedWords white-space separated words.
bool LooksPasted(absl::string_view text) {
  size_t words = 0;
  bool in_word = false;
  for (size_t i = 0; i < text.size();) {
    const size_t space = SpaceAt(text, i);
    if (space > 0) {
      in_word = false;
      i += space;
      continue;
    }
    if (!in_word) ++words;
    in_word = true;
    i += text::Utf8SequenceLength(static_cast<unsigned char>(text[i]));
  }
  return words >= kPastedWords;
}

// `text` with every character the syntax uses replaced by a space, so that
// it parses as words only: quotes, brackets, '*', ':', '~', minus signs
// and the operator words OR, AND, NOT (lower-cased: stopwords).
std::string AsPlainWords(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (const size_t q = QuoteAt(text, i); q > 0) {
      out.push_back(' ');
      i += q;
    } else if (const size_t m = MinusAt(text, i); m > 0) {
      out.push_back(' ');
      i += m;
    } else if (absl::string_view("()*:~").find(text[i]) !=
               absl::string_view::npos) {
      out.push_back(' ');
      ++i;
    } else {
      out.push_back(text[i]);
      ++i;
    }
  }
  for (const std::string op : {"OR", "AND", "NOT"}) {
    for (size_t at = out.find(op); at != std::string::npos;
         at = out.find(op, at + op.size())) {
      for (size_t k = 0; k < op.size(); ++k) {
        out[at + k] = absl::ascii_tolower(out[at + k]);
      }
    }
  }
  return out;
}

}  // namespace

std::vector<MatchUnit> CollectMatchUnits(const QueryNode& node) {
  std::vector<MatchUnit> units;
  CollectInto(node, &units);
  return units;
}

absl::StatusOr<Query> ParseQuery(absl::string_view text) {
  if (text.size() > kMaxQueryBytes) {
    return WithReason(
        WithField(absl::InvalidArgumentError(absl::StrCat(
                      "query: ", text.size(),
                      " bytes is longer than the limit of ", kMaxQueryBytes)),
                  "query"),
        "QUERY_TOO_LONG");
  }
  if (const std::optional<size_t> bad = text::FindInvalidUtf8(text)) {
    return WithReason(WithField(absl::InvalidArgumentError(absl::StrCat(
                                    "query: byte ", *bad, ": not valid UTF-8")),
                                "query"),
                      "QUERY_NOT_UTF8", {{"byte", absl::StrCat(*bad)}});
  }
  absl::StatusOr<Query> query = Parser(text).Parse();
  if (query.ok()) query->text = std::string(text);
  if (query.ok() || !LooksPasted(text)) return query;
  // A pasted abstract: its brackets, quotes, dashes and colons are prose,
  // not syntax. Read it again as plain words.
  absl::StatusOr<Query> plain = Parser(AsPlainWords(text)).Parse();
  if (!plain.ok()) return query;
  plain->read_as_text = true;
  // AsPlainWords keeps every code point's place, so positions hold.
  plain->text = std::string(text);
  return plain;
}

}  // namespace paperdb::search
