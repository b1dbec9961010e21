#include "paperdb/search/any_terms_query.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/text/stopwords.h"

namespace paperdb::search {
namespace {

using Kind = QueryNode::Kind;

bool IsFunctionOrRequestWord(const std::string& word) {
  const std::string folded = text::Analyzer::Fold(word);
  return text::IsFunctionWord(folded) || text::IsRequestWord(folded);
}

}  // namespace

bool AnyTermsQuery(const QueryNode& root, QueryNode* out) {
  if (root.kind != Kind::kAnd) return false;
  QueryNode any;
  any.kind = Kind::kOr;
  out->kind = Kind::kAnd;
  out->children.clear();
  size_t units = 0;   // Scored words and phrases in groups.
  size_t groups = 0;  // Groups of words with their acronym.
  std::vector<QueryNode> function_words;
  // The plain words of the query, which a hyphenated word's part repeats
  // at most once.
  absl::flat_hash_set<std::string> counted;
  for (const QueryNode& child : root.children) {
    if (child.excluded) continue;
    if (child.kind == Kind::kTerm) counted.insert(child.terms[0]);
    // The words of a group with their acronym or concept count too.
    if (child.kind == Kind::kOr && child.dismax && !child.children.empty() &&
        child.children[0].kind == Kind::kAnd) {
      for (const QueryNode& word : child.children[0].children) {
        if (word.kind == Kind::kTerm) counted.insert(word.terms[0]);
      }
    }
  }
  for (const QueryNode& child : root.children) {
    if (child.excluded || IsFilter(child)) {
      out->children.push_back(child);
    } else if (child.kind == Kind::kOr && child.dismax &&
               !child.children.empty() &&
               child.children[0].kind == Kind::kAnd) {
      // Words the expander grouped with their acronym ("spiking neural
      // networks" OR "snn") count one by one, summed, against the acronym:
      // the better of the two, as in a full match, so that a paper holding
      // some of the words scores no more than one holding them all.
      QueryNode group = child;
      group.children[0].kind = Kind::kOr;
      units += group.children[0].children.size();
      ++groups;
      any.children.push_back(std::move(group));
    } else if (child.kind == Kind::kOr && child.dismax && !child.expansion &&
               !child.children.empty() &&
               child.children[0].kind == Kind::kPhrase &&
               (absl::StrContains(child.word, '-') ||
                absl::StrContains(child.word, "\xE2\x80\x90") ||
                absl::StrContains(child.word, "\xE2\x80\x91"))) {
      // A hyphenated word ("WikiText-103": the phrase of its parts or the
      // parts glued): among partial matches its parts count one by one,
      // and the glued form too, as a paper writing "prompt tuning" shares
      // most of what "prompt-style" asks for.
      for (const std::string& part : child.children[0].terms) {
        // A stopword, a single character or a number alone says nothing
        // ("CIFAR-10": not "10"); a word the query has already counts.
        // A function or request word alone says nothing either ("how-to"),
        // nor does a number without letters ("GPT-1.0": not "1.0").
        if (part.size() < 2 || text::IsStopword(part) ||
            text::IsFunctionWord(part) || text::IsRequestWord(part) ||
            std::none_of(part.begin(), part.end(), absl::ascii_isalpha) ||
            !counted.insert(part).second) {
          continue;
        }
        QueryNode term;
        term.terms.push_back(part);
        term.position = child.position;
        any.children.push_back(std::move(term));
      }
      for (size_t i = 1; i < child.children.size(); ++i) {
        any.children.push_back(child.children[i]);
      }
    } else if (child.kind == Kind::kTerm && !child.word.empty() &&
               IsFunctionOrRequestWord(child.word)) {
      // "what", "does", "papers": a paper sharing only these with a
      // sentence-like query matches nothing asked for. They count as typed
      // words, but match only when the query has nothing else.
      function_words.push_back(child);
    } else {
      any.children.push_back(child);
    }
  }
  units += any.children.size() + function_words.size() - groups;
  if (units < 2) return false;
  if (any.children.empty()) any.children = std::move(function_words);
  out->children.push_back(std::move(any));
  return true;
}

}  // namespace paperdb::search
