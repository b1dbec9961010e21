#include "paperdb/search/query_tree.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "paperdb/text/utf8.h"

namespace paperdb::search {
namespace internal {

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

QueryNode EmptyNode() {
  QueryNode node;
  node.kind = QueryNode::Kind::kAnd;
  return node;
}

}  // namespace internal

bool Query::MatchesNothing() const {
  for (const QueryNode& child : root.children) {
    if (!child.excluded) return false;
  }
  return true;
}

namespace {

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

}  // namespace

std::vector<MatchUnit> CollectMatchUnits(const QueryNode& node) {
  std::vector<MatchUnit> units;
  CollectInto(node, &units);
  return units;
}

std::optional<TypedText> TypedTextOf(absl::string_view text,
                                     const QueryNode& first,
                                     const QueryNode& last) {
  if (text.empty() || first.text_end == 0 || last.text_end == 0 ||
      last.text_end < first.text_begin) {
    return std::nullopt;
  }
  const size_t begin = text::ByteOffsetOfCodePoint(text, first.text_begin);
  const size_t end = text::ByteOffsetOfCodePoint(text, last.text_end);
  return TypedText{text.substr(begin, end - begin), first.text_begin};
}

bool IsFilter(const QueryNode& node) {
  if (node.kind == QueryNode::Kind::kField) return true;
  if (node.kind != QueryNode::Kind::kAnd && node.kind != QueryNode::Kind::kOr) {
    return false;
  }
  return !node.children.empty() &&
         std::all_of(node.children.begin(), node.children.end(),
                     [](const QueryNode& child) {
                       return !child.excluded && IsFilter(child);
                     });
}

size_t ScoredUnits(const QueryNode& node) {
  if (node.excluded || IsFilter(node)) return 0;
  if (node.kind != QueryNode::Kind::kAnd &&
      (node.kind != QueryNode::Kind::kOr || node.dismax)) {
    return 1;
  }
  size_t units = 0;
  for (const QueryNode& child : node.children) units += ScoredUnits(child);
  return units;
}

}  // namespace paperdb::search
