#include "tests/relevance/relevance.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "unicode/uchar.h"
#include "unicode/utf8.h"

namespace paperdb::relevance {
namespace {

// Lines of a TSV file split into fields, with 1-based line numbers;
// comments, blank lines and the header (first field "query_id") skipped.
absl::StatusOr<std::vector<std::pair<int, std::vector<std::string>>>> ReadTsv(
    const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::vector<std::pair<int, std::vector<std::string>>> rows;
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields = absl::StrSplit(line, '\t');
    if (fields[0] == "query_id") continue;
    rows.emplace_back(line_number, std::move(fields));
  }
  return rows;
}

absl::Status LineError(const std::string& path, int line,
                       absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat(path, ": line ", line, ": ", what));
}

}  // namespace

absl::StatusOr<std::vector<JudgedQuery>> LoadJudgedQueries(
    const std::string& queries_path, const std::string& judgments_path,
    std::map<std::string, std::string>* notes,
    std::vector<std::string>* warnings) {
  auto query_rows = ReadTsv(queries_path);
  if (!query_rows.ok()) return query_rows.status();
  std::vector<JudgedQuery> queries;
  std::map<std::string, size_t> index;
  for (auto& [line, fields] : *query_rows) {
    if (fields.size() != 3 || fields[0].empty() || fields[1].empty()) {
      return LineError(queries_path, line,
                       "expected query_id TAB tier TAB query");
    }
    if (!index.emplace(fields[0], queries.size()).second) {
      return LineError(queries_path, line, "duplicate query id " + fields[0]);
    }
    queries.push_back({fields[0], fields[1], fields[2], {}});
  }
  auto judgment_rows = ReadTsv(judgments_path);
  if (!judgment_rows.ok()) return judgment_rows.status();
  for (auto& [line, fields] : *judgment_rows) {
    int grade = -1;
    if (fields.size() < 3 || !absl::SimpleAtoi(fields[2], &grade) ||
        grade < 0 || grade > 3) {
      return LineError(judgments_path, line,
                       "expected query_id TAB paper_id TAB grade (0-3)");
    }
    auto it = index.find(fields[0]);
    if (it == index.end()) {
      return LineError(judgments_path, line, "unknown query " + fields[0]);
    }
    if (grade > 0) queries[it->second].grades[fields[1]] = grade;
    if (notes != nullptr && fields.size() > 3) (*notes)[fields[1]] = fields[3];
  }
  if (warnings == nullptr) return queries;
  for (const JudgedQuery& query : queries) {
    const bool none_tier = query.tier == kNoRelevantTier;
    if (none_tier != query.no_relevant()) {
      warnings->push_back(absl::StrCat(
          "query ", query.id, " of tier ", query.tier,
          none_tier ? " has judged papers: scored by nDCG and MRR"
                    : " has no judged paper: scored as no-relevant"));
    }
    const bool has_hit =
        std::any_of(query.grades.begin(), query.grades.end(),
                    [](const auto& g) { return g.second >= kMrrMinGrade; });
    if (!query.no_relevant() && !has_hit) {
      warnings->push_back(absl::StrCat("query ", query.id,
                                       " has no paper graded ", kMrrMinGrade,
                                       " or more: its MRR is 0"));
    }
  }
  return queries;
}

double Ndcg(const JudgedQuery& query, const Ranking& ranking) {
  auto gain = [](int grade) { return std::pow(2.0, grade) - 1; };
  auto discount = [](size_t rank0) { return 1 / std::log2(rank0 + 2.0); };
  double dcg = 0;
  for (size_t i = 0; i < ranking.ids.size() && i < kCutoff; ++i) {
    auto it = query.grades.find(ranking.ids[i]);
    if (it != query.grades.end()) dcg += gain(it->second) * discount(i);
  }
  std::vector<int> ideal;
  for (const auto& [id, grade] : query.grades) ideal.push_back(grade);
  std::sort(ideal.rbegin(), ideal.rend());
  double idcg = 0;
  for (size_t i = 0; i < ideal.size() && i < kCutoff; ++i) {
    idcg += gain(ideal[i]) * discount(i);
  }
  return idcg > 0 ? dcg / idcg : 0;
}

double ReciprocalRank(const JudgedQuery& query, const Ranking& ranking) {
  for (size_t i = 0; i < ranking.ids.size() && i < kCutoff; ++i) {
    auto it = query.grades.find(ranking.ids[i]);
    if (it != query.grades.end() && it->second >= kMrrMinGrade) {
      return 1.0 / static_cast<double>(i + 1);
    }
  }
  return 0;
}

