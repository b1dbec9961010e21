#include "paperdb/search/surface_words.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/index/posting_iterator.h"
#include "paperdb/storage/paper_table.h"
#include "paperdb/text/analyzer.h"

namespace paperdb::search {

absl::StatusOr<std::vector<std::string>> SurfaceWords(
    const storage::Store& store, const std::vector<std::string>& terms,
    const CancelFn& cancelled) {
  std::vector<std::string> out = terms;
  absl::flat_hash_map<uint32_t, std::vector<size_t>> by_doc;
  for (size_t i = 0; i < terms.size(); ++i) {
    index::PostingIterator postings(store, terms[i]);
    if (postings.doc() == index::kNoMoreDocs) {
      PAPERDB_RETURN_IF_ERROR(postings.status());
      continue;
    }
    by_doc[postings.doc()].push_back(i);
  }
  storage::PaperTable table(&store);
  for (const auto& [doc, indices] : by_doc) {
    if (IsCancelRequested(cancelled)) return SearchCancelledError();
    PAPERDB_ASSIGN_OR_RETURN(const storage::v1::PaperRecord record,
                             table.Get(doc));
    absl::flat_hash_map<absl::string_view, std::vector<size_t>> wanted;
    for (const size_t i : indices) wanted[terms[i]].push_back(i);
    const std::string& text = record.paper().abstract();
    for (const text::AnalyzedToken& token :
         text::ThreadLocalAnalyzer().Analyze(text)) {
      const auto it = wanted.find(token.term);
      if (it == wanted.end()) continue;
      const std::string word = text::Analyzer::Fold(
          text::Analyzer::ShownWord(absl::string_view(text).substr(
              token.start_byte, token.end_byte - token.start_byte)));
      for (const size_t i : it->second) out[i] = word;
      wanted.erase(it);
      if (wanted.empty()) break;
    }
  }
  return out;
}

}  // namespace paperdb::search
