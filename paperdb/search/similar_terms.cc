#include "paperdb/search/similar_terms.h"

#include <algorithm>
#include <cmath>

#include "absl/container/flat_hash_map.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/storage/paper_table.h"
#include "paperdb/text/analyzer.h"
#include "unicode/uchar.h"
#include "unicode/utf8.h"

namespace paperdb::search {
namespace {

// True if `term` has at least 3 code points and a letter.
bool Informative(absl::string_view term) {
  const auto* s = reinterpret_cast<const uint8_t*>(term.data());
  int32_t i = 0;
  const int32_t n = static_cast<int32_t>(term.size());
  int count = 0;
  bool letter = false;
  while (i < n) {
    UChar32 c;
    U8_NEXT(s, i, n, c);
    ++count;
    letter |= c >= 0 && u_isalpha(c);
  }
  return count >= 3 && letter;
}

}  // namespace

absl::StatusOr<std::vector<SimilarTerm>> SelectSimilarTerms(
    const storage::Store& store, absl::string_view text, bool text_is_stored,
    size_t max_terms) {
  storage::PaperTable table(&store);
  PAPERDB_ASSIGN_OR_RETURN(const storage::v1::CorpusStats stats, table.Stats());
  const double n = static_cast<double>(stats.doc_count());
  absl::flat_hash_map<std::string, size_t> slot;
  std::vector<SimilarTerm> terms;
  for (const text::AnalyzedToken& token :
       text::ThreadLocalAnalyzer().Analyze(text)) {
    if (token.stopword || !Informative(token.term)) continue;
    auto [it, inserted] = slot.emplace(token.term, terms.size());
    if (inserted) {
      SimilarTerm term;
      term.term = token.term;
      term.word = std::string(
          text.substr(token.start_byte, token.end_byte - token.start_byte));
      terms.push_back(std::move(term));
    }
    ++terms[it->second].tf;
  }
  const uint32_t min_df = text_is_stored ? 2 : 1;
  std::vector<SimilarTerm> kept;
  for (SimilarTerm& term : terms) {
    PAPERDB_ASSIGN_OR_RETURN(term.df, DocumentFrequency(store, term.term));
    if (term.df < min_df) continue;
    term.weight = term.tf * (1.0 + std::log((n + 1.0) / (term.df + 1.0)));
    kept.push_back(std::move(term));
  }
  std::stable_sort(kept.begin(), kept.end(),
                   [](const SimilarTerm& a, const SimilarTerm& b) {
                     return a.weight > b.weight;
                   });
  if (kept.size() > max_terms) kept.resize(max_terms);
  return kept;
}

}  // namespace paperdb::search
