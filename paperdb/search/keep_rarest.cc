#include "paperdb/search/keep_rarest.h"

#include <algorithm>
#include <utility>

#include "paperdb/common/status_macros.h"

namespace paperdb::search {

absl::Status KeepRarestWords(const storage::Store& store, QueryNode* root,
                             absl::flat_hash_map<std::string, uint32_t>* dfs,
                             std::vector<QueryRewrite>* rewrites) {
  std::vector<size_t> words;
  for (size_t i = 0; i < root->children.size(); ++i) {
    const QueryNode& child = root->children[i];
    if (child.kind == QueryNode::Kind::kTerm && !child.excluded) {
      words.push_back(i);
    }
  }
  if (words.size() <= kMaxConjunctionTerms) return absl::OkStatus();
  for (size_t i : words) {
    const std::string& term = root->children[i].terms[0];
    if (!dfs->contains(term)) {
      PAPERDB_ASSIGN_OR_RETURN((*dfs)[term], DocumentFrequency(store, term));
    }
  }
  std::stable_sort(words.begin(), words.end(), [&](size_t a, size_t b) {
    return dfs->at(root->children[a].terms[0]) <
           dfs->at(root->children[b].terms[0]);
  });
  std::vector<bool> drop(root->children.size(), false);
  QueryRewrite rewrite{QueryRewrite::Kind::kDropped, "", 0, {}};
  for (size_t k = kMaxConjunctionTerms; k < words.size(); ++k) {
    drop[words[k]] = true;
  }
  std::vector<QueryNode> kept;
  for (size_t i = 0; i < root->children.size(); ++i) {
    if (drop[i]) {
      rewrite.replacements.push_back(root->children[i].terms[0]);
    } else {
      kept.push_back(std::move(root->children[i]));
    }
  }
  root->children = std::move(kept);
  rewrites->push_back(std::move(rewrite));
  return absl::OkStatus();
}

}  // namespace paperdb::search
