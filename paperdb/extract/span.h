// A half-open range of byte offsets into one string, and a name found at
// one: the units every extractor in paperdb/extract returns.

#ifndef PAPERDB_EXTRACT_SPAN_H_
#define PAPERDB_EXTRACT_SPAN_H_

#include <cstdint>
#include <string>

namespace paperdb::extract {

// [begin, end) in UTF-8 bytes of the text it was found in. Extractors only
// return spans that start and end at character boundaries.
struct Span {
  uint32_t begin = 0;  // First byte.
  uint32_t end = 0;    // One past the last byte.

  uint32_t size() const { return end - begin; }
  friend bool operator==(const Span&, const Span&) = default;
};

// A name found in a text: a method as written, or a dataset's canonical name.
struct Mention {
  std::string name;  // The name reported (see the extractor).
  Span span;         // Where it is written, in bytes.
  friend bool operator==(const Mention&, const Mention&) = default;
};

}  // namespace paperdb::extract

#endif  // PAPERDB_EXTRACT_SPAN_H_
