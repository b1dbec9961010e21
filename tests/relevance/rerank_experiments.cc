// RM3 and the sequential dependence model as rerankers (rerank_experiments.h).

#include "tests/relevance/rerank_experiments.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "paperdb/text/stopwords.h"

namespace paperdb::relevance {
namespace {

constexpr double kK1 = 1.2;
constexpr double kB = 0.75;
// SDM's windows: #1 over content words (one stopword may sit between) and
// #uw8.
constexpr uint32_t kOrderedWindow = 2;
constexpr uint32_t kUnorderedWindow = 8;

bool HasLetter(const std::string& term) {
  return std::any_of(term.begin(), term.end(),
                     [](unsigned char c) { return std::isalpha(c) != 0; });
}

}  // namespace

absl::StatusOr<std::unique_ptr<RerankCorpus>> RerankCorpus::Build(
    const std::vector<v1::Paper>& papers) {
  auto analyzer = text::Analyzer::Create();
  if (!analyzer.ok()) return analyzer.status();
  auto corpus =
      std::unique_ptr<RerankCorpus>(new RerankCorpus(std::move(*analyzer)));
  double total = 0.0;
  for (const v1::Paper& paper : papers) {
    Doc doc;
    doc.words = corpus->ContentWords(paper.abstract());
    for (const auto& [term, position] : doc.words) ++doc.tf[term];
    doc.length = static_cast<int>(doc.words.size());
    for (const auto& [term, count] : doc.tf) ++corpus->df_[term];
    total += doc.length;
    corpus->docs_[paper.id()] = std::move(doc);
  }
  if (!papers.empty()) corpus->average_length_ = total / papers.size();
  return corpus;
}

std::vector<std::pair<std::string, uint32_t>> RerankCorpus::ContentWords(
    const std::string& text) {
  std::vector<std::pair<std::string, uint32_t>> words;
  for (const text::AnalyzedToken& token : analyzer_->Analyze(text)) {
    if (token.stopword || token.compound || !HasLetter(token.term) ||
        text::IsFunctionWord(token.term)) {
      continue;
    }
    words.emplace_back(token.term, token.position);
  }
  return words;
}

double RerankCorpus::Bm25(int tf, int df, int length) const {
  if (tf == 0) return 0.0;
  const double n = static_cast<double>(docs_.size());
  const double idf = std::log(1.0 + (n - df + 0.5) / (df + 0.5));
  return idf * tf * (kK1 + 1) /
         (tf + kK1 * (1 - kB + kB * length / average_length_));
}

int RerankCorpus::PairCount(const Doc& doc, const std::string& a,
                            const std::string& b, bool ordered,
                            uint32_t window) {
  int count = 0;
  for (const auto& [first, at] : doc.words) {
    if (first != a) continue;
    for (const auto& [second, other] : doc.words) {
      if (second != b) continue;
      const int64_t gap = static_cast<int64_t>(other) - at;
      const bool near = ordered ? gap >= 1 && gap <= window
                                : gap != 0 && std::llabs(gap) < window;
      if (near) {
        ++count;
        break;
      }
    }
  }
  return count;
}

double RerankCorpus::PairScore(const std::vector<std::string>& words,
                               const Doc& doc, bool ordered, uint32_t window) {
  double score = 0.0;
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    const int tf = PairCount(doc, words[i], words[i + 1], ordered, window);
    if (tf == 0) continue;
    const std::string key =
        absl::StrCat(words[i], " ", words[i + 1], ordered ? " o" : " u");
    auto [it, inserted] = pair_df_.try_emplace(key, 0);
    if (inserted) {
      for (const auto& [id, other] : docs_) {
        it->second +=
            PairCount(other, words[i], words[i + 1], ordered, window) > 0;
      }
    }
    score += Bm25(tf, it->second, doc.length);
  }
  return score;
}

double RerankCorpus::Rm3Score(
    const std::vector<std::pair<double, std::string>>& model,
    const Doc& doc) const {
  double score = 0.0;
  for (const auto& [weight, term] : model) {
    auto tf = doc.tf.find(term);
    if (tf == doc.tf.end()) continue;
    score += weight * Bm25(tf->second, df_.at(term), doc.length);
  }
  return score;
}

std::vector<std::string> RerankCorpus::Rerank(
    const std::string& query, const v1::SearchPapersResponse& response,
    const RerankOptions& options) {
  std::vector<std::string> words;
  std::set<std::string> query_terms;
  for (const auto& [term, position] : ContentWords(query)) {
    words.push_back(term);
    query_terms.insert(term);
  }
  static const Doc kEmpty;
  auto doc_of = [&](const v1::SearchResult& result) -> const Doc& {
    auto it = docs_.find(result.paper().id());
    return it == docs_.end() ? kEmpty : it->second;
  };
  // RM3's expansion terms: P(t|R) over the feedback documents.
  std::vector<std::pair<double, std::string>> model;
  if (options.rm3_original_weight < 1.0) {
    const int k = std::min(options.rm3_docs, response.results_size());
    double total = 0.0;
    for (int i = 0; i < k; ++i) total += response.results(i).score();
    std::map<std::string, double> weights;
    for (int i = 0; i < k && total > 0; ++i) {
      const Doc& doc = doc_of(response.results(i));
      const double share = response.results(i).score() / total;
      for (const auto& [term, tf] : doc.tf) {
        if (!query_terms.contains(term)) {
          weights[term] += share * tf / doc.length;
        }
      }
    }
    for (const auto& [term, weight] : weights) model.emplace_back(weight, term);
    std::sort(model.rbegin(), model.rend());
    if (model.size() > static_cast<size_t>(options.rm3_terms)) {
      model.resize(options.rm3_terms);
    }
    double sum = 0.0;
    for (const auto& [weight, term] : model) sum += weight;
    // The query's words each weigh original/|q|, the expansion terms
    // (1 - original) times their probability; scaled so the words weigh 1.
    const double scale =
        (1.0 - options.rm3_original_weight) / options.rm3_original_weight *
        std::max<size_t>(words.size(), 1) / std::max(sum, 1e-9);
    for (auto& [weight, term] : model) weight *= scale;
  }
  std::vector<std::tuple<bool, double, int>> order;  // Partial, -score, rank.
  for (int i = 0; i < response.results_size(); ++i) {
    const v1::SearchResult& result = response.results(i);
    const Doc& doc = doc_of(result);
    double score = result.score() + Rm3Score(model, doc);
    if (options.sdm_ordered > 0.0) {
      score +=
          options.sdm_ordered * PairScore(words, doc, true, kOrderedWindow);
    }
    if (options.sdm_unordered > 0.0) {
      score += options.sdm_unordered *
               PairScore(words, doc, false, kUnorderedWindow);
    }
    order.emplace_back(result.partial_match(), -score, i);
  }
  std::sort(order.begin(), order.end());
  std::vector<std::string> ids;
  for (const auto& [partial, score, rank] : order) {
    ids.push_back(response.results(rank).paper().id());
  }
  return ids;
}

}  // namespace paperdb::relevance
