#ifndef PAPERDB_TEXT_ENGLISH_WORDS_H_
#define PAPERDB_TEXT_ENGLISH_WORDS_H_

#include <string_view>

namespace paperdb::text {

// A general English word list: the entries of Debian's wamerican package
// (/usr/share/dict/american-english, SCOWL size 50, about 100,000 words
// with their inflections, names included), compiled in at build time so
// nothing is read at run time, and case-folded as query words are. It tells a
// real word a corpus happens to lack ("rewording", "evading") from a
// misspelling ("nueral", "modles"): spelling correction leaves the first kind
// alone. The list is general English; field words ("pretraining", "tokenizer")
// are mostly absent, which makes them correctable, as typos of field words are.
//
// True if `folded` (as Analyzer::Fold gives: "turing", "détente") is on
// the list, or is a plural of a word on it ("rewordings"); a possessive
// ("lightning's", with either apostrophe) is looked up as its word.
// Thread-safe; the first call builds the set (about 100 ms).
// A British spelling is a word when its American one is
// (text/british_spelling.h): "behaviour", "analysed".
bool IsEnglishWord(std::string_view folded);

// IsEnglishWord() as the list spells words: American only.
bool IsListedEnglishWord(std::string_view folded);

}  // namespace paperdb::text

#endif  // PAPERDB_TEXT_ENGLISH_WORDS_H_