double NoRelevantScore(const Ranking& ranking) {
  return ranking.ids.empty() || ranking.any_terms ? 1 : 0;
}

namespace {

// Lucene's English stopwords, which paperdb ignores outside phrases.
bool IsStopword(const std::string& lower) {
  static const auto* const kStopwords = new absl::flat_hash_set<std::string>{
      "a",    "an",   "and",  "are",  "as",   "at",    "be",   "but",   "by",
      "for",  "if",   "in",   "into", "is",   "it",    "no",   "not",   "of",
      "on",   "or",   "such", "that", "the",  "their", "then", "there", "these",
      "they", "this", "to",   "was",  "will", "with"};
  return kStopwords->contains(lower);
}

// True if `text` holds a letter or digit, so that FTS5's unicode61
// tokenizer finds a token in it (an empty FTS5 string in an AND matches
// nothing, where paperdb ignores a word of punctuation such as an em dash).
bool HasTokenCharacter(absl::string_view text) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  const int32_t length = static_cast<int32_t>(text.size());
  for (int32_t i = 0; i < length;) {
    UChar32 c;
    U8_NEXT(bytes, i, length, c);
    if (c >= 0 && u_isalnum(c)) return true;
  }
  return false;
}

std::string Quote(absl::string_view text) {
  return absl::StrCat("\"", absl::StrReplaceAll(text, {{"\"", "\"\""}}), "\"");
}

// U+201C, U+201D (typographic quotes) and U+2212 (minus sign) in UTF-8.
constexpr absl::string_view kOpenQuote = "\xE2\x80\x9C";
constexpr absl::string_view kCloseQuote = "\xE2\x80\x9D";
constexpr absl::string_view kMinusSign = "\xE2\x88\x92";

// Length of the quote character at the start of `s`, or 0.
size_t QuoteLength(absl::string_view s) {
  if (absl::StartsWith(s, "\"")) return 1;
  if (absl::StartsWith(s, kOpenQuote) || absl::StartsWith(s, kCloseQuote)) {
    return kOpenQuote.size();
  }
  return 0;
}

struct Unit {
  enum class Kind { kTerm, kOr, kOpen, kClose };
  static Unit Operator(Kind kind) { return {kind, false, ""}; }
  Kind kind = Kind::kTerm;
  bool negated = false;
  std::string fts;  // kTerm: the FTS5 string, phrase or NEAR group.
};

// A phrase's FTS5 form: "a b c", "a b"* for a prefix, NEAR("a" "b", N).
std::string PhraseUnit(absl::string_view phrase, absl::string_view suffix) {
  int near = 0;
  if (absl::StartsWith(suffix, "~") &&
      absl::SimpleAtoi(suffix.substr(1), &near)) {
    std::vector<std::string> words;
    for (absl::string_view w : absl::StrSplit(phrase, ' ', absl::SkipEmpty())) {
      if (HasTokenCharacter(w)) words.push_back(Quote(w));
    }
    if (words.size() > 1) {
      return absl::StrCat("NEAR(", absl::StrJoin(words, " "), ", ", near, ")");
    }
  }
  return absl::StrCat(Quote(phrase), suffix == "*" ? "*" : "");
}

