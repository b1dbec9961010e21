#include "paperdb/search/similar_terms.h"

#include <algorithm>
#include <cmath>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "paperdb/common/status_macros.h"
#include "paperdb/search/query_expander.h"
#include "paperdb/storage/paper_table.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/text/utf8.h"
#include "unicode/uchar.h"
#include "unicode/utf8.h"

namespace paperdb::search {
namespace {

// Words that say nothing about a paper's subject: the Snowball English stop
// list (https://snowballstem.org/algorithms/english/stop.txt), which is
// longer than the index's, plus number words, the connectives and hedges
// of academic prose, and a few words every abstract uses.
bool IsFiller(absl::string_view folded) {
  static const auto* const kWords = new absl::flat_hash_set<std::string>{
      "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you",
      "your", "yours", "yourself", "yourselves", "he", "him", "his", "himself",
      "she", "her", "hers", "herself", "it", "its", "itself", "they", "them",
      "their", "theirs", "themselves", "what", "which", "who", "whom", "this",
      "that", "these", "those", "am", "is", "are", "was", "were", "be", "been",
      "being", "have", "has", "had", "having", "do", "does", "did", "doing",
      "would", "should", "could", "ought", "a", "an", "the", "and", "but", "if",
      "or", "because", "as", "until", "while", "of", "at", "by", "for", "with",
      "about", "against", "between", "into", "through", "during", "before",
      "after", "above", "below", "to", "from", "up", "down", "in", "out", "on",
      "off", "over", "under", "again", "further", "then", "once", "here",
      "there", "when", "where", "why", "how", "all", "any", "both", "each",
      "few", "more", "most", "other", "some", "such", "no", "nor", "not",
      "only", "own", "same", "so", "than", "too", "very", "can", "will", "just",
      "also", "may", "might", "must", "shall", "one", "two", "three", "four",
      "five", "six", "seven", "eight", "nine", "ten", "first", "second",
      "third", "use", "uses", "used", "using", "however", "thus", "via", "well",
      "many", "much", "non", "new", "show", "shows", "shown", "help", "helps",
      "based",
      // Connectives, hedges and framing words of academic prose: they join
      // or qualify claims and say nothing of what is claimed.
      "yet", "despite", "therefore", "still", "furthermore", "moreover",
      "besides", "whether", "rather", "upon", "whereas", "cannot", "hence",
      "thereby", "although", "though", "nevertheless", "nonetheless", "instead",
      "often", "usually", "typically", "generally", "namely", "indeed",
      "already", "even", "within", "without", "across", "among", "toward",
      "towards", "beyond", "whose", "whereby", "since", "unlike", "like", "due",
      "otherwise", "respectively", "overall", "various", "several", "numerous",
      "per", "together", "currently", "fact", "made", "make", "makes", "making",
      "utilize", "utilizes", "utilized", "utilizing", "allow", "allows",
      "enable", "enables", "propose", "proposes", "proposed", "present",
      "presents", "paper", "work", "approach", "approaches", "results",
      "existing", "previous", "recent", "recently", "simple", "effective",
      "novel", "able", "whole", "zero", "last", "years", "seamlessly",
      "straightforwardly", "works", "instance", "instances", "comprise",
      "comprises", "comprising", "consist", "consists", "consisting", "include",
      "includes", "including", "provide", "provides", "providing", "achieve",
      "achieves", "achieving", "demonstrate", "demonstrates", "introduce",
      "introduces", "particular", "particularly", "specific", "specifically",
      "certain", "given", "significant", "significantly", "substantially",
      "important", "way", "ways",
      // Han and Kana are terms a character each: the function characters
      // of Chinese academic prose ("本文提出一种基于...的方法": this paper
      // proposes a method based on ...) and the hiragana of Japanese
      // grammar (particles, endings), which say nothing of a subject.
      "的", "了", "是", "在", "和", "与", "及", "或", "于", "以", "为", "对",
      "等", "种", "本", "文", "此", "其", "这", "该", "并", "也", "都", "而",
      "被", "将", "把", "从", "由", "个", "之", "不", "有", "可", "能", "用",
      "提", "出", "我", "们", "使", "通", "过", "进", "行", "基", "方", "法",
      "一", "中", "到", "就", "要", "会", "所", "如", "因", "但", "则", "已",
      "更", "最", "很", "还", "又", "の", "に", "を", "は", "が", "で", "と",
      "も", "へ", "や", "か", "た", "て", "し", "す", "る", "な", "い", "れ",
      "ら", "こ", "そ", "ま", "ど", "う", "お", "ん", "っ", "だ", "く"};
  return kWords->contains(folded);
}

// True if `term` has at least 3 code points and a letter, is one Han or
// Kana character, or `surface`, the word as written, is an acronym of 2
// capitals ("RL", "QA"), which names a field's subject as much as a longer
// word.
bool Informative(absl::string_view term, absl::string_view surface) {
  const auto* s = reinterpret_cast<const uint8_t*>(term.data());
  int32_t i = 0;
  const int32_t n = static_cast<int32_t>(term.size());
  int count = 0;
  bool letter = false;
  bool unspaced = false;
  while (i < n) {
    UChar32 c;
    U8_NEXT(s, i, n, c);
    ++count;
    letter |= c >= 0 && u_isalpha(c);
    unspaced |= c >= 0 && text::IsUnspacedScript(c);
  }
  if (count >= 3 && letter) return true;
  // Han and Kana are indexed a character a term (text/utf8.h): each is a
  // word's worth.
  if (count == 1 && unspaced) return true;
  return count == 2 && surface.size() == 2 && absl::ascii_isupper(surface[0]) &&
         absl::ascii_isupper(surface[1]);
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
    const absl::string_view surface =
        text.substr(token.start_byte, token.end_byte - token.start_byte);
    if (token.stopword || token.compound || !Informative(token.term, surface)) {
      continue;
    }
    if (IsFiller(text::Analyzer::Fold(surface))) continue;
    auto [it, inserted] = slot.emplace(token.term, terms.size());
    if (inserted) {
      SimilarTerm term;
      term.term = token.term;
      term.word = text::Analyzer::ShownWord(
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
