#include "paperdb/index/paper_concepts.h"

#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"

namespace paperdb::index {
namespace {

// An acronym as compared: case-folded, a plural "s" after at least two
// letters dropped ("BNNs": "bnn").
std::string AcronymKey(absl::string_view written) {
  std::string key = text::Analyzer::Fold(written);
  if (key.size() > 2 && absl::EndsWith(written, "s")) key.pop_back();
  return key;
}

}  // namespace

std::vector<semantic::ConceptMention> PaperConcepts(
    const v1::Paper& paper, absl::Span<const text::AnalyzedToken> tokens) {
  const absl::string_view abstract = paper.abstract();
  std::vector<semantic::ConceptMention> mentions =
      semantic::ConceptLexicon::Default().MatchTokens(abstract, tokens);
  if (paper.acronyms().empty() || mentions.empty()) return mentions;
  // The first word of each position (not a joined compound).
  absl::flat_hash_map<uint32_t, const text::AnalyzedToken*> at;
  for (const text::AnalyzedToken& token : tokens) {
    if (!token.compound) at.emplace(token.position, &token);
  }
  // Each defined acronym's key -> the concepts its expansions name.
  absl::flat_hash_map<std::string, absl::flat_hash_set<uint32_t>> meanings;
  for (const v1::AcronymDefinition& definition : paper.acronyms()) {
    absl::flat_hash_set<uint32_t>& named =
        meanings[AcronymKey(definition.acronym())];
    const uint32_t start = definition.expansion_span().start_byte();
    const uint32_t end = definition.expansion_span().end_byte();
    for (const semantic::ConceptMention& m : mentions) {
      auto token = at.find(m.position);
      if (token != at.end() && token->second->start_byte >= start &&
          token->second->end_byte <= end) {
        named.insert(m.concept_index);
      }
    }
  }
  std::vector<semantic::ConceptMention> kept;
  kept.reserve(mentions.size());
  for (const semantic::ConceptMention& m : mentions) {
    if (m.words == 1) {
      auto token = at.find(m.position);
      if (token != at.end() && token->second->end_byte <= abstract.size()) {
        const absl::string_view written = abstract.substr(
            token->second->start_byte,
            token->second->end_byte - token->second->start_byte);
        auto meaning = meanings.find(AcronymKey(written));
        if (meaning != meanings.end() &&
            !meaning->second.contains(m.concept_index)) {
          continue;
        }
      }
    }
    kept.push_back(m);
  }
  return kept;
}

}  // namespace paperdb::index