std::vector<Unit> Parse(absl::string_view query) {
  std::vector<Unit> units;
  bool negate_next = false;
  size_t pos = 0;
  auto at_space = [&](size_t p) {
    return p >= query.size() || absl::ascii_isspace(query[p]);
  };
  while (pos < query.size()) {
    if (absl::ascii_isspace(query[pos])) {
      ++pos;
      continue;
    }
    if (query[pos] == '(' || query[pos] == ')') {
      units.push_back(Unit::Operator(query[pos] == '(' ? Unit::Kind::kOpen
                                                       : Unit::Kind::kClose));
      ++pos;
      continue;
    }
    bool negated = std::exchange(negate_next, false);
    if (query[pos] == '-' && !at_space(pos + 1)) {
      negated = true;
      ++pos;
    } else if (absl::StartsWith(query.substr(pos), kMinusSign) &&
               !at_space(pos + kMinusSign.size())) {
      negated = true;
      pos += kMinusSign.size();
    }
    if (size_t q = QuoteLength(query.substr(pos)); q > 0) {
      size_t end = pos + q;
      while (end < query.size() && QuoteLength(query.substr(end)) == 0) ++end;
      const absl::string_view phrase = query.substr(pos + q, end - pos - q);
      pos = std::min(query.size(), end + QuoteLength(query.substr(end)));
      size_t suffix_end = pos;
      while (!at_space(suffix_end) && query[suffix_end] != ')') ++suffix_end;
      const absl::string_view suffix = query.substr(pos, suffix_end - pos);
      pos = suffix_end;
      if (HasTokenCharacter(phrase)) {
        units.push_back(
            {Unit::Kind::kTerm, negated, PhraseUnit(phrase, suffix)});
      }
      continue;
    }
    size_t end = pos;
    while (!at_space(end) && QuoteLength(query.substr(end)) == 0) ++end;
    absl::string_view word = query.substr(pos, end - pos);
    pos = end;
    int closing = 0;
    while (!word.empty() && word.back() == ')') {
      word.remove_suffix(1);
      ++closing;
    }
    if (word == "OR" && !negated) {
      units.push_back(Unit::Operator(Unit::Kind::kOr));
    } else if (word == "NOT") {
      negate_next = true;
    } else if (word != "AND") {
      if (const size_t colon = word.find(':'); colon != word.npos) {
        const std::string field = absl::AsciiStrToLower(word.substr(0, colon));
        if (field == "method" || field == "dataset") {
          word = word.substr(colon + 1);
        } else if (field == "venue" || field == "year" || field == "has" ||
                   field == "host") {
          word = "";
        }
      }
      const bool prefix = absl::EndsWith(word, "*");
      if (prefix) word.remove_suffix(1);
      if (HasTokenCharacter(word) &&
          (prefix || !IsStopword(absl::AsciiStrToLower(word)))) {
        units.push_back({Unit::Kind::kTerm, negated,
                         absl::StrCat(Quote(word), prefix ? "*" : "")});
      }
    }
    for (int i = 0; i < closing; ++i)
      units.push_back(Unit::Operator(Unit::Kind::kClose));
  }
  return units;
}

}  // namespace

std::string ToFts5Query(absl::string_view query, bool any_terms) {
  std::vector<Unit> units = Parse(query);
  std::vector<std::string> negatives;
  std::vector<Unit> positives;
  int depth = 0;
  bool balanced = true;
  for (Unit& unit : units) {
    if (unit.kind == Unit::Kind::kTerm && unit.negated) {
      negatives.push_back(std::move(unit.fts));
      continue;
    }
    if (unit.kind == Unit::Kind::kOpen) ++depth;
    if (unit.kind == Unit::Kind::kClose && --depth < 0) balanced = false;
    positives.push_back(std::move(unit));
  }
  balanced = balanced && depth == 0;
  std::vector<std::string> parts;
  bool operand_before = false;  // The last part ends an operand.
  for (size_t i = 0; i < positives.size(); ++i) {
    const Unit& unit = positives[i];
    switch (unit.kind) {
      case Unit::Kind::kTerm:
      case Unit::Kind::kOpen:
        if (unit.kind == Unit::Kind::kOpen && (any_terms || !balanced)) break;
        if (operand_before) parts.push_back(any_terms ? "OR" : "AND");
        parts.push_back(unit.kind == Unit::Kind::kTerm ? unit.fts : "(");
        operand_before = unit.kind == Unit::Kind::kTerm;
        break;
      case Unit::Kind::kClose:
        if (any_terms || !balanced) break;
        if (!operand_before) {  // "()" or "(a OR)": drop the dangling part.
          if (!parts.empty() && parts.back() == "(") {
            parts.pop_back();
          } else if (!parts.empty() && parts.back() == "OR") {
            parts.pop_back();
            parts.push_back(")");
          }
          operand_before = !parts.empty() && parts.back() == ")";
          break;
        }
        parts.push_back(")");
        break;
      case Unit::Kind::kOr:
        if (operand_before && !any_terms) {
          parts.push_back("OR");
          operand_before = false;
        }
        break;
    }
  }
  while (!parts.empty() && (parts.back() == "OR" || parts.back() == "AND" ||
                            parts.back() == "(")) {
    parts.pop_back();
  }
  const bool has_term =
      std::any_of(positives.begin(), positives.end(),
                  [](const Unit& u) { return u.kind == Unit::Kind::kTerm; });
  if (!has_term || parts.empty()) return "";
  std::string expression = absl::StrCat("(", absl::StrJoin(parts, " "), ")");
  for (const std::string& negative : negatives) {
    absl::StrAppend(&expression, " NOT ", negative);
  }
  return expression;
}

}  // namespace paperdb::relevance
