#include "paperdb/search/request_frame.h"

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/text/stopwords.h"

namespace paperdb::search {
namespace {

using Kind = QueryNode::Kind;

// A bare word typed at the query's top level (not quoted, not excluded,
// not a prefix), folded; empty otherwise.
std::string BareWord(const QueryNode& node) {
  if (node.kind != Kind::kTerm || node.excluded || node.word.empty() ||
      node.surface_only || node.surface.empty()) {
    return "";
  }
  return text::Analyzer::Fold(node.word);
}

bool NamesPublications(absl::string_view word) {
  static const auto* const kWords = new absl::flat_hash_set<absl::string_view>{
      "paper",       "papers",       "article",   "articles",
      "publication", "publications", "literature"};
  return kWords->contains(word);
}

// Words that make a leading run a request: asking verbs and publications.
// "search", "work" and "study" alone do not ("search engines", "work
// stealing", "study design"), though a run may hold them ("find work on").
bool AsksForPapers(absl::string_view word) {
  static const auto* const kWords = new absl::flat_hash_set<absl::string_view>{
      "find", "show", "want", "looking", "need", "please", "studies"};
  return NamesPublications(word) || kWords->contains(word);
}

}  // namespace

std::vector<std::vector<QueryNode>> DropRequestFrame(QueryNode* root) {
  std::vector<std::vector<QueryNode>> dropped;
  if (root->kind != Kind::kAnd) return dropped;
  std::vector<QueryNode>& children = root->children;
  size_t begin = 0;
  bool request = false;
  while (begin < children.size()) {
    const std::string word = BareWord(children[begin]);
    if (word.empty() ||
        !(text::IsFunctionWord(word) || text::IsRequestWord(word))) {
      break;
    }
    request |= AsksForPapers(word);
    ++begin;
  }
  if (!request) begin = 0;
  size_t end = children.size();
  if (end > begin + 1 && NamesPublications(BareWord(children[end - 1]))) {
    --end;
  }
  // Something asked for must remain: a word that is not itself a function
  // or request word, a phrase, a filter.
  bool topic = false;
  for (size_t i = begin; i < end && !topic; ++i) {
    const std::string word = BareWord(children[i]);
    topic = !children[i].excluded &&
            (word.empty() ||
             !(text::IsFunctionWord(word) || text::IsRequestWord(word)));
  }
  if (!topic || (begin == 0 && end == children.size())) return dropped;
  std::vector<QueryNode> kept;
  for (size_t i = 0; i < children.size(); ++i) {
    if (i < begin || i >= end) {
      if (dropped.empty() || i == end) dropped.emplace_back();
      dropped.back().push_back(std::move(children[i]));
    } else {
      kept.push_back(std::move(children[i]));
    }
  }
  children = std::move(kept);
  return dropped;
}

}  // namespace paperdb::search
