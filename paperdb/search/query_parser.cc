#include "paperdb/search/query_parser.h"

#include "paperdb/search/query_parser_impl.h"

namespace paperdb::search {
namespace internal {

absl::StatusOr<Query> Parser::Parse() {
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

void Parser::AppendTerms(const QueryNode& node, std::vector<std::string>* out) {
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

absl::StatusOr<QueryNode> Parser::ParseOr(size_t depth) {
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

bool Parser::OnlyExcludes(const QueryNode& node) {
  if (node.excluded) return true;
  return node.kind == QueryNode::Kind::kAnd && !node.children.empty() &&
         node.children.size() == CountExcluded(node);
}

size_t Parser::CountExcluded(const QueryNode& node) {
  size_t n = 0;
  for (const QueryNode& child : node.children) n += child.excluded;
  return n;
}

absl::StatusOr<QueryNode> Parser::ParseAnd(size_t depth) {
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

absl::StatusOr<QueryNode> Parser::ParseUnary(size_t depth) {
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

absl::StatusOr<QueryNode> Parser::ParsePrimary(size_t depth) {
  if (text_[at_] == '(') {
    const uint32_t open = code_point_;
    if (depth + 1 > kMaxDepth) {
      return Error(open,
                   absl::StrCat("parentheses nested deeper than ", kMaxDepth));
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

}  // namespace internal

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
  // The parser reads full-width syntax as ASCII; the query's text stays as
  // typed, for rewrites (SyntaxForm() keeps code point positions).
  const std::string syntax = internal::SyntaxForm(text);
  absl::StatusOr<Query> query = internal::Parser(syntax).Parse();
  if (query.ok()) query->text = std::string(text);
  if (query.ok() || !internal::LooksPasted(syntax)) return query;
  // A well-formed phrase over the limit is a request, not prose: read as
  // words it would match any paper holding one of them.
  if (ReasonOf(query.status()) == kPhraseTooLong) return query;
  // A pasted abstract: its brackets, quotes, dashes and colons are prose,
  // not syntax. Read it again as plain words.
  absl::StatusOr<Query> plain =
      internal::Parser(internal::AsPlainWords(syntax)).Parse();
  if (!plain.ok()) return query;
  plain->read_as_text = true;
  // AsPlainWords keeps every code point's place, so positions hold.
  plain->text = std::string(text);
  return plain;
}

}  // namespace paperdb::search
