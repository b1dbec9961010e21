#include "paperdb/search/query_parser_impl.h"
#include "paperdb/text/digits.h"

// Parser's leaves: words (with prefixes and hyphen parts), quoted
// phrases with slop, and field filters.
namespace paperdb::search::internal {
namespace {

// The key of the dataset `value` names: that of its canonical name if it is
// a curated alias in any case ("shd" -> "Spiking Heidelberg Digits", which
// papers are indexed under), else NameKey(value).
std::string DatasetKey(absl::string_view value) {
  static const absl::flat_hash_map<std::string, std::string>* const kByAlias =
      [] {
        auto* by_alias = new absl::flat_hash_map<std::string, std::string>;
        std::vector<std::pair<std::string, std::string>> spellings =
            extract::CuratedDatasetSpellings();
        // Canonical names first: a key that is some dataset's own stays its.
        std::stable_partition(
            spellings.begin(), spellings.end(),
            [](const auto& s) { return s.first == s.second; });
        for (const auto& [spelling, canonical] : spellings) {
          by_alias->emplace(index::NameKey(spelling),
                            index::NameKey(canonical));
        }
        return by_alias;
      }();
  std::string key = index::NameKey(value);
  const auto it = kByAlias->find(key);
  return it == kByAlias->end() ? key : it->second;
}

// A glued word of more letter-digit parts than the analyzer splits
// ("Mixtral8x7B": kMaxCompoundParts or more cuts, indexed whole only):
// `whole`, its one token, after the tokens of its parts as separate words,
// at the first part's position, so that the word also matches the parts
// written apart ("Mixtral 8x7B") or hyphenated. Else `whole` as given.
std::vector<text::AnalyzedToken> WithGluedParts(
    absl::string_view word, std::vector<text::AnalyzedToken> whole) {
  if (whole.size() != 1) return whole;
  const std::vector<size_t> cut_at = text::LetterDigitCuts(word);
  const size_t cuts = cut_at.size();
  if (cuts < text::kMaxCompoundParts || cuts >= kMaxPhraseTerms) return whole;
  std::string spaced;
  std::vector<uint32_t> inserted;  // Spaces inserted before spaced[i].
  size_t next = 0;
  for (size_t i = 0; i < word.size(); ++i) {
    if (next < cuts && cut_at[next] == i) {
      spaced += ' ';
      inserted.push_back(static_cast<uint32_t>(next));
      ++next;
    }
    spaced += word[i];
    inserted.push_back(static_cast<uint32_t>(next));
  }
  std::vector<text::AnalyzedToken> parts =
      text::ThreadLocalAnalyzer().Analyze(spaced);
  if (parts.empty()) return whole;
  for (text::AnalyzedToken& part : parts) {
    part.start_byte -= inserted[part.start_byte];
    part.end_byte -= inserted[part.end_byte - 1];
  }
  whole[0].position = parts[0].position;
  whole[0].compound = true;
  parts.insert(parts.begin() + 1, std::move(whole[0]));
  return parts;
}

// `phrase` (a kPhrase over kMaxPhraseTerms terms) as a kAnd of phrases of
// its consecutive runs of at most kMaxPhraseTerms terms.
QueryNode ChunkedPhrase(const QueryNode& phrase) {
  QueryNode chunks;
  chunks.kind = QueryNode::Kind::kAnd;
  chunks.position = phrase.position;
  chunks.text_begin = phrase.text_begin;
  chunks.text_end = phrase.text_end;
  for (size_t at = 0; at < phrase.terms.size(); at += kMaxPhraseTerms) {
    QueryNode chunk;
    chunk.kind = QueryNode::Kind::kPhrase;
    chunk.position = phrase.position;
    chunk.text_begin = phrase.text_begin;
    chunk.text_end = phrase.text_end;
    const size_t end = std::min(phrase.terms.size(), at + kMaxPhraseTerms);
    chunk.terms.assign(phrase.terms.begin() + at, phrase.terms.begin() + end);
    if (chunk.terms.size() == 1) chunk.kind = QueryNode::Kind::kTerm;
    chunks.children.push_back(std::move(chunk));
  }
  return chunks;
}

}  // namespace

std::string Parser::SurfaceOf(absl::string_view text,
                              const text::AnalyzedToken& token) {
  if (token.form_id != text::kNoTermId) {
    return std::string(
        text::FormOf(text::ThreadLocalAnalyzer().TermText(token.form_id)));
  }
  std::string folded = text::Analyzer::FoldForMatching(
      text.substr(token.start_byte, token.end_byte - token.start_byte));
  if (text::HasFormTerm(folded, token.term)) return token.term;
  return folded;
}

absl::StatusOr<QueryNode> Parser::ParsePhrase() {
  QueryNode node;
  node.position = code_point_;
  absl::StatusOr<absl::string_view> phrase = QuotedText();
  if (!phrase.ok()) return phrase.status();
  if (!AtEnd() && text_[at_] == '~') {
    const uint32_t tilde = code_point_;
    Advance(1);
    const size_t digits = at_;
    while (!AtEnd() && absl::ascii_isdigit(text_[at_])) Advance(1);
    uint32_t slop = 0;
    const bool ends = AtEnd() || SpaceAt(text_, at_) > 0 || AtClose() ||
                      QuoteAt(text_, at_) > 0;
    if (at_ == digits ||
        !absl::SimpleAtoi(text_.substr(digits, at_ - digits), &slop) ||
        slop > kMaxSlop) {
      return Error(tilde, absl::StrCat("expected a number of positions "
                                       "from 0 to ",
                                       kMaxSlop, " after '~'"));
    }
    if (!ends) {
      // "~2~3", "~2x": the number is fine, what follows it is not.
      return Error(code_point_, absl::StrCat("expected a space or the end "
                                             "of the query after '~",
                                             slop, "'"));
    }
    node.slop = slop;
  }
  return PhraseNode(*phrase, std::move(node));
}

absl::StatusOr<absl::string_view> Parser::QuotedText() {
  const uint32_t open_position = code_point_;
  Advance(QuoteAt(text_, at_));
  const size_t start = at_;
  while (!AtEnd() && QuoteAt(text_, at_) == 0) Advance(1);
  if (AtEnd()) {
    return Error(open_position, "unterminated phrase: expected a closing '\"'");
  }
  const absl::string_view phrase = text_.substr(start, at_ - start);
  Advance(QuoteAt(text_, at_));
  return phrase;
}

size_t Parser::WordEnd(ptrdiff_t* net) const {
  size_t i = at_;
  ptrdiff_t inner = 0;
  size_t closed_earlier = 0;  // Of glued_open_.
  while (i < text_.size() && SpaceAt(text_, i) == 0 && QuoteAt(text_, i) == 0) {
    if (text_[i] == '(') ++inner;
    if (text_[i] == ')') {
      if (inner > 0) {
        --inner;
      } else if (closed_earlier < glued_open_) {
        ++closed_earlier;
      } else {
        break;
      }
    }
    i += text::Utf8SequenceLength(static_cast<unsigned char>(text_[i]));
  }
  if (net != nullptr) *net = inner - static_cast<ptrdiff_t>(closed_earlier);
  return i;
}

absl::StatusOr<QueryNode> Parser::ParseWord() {
  QueryNode node;
  node.position = code_point_;
  const size_t start = at_;
  ptrdiff_t net = 0;
  const size_t end = WordEnd(&net);
  glued_open_ = static_cast<size_t>(static_cast<ptrdiff_t>(glued_open_) + net);
  absl::string_view word = text_.substr(start, end - start);
  // field:value (not a URL such as https://...). A known field with
  // nothing after the colon is an error; "Note:" is a word.
  if (const size_t colon = word.find(':');
      colon != absl::string_view::npos && colon > 0 &&
      !absl::StartsWith(word.substr(colon + 1), "/")) {
    const absl::string_view name = word.substr(0, colon);
    bool letters = true;
    for (char c : name) letters &= absl::ascii_isalpha(c) || c == '_';
    const std::string field = absl::AsciiStrToLower(name);
    const bool has_value =
        colon + 1 < word.size() || QuoteAt(text_, start + colon + 1) > 0;
    // An identifier pasted whole ("arXiv:2310.06625", "doi:10.48550/...")
    // is words: a name no field has, before a number, is no mistyped field.
    const bool pasted_id = !IsField(field) && colon + 1 < word.size() &&
                           absl::ascii_isdigit(word[colon + 1]);
    if (letters && !pasted_id && (has_value || IsField(field))) {
      return ParseField(field, colon);
    }
  }
  if (const size_t tilde = word.rfind('~');
      tilde != absl::string_view::npos && tilde + 1 < word.size() &&
      absl::ascii_isdigit(word[tilde + 1])) {
    Advance(tilde);
    return Error(code_point_,
                 "'~N' follows a quoted phrase (\"a b\"~N); a word is "
                 "already matched with spelling tolerance");
  }
  Advance(end - start);
  bool prefix = false;
  if (absl::EndsWith(word, "*")) {
    while (absl::EndsWith(word, "*")) word.remove_suffix(1);
    prefix = true;
  }
  std::vector<text::AnalyzedToken> tokens =
      text::ThreadLocalAnalyzer().Analyze(word);
  if (!prefix) tokens = WithGluedParts(word, std::move(tokens));
  const bool has_word_characters =
      std::any_of(word.begin(), word.end(), [](char c) {
        return absl::ascii_isalnum(static_cast<unsigned char>(c)) ||
               static_cast<unsigned char>(c) >= 0x80;
      });
  if (tokens.empty() && word.size() > text::kMaxTermBytes && !prefix &&
      has_word_characters) {
    // Longer than any indexed term: a word no paper holds (an AND of it
    // falls back to the other words), not a word to ignore.
    node.kind = QueryNode::Kind::kTerm;
    node.terms.push_back(std::string(word));
    node.word = std::string(word);
    SetTextSpan(word, 0, word.size(), &node);
    return node;
  }
  if (tokens.empty()) return EmptyNode();
  if (prefix && tokens.size() > 1) {
    // Letters and digits, or parts joined by hyphens ("sigma2*",
    // "ResNet-1*"): the prefix of the joined compound the analyzer gives
    // at the first part's position ("sigma2" matches "sigma20"), which
    // the index holds as one term.
    for (size_t i = 1; i < tokens.size(); ++i) {
      if (tokens[i].position != tokens[i - 1].position) continue;
      node.kind = QueryNode::Kind::kPrefix;
      SetTextSpan(text_.substr(start, end - start), tokens[0].start_byte,
                  end - start, &node);
      node.terms.push_back(std::move(tokens[i].term));
      return node;
    }
    return Error(node.position,
                 absl::StrCat("'", word,
                              "*' is several words: a prefix must be one "
                              "word (letters and digits joined)"));
  }
  if (tokens.size() == 1) {
    if (tokens[0].stopword && !prefix) {
      return EmptyNode();
    }
    if (prefix) {
      node.kind = QueryNode::Kind::kPrefix;
      // With its '*'s: the word ends with them.
      SetTextSpan(text_.substr(start, end - start), tokens[0].start_byte,
                  end - start, &node);
      const std::string folded = text::Analyzer::Fold(word.substr(
          tokens[0].start_byte, tokens[0].end_byte - tokens[0].start_byte));
      node.terms.push_back(folded);
      if (tokens[0].term != folded) node.terms.push_back(tokens[0].term);
      return node;
    }
    node.kind = QueryNode::Kind::kTerm;
    node.surface = SurfaceOf(word, tokens[0]);
    node.terms.push_back(std::move(tokens[0].term));
    node.word = std::string(word.substr(
        tokens[0].start_byte, tokens[0].end_byte - tokens[0].start_byte));
    SetTextSpan(word, tokens, &node);
    return node;
  }
  // Several terms: the parts as a phrase, or a joined compound the
  // analyzer gives at the first part's position ("resnet18").
  SetTextSpan(word, tokens, &node);
  QueryNode phrase;
  phrase.kind = QueryNode::Kind::kPhrase;
  phrase.position = node.position;
  phrase.text_begin = node.text_begin;
  phrase.text_end = node.text_end;
  std::vector<QueryNode> joined;
  uint32_t last_position = UINT32_MAX;
  for (text::AnalyzedToken& token : tokens) {
    if (token.position == last_position) {
      QueryNode term;
      term.terms.push_back(std::move(token.term));
      term.position = node.position;
      term.text_begin = node.text_begin;
      term.text_end = node.text_end;
      joined.push_back(std::move(term));
      continue;
    }
    last_position = token.position;
    phrase.terms.push_back(std::move(token.term));
  }
  // A word of more parts than a phrase holds (a pasted hyphen chain,
  // "A-C-G-T-..."): consecutive phrases of at most kMaxPhraseTerms parts,
  // all required. A quoted phrase over the limit stays an error.
  if (phrase.terms.size() > kMaxPhraseTerms) phrase = ChunkedPhrase(phrase);
  if (phrase.terms.size() == 1) phrase.kind = QueryNode::Kind::kTerm;
  if (joined.empty()) return phrase;
  node.kind = QueryNode::Kind::kOr;
  node.dismax = true;
  // As typed: the searcher's partial-match fill splits only a word typed
  // with hyphens ("WikiText-103"), not one split where letters meet
  // digits ("llama2").
  node.word = std::string(word);
  node.children.push_back(std::move(phrase));
  for (QueryNode& j : joined) AddChild(std::move(j), &node);
  return node;
}

bool Parser::IsField(absl::string_view name) {
  return name == index::kVenueField || name == index::kYearField ||
         name == index::kHasField || name == index::kHostField ||
         name == index::kMethodField || name == index::kDatasetField;
}

absl::StatusOr<QueryNode> Parser::ParseField(std::string name, size_t colon) {
  QueryNode node;
  node.kind = QueryNode::Kind::kField;
  node.position = code_point_;
  const uint32_t name_position = code_point_;
  Advance(colon + 1);
  const uint32_t value_position = code_point_;
  std::string value;
  if (QuoteAt(text_, at_) > 0) {
    absl::StatusOr<absl::string_view> quoted = QuotedText();
    if (!quoted.ok()) return quoted.status();
    value = std::string(*quoted);
  } else {
    // A group after a field would be read as one value, "(iclr", and
    // silently match nothing.
    if (at_ < text_.size() && text_[at_] == '(') {
      return Error(value_position,
                   absl::StrCat("'", name,
                                ":' takes one value, not a group: "
                                "write (",
                                name, ":a OR ", name, ":b)"));
    }
    const size_t end = WordEnd();
    value = std::string(text_.substr(at_, end - at_));
    Advance(end - at_);
  }
  node.field = name;
  if (name == index::kYearField) {
    // Digits of any script: year:２０２４ is year:2024.
    return YearFilter(text::AsciiDigits(value), value_position,
                      std::move(node));
  }
  if (name == index::kHasField) {
    if (absl::AsciiStrToLower(value) != "code") {
      return Error(value_position, "has: expected `has:code`");
    }
    node.value = "code";
    return node;
  }
  if (name != index::kVenueField && name != index::kHostField &&
      name != index::kMethodField && name != index::kDatasetField) {
    return Error(name_position,
                 absl::StrCat("unknown field '", name, "': expected one of ",
                              kFieldNames));
  }
  // "venue:ICLR 2024" (as a paper list's header writes it) is the venue
  // and the year: venues are stored without years.
  if (name == index::kVenueField) {
    // Digits of any script: venue:"ICLR ２０２４" is ICLR's 2024 list.
    const std::string trimmed(
        absl::StripAsciiWhitespace(text::AsciiDigits(value)));
    if (trimmed.size() > 4 && absl::ascii_isdigit(trimmed.back())) {
      const absl::string_view year =
          absl::string_view(trimmed).substr(trimmed.size() - 4);
      absl::string_view venue =
          absl::string_view(trimmed).substr(0, trimmed.size() - 4);
      int y = 0;
      if (absl::SimpleAtoi(year, &y) && y >= 1900 && y <= 2099 &&
          !absl::ascii_isdigit(venue.back())) {
        venue = absl::StripTrailingAsciiWhitespace(venue);
        while (!venue.empty() && (venue.back() == '-' || venue.back() == '_')) {
          venue.remove_suffix(1);
        }
        if (!venue.empty()) {
          QueryNode both;
          both.kind = QueryNode::Kind::kAnd;
          both.position = node.position;
          node.value = index::FieldKey(venue);
          QueryNode year_node = node;
          year_node.field = std::string(index::kYearField);
          year_node.value = std::string(year);
          year_node.value_end = year_node.value;
          both.children.push_back(std::move(node));
          both.children.push_back(std::move(year_node));
          return both;
        }
      }
    }
  }
  node.value = name == index::kDatasetField  ? DatasetKey(value)
               : name == index::kMethodField ? index::NameKey(value)
                                             : index::FieldKey(value);
  if (name == index::kHostField && absl::StartsWith(node.value, "www.")) {
    node.value.erase(0, 4);
  }
  if (node.value.empty()) {
    return Error(value_position,
                 absl::StrCat("expected a value after '", name, ":'"));
  }
  return node;
}

}  // namespace paperdb::search::internal
