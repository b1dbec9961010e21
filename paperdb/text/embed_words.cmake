# Writes a C++ source file defining paperdb::text::internal::kEnglishWords:
# the all-lowercase entries of a word list (Debian's wamerican), one per
# line. Entries with capitals (names), apostrophes (possessives) or accents
# are left out.
#   cmake -DWORDS=/usr/share/dict/american-english -DOUTPUT=<file.cc>
#         -P embed_words.cmake
file(STRINGS "${WORDS}" words REGEX "^[a-z]+$")
list(JOIN words "\n" content)
file(WRITE "${OUTPUT}.words" "${content}\n")
set(INPUT "${OUTPUT}.words")
set(SYMBOL kEnglishWords)
set(NAMESPACE paperdb::text::internal)
include(${CMAKE_CURRENT_LIST_DIR}/../extract/embed_text.cmake)
