// What a name looks like in an abstract: the token rules that the method and
// dataset extractors share.

#ifndef PAPERDB_EXTRACT_NAME_SHAPE_H_
#define PAPERDB_EXTRACT_NAME_SHAPE_H_

#include <cstddef>

#include "absl/strings/string_view.h"
#include "paperdb/extract/span.h"

namespace paperdb::extract {

// True for the ASCII bytes a name token is made of: letters, digits, '-',
// '_' and '+'. Non-ASCII bytes end a token, so a token never splits a
// character.
bool IsNameChar(char c);

// The name token that starts at byte `pos` of `text`: a run of IsNameChar()
// bytes, with '.' inside when it joins digits ("OPT-1.3B", "v0.02"), without
// trailing '-', '_' or '+'. Empty ({pos, pos}) if none starts there.
Span NameTokenAt(absl::string_view text, size_t pos);

enum class NameShape {
  kNone,         // Lower-case words, numbers, punctuation.
  kCapitalized,  // One capital then lower case: "Pathformer", "Hedgehog";
                 // a name only where the context says so.
  kName,  // Looks like a name on its own: starts with a letter and has two
          // capitals ("LIFT", "STanHop-Net", "DrS"), a capital or letter and
          // a digit ("ResNet-18", "Kosmos-2"), or a lower-case letter before
          // a capital ("iTransformer", "fMRI").
};

// The shape of `token` (one NameTokenAt() token). Capitalized function words
// ("The", "This", "Our", ...) are kNone.
NameShape ClassifyName(absl::string_view token);

}  // namespace paperdb::extract

#endif  // PAPERDB_EXTRACT_NAME_SHAPE_H_
