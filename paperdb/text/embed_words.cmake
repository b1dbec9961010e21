# Writes a C++ source file defining paperdb::text::internal::kEnglishWords:
# the entries of a word list (Debian's wamerican), one per line, as
# written; english_words.cc folds them (case, accents) when it loads them.
# Possessive entries ("Turing's") are left out: a possessive is looked up as
# its word.
#   cmake -DWORDS=/usr/share/dict/american-english -DOUTPUT=<file.cc>
#         -P embed_words.cmake
file(STRINGS "${WORDS}" words ENCODING UTF-8)
list(FILTER words EXCLUDE REGEX "'")
list(JOIN words "\n" content)
file(WRITE "${OUTPUT}.words" "${content}\n")
set(INPUT "${OUTPUT}.words")
set(SYMBOL kEnglishWords)
set(NAMESPACE paperdb::text::internal)
include(${CMAKE_CURRENT_LIST_DIR}/../extract/embed_text.cmake)
