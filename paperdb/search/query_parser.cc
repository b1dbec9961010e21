#include "paperdb/search/query_parser.h"

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "paperdb/common/error_details.h"
#include "paperdb/text/analyzer.h"
#include "paperdb/text/utf8.h"
#include "unicode/uchar.h"
#include "unicode/utf8.h"

namespace paperdb::search {
namespace {

constexpr absl::string_view kLeftQuote = "\xE2\x80\x9C";   // U+201C “
constexpr absl::string_view kRightQuote = "\xE2\x80\x9D";  // U+201D ”

// Byte length of the quote mark at `text[i]`, or 0 if there is none.
size_t QuoteAt(absl::string_view text, size_t i) {
  if (text[i] == '"') return 1;
  const absl::string_view rest = text.substr(i);
  if (absl::StartsWith(rest, kLeftQuote) || absl::StartsWith(rest, kRightQuote))
    return 3;
  return 0;
}

// Byte length of the white-space character (Unicode White_Space: ASCII
// spaces, NBSP, U+3000, ...) at `text[i]`, or 0 if there is none.
size_t SpaceAt(absl::string_view text, size_t i) {
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  int32_t next = static_cast<int32_t>(i);
  UChar32 c;
  U8_NEXT(s, next, static_cast<int32_t>(text.size()), c);
  return c >= 0 && u_isUWhiteSpace(c) ? static_cast<size_t>(next) - i : 0;
}

// Byte length of the minus sign ('-' or U+2212 MINUS SIGN) at `text[i]`,
// or 0 if there is none.
size_t MinusAt(absl::string_view text, size_t i) {
  if (text[i] == '-') return 1;
  return absl::StartsWith(text.substr(i), "\xE2\x88\x92") ? 3 : 0;
}

bool SameClause(const QueryClause& a, const QueryClause& b) {
  return a.kind == b.kind && a.excluded == b.excluded && a.terms == b.terms;
}

// Walks the query keeping the byte offset and the code point offset in step.
class Parser {
 public:
  explicit Parser(absl::string_view text) : text_(text) {}

  absl::StatusOr<Query> Parse() {
    Query query;
    while (true) {
      while (at_ < text_.size() && SpaceAt(text_, at_) > 0) {
        Advance(SpaceAt(text_, at_));
      }
      if (at_ >= text_.size()) break;
      QueryClause clause;
      clause.position = code_point_;
      if (const size_t minus = MinusAt(text_, at_); minus > 0) {
        clause.excluded = true;
        Advance(minus);
        if (at_ >= text_.size() || SpaceAt(text_, at_) > 0) {
          return Error(clause.position,
                       "a minus sign must be followed by a word or a quoted "
                       "phrase to exclude");
        }
      }
      absl::Status status =
          QuoteAt(text_, at_) > 0 ? ParsePhrase(&clause) : ParseWord(&clause);
      if (!status.ok()) return status;
      if (clause.kind == QueryClause::Kind::kPhrase &&
          clause.terms.size() > kMaxPhraseTerms) {
        return Error(clause.position,
                     absl::StrCat("phrase of ", clause.terms.size(),
                                  " words is longer than the limit of ",
                                  kMaxPhraseTerms));
      }
      if (clause.terms.empty() || query.clauses.size() >= kMaxClauses) continue;
      bool repeated = false;
      for (const QueryClause& earlier : query.clauses) {
        repeated |= SameClause(earlier, clause);
      }
      if (!repeated) query.clauses.push_back(std::move(clause));
    }
    return query;
  }

 private:
  void Advance(size_t bytes) {
    const size_t end = at_ + bytes;
    while (at_ < end) {
      at_ += text::Utf8SequenceLength(static_cast<unsigned char>(text_[at_]));
      ++code_point_;
    }
  }

  static absl::Status Error(uint32_t position, absl::string_view what) {
    return WithReason(WithField(absl::InvalidArgumentError(absl::StrCat(
                                    "query: character ", position, ": ", what)),
                                "query"),
                      "QUERY_SYNTAX", {{"position", absl::StrCat(position)}});
  }

  absl::Status ParsePhrase(QueryClause* clause) {
    const uint32_t open_position = code_point_;
    Advance(QuoteAt(text_, at_));
    const size_t start = at_;
    while (at_ < text_.size() && QuoteAt(text_, at_) == 0) Advance(1);
    if (at_ >= text_.size()) {
      return Error(open_position,
                   "unterminated phrase: expected a closing '\"'");
    }
    const absl::string_view phrase = text_.substr(start, at_ - start);
    Advance(QuoteAt(text_, at_));
    clause->kind = QueryClause::Kind::kPhrase;
    for (text::AnalyzedToken& token :
         text::ThreadLocalAnalyzer().Analyze(phrase)) {
      // Joined compounds share a position with their first part.
      if (!token.compound) clause->terms.push_back(std::move(token.term));
    }
    if (clause->terms.size() == 1) clause->kind = QueryClause::Kind::kTerm;
    return absl::OkStatus();
  }

  absl::Status ParseWord(QueryClause* clause) {
    const size_t start = at_;
    while (at_ < text_.size() && SpaceAt(text_, at_) == 0 &&
           QuoteAt(text_, at_) == 0) {
      Advance(1);
    }
    std::vector<text::AnalyzedToken> tokens =
        text::ThreadLocalAnalyzer().Analyze(text_.substr(start, at_ - start));
    // A hyphenated word stays the phrase of its parts ("skill-mix"); its
    // joined token ("skillmix") shares the first part's position.
    std::erase_if(tokens, [](const text::AnalyzedToken& token) {
      return token.compound;
    });
    if (tokens.size() == 1 && tokens[0].stopword) return absl::OkStatus();
    clause->kind = tokens.size() > 1 ? QueryClause::Kind::kPhrase
                                     : QueryClause::Kind::kTerm;
    for (text::AnalyzedToken& token : tokens) {
      clause->terms.push_back(std::move(token.term));
    }
    return absl::OkStatus();
  }

  absl::string_view text_;
  size_t at_ = 0;
  uint32_t code_point_ = 0;
};

}  // namespace

absl::StatusOr<Query> ParseQuery(absl::string_view text) {
  if (text.size() > kMaxQueryBytes) {
    return WithReason(
        WithField(absl::InvalidArgumentError(absl::StrCat(
                      "query: ", text.size(),
                      " bytes is longer than the limit of ", kMaxQueryBytes)),
                  "query"),
        "QUERY_TOO_LONG");
  }
  if (const std::optional<size_t> bad = text::FindInvalidUtf8(text)) {
    return WithReason(WithField(absl::InvalidArgumentError(absl::StrCat(
                                    "query: byte ", *bad, ": not valid UTF-8")),
                                "query"),
                      "QUERY_NOT_UTF8", {{"byte", absl::StrCat(*bad)}});
  }
  return Parser(text).Parse();
}

}  // namespace paperdb::search
