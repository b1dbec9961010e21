// Decimal digits of any script as ASCII: a year written in full-width
// ("２０２４") or Arabic-Indic ("٢٠٢٤") digits is the year 2024 wherever
// paperdb reads a number from text (headers, year: filters).

#ifndef PAPERDB_TEXT_DIGITS_H_
#define PAPERDB_TEXT_DIGITS_H_

#include <string>

#include "absl/strings/string_view.h"

namespace paperdb::text {

// `text` with each decimal digit (Unicode general category Nd) replaced by
// its ASCII digit; every other byte as it is. Invalid UTF-8 is copied
// unchanged.
std::string AsciiDigits(absl::string_view text);

}  // namespace paperdb::text

#endif  // PAPERDB_TEXT_DIGITS_H_
