#include "paperdb/text/digits.h"

#include "unicode/uchar.h"
#include "unicode/utf8.h"

namespace paperdb::text {

std::string AsciiDigits(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const int32_t length = static_cast<int32_t>(text.size());
  for (int32_t i = 0; i < length;) {
    const int32_t at = i;
    UChar32 c;
    U8_NEXT(s, i, length, c);
    const int32_t value = c >= 0x80 ? u_charDigitValue(c) : -1;
    if (value >= 0 && u_charType(c) == U_DECIMAL_DIGIT_NUMBER) {
      out.push_back(static_cast<char>('0' + value));
    } else {
      out.append(text.data() + at, static_cast<size_t>(i - at));
    }
  }
  return out;
}

}  // namespace paperdb::text
