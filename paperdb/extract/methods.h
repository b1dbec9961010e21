// Names of the methods and models an abstract introduces.
//
// Precision over recall: a wrong name pollutes facets, so a name is only
// taken where the authors introduce it:
//   "we propose/introduce/present/suggest/develop X" (X looks like a name;
//       a one-capital word such as "Pathformer" only before ',' or ':';
//       "the X architecture|model|framework|..." with a capitals-inside X),
//   "named/called/dubbed/termed X",
//   "our method|approach|model|framework, X",
//   "a method, X," (an appositive after "we propose ... framework"),
//   "X: a ..." or "X: Expansion Of X", "**X**" and "\textbf{X}",
//   "we propose [a] Long Name (ACRONYM)" and "named Long Name (ACRONYM)"
//       (the acronym is reported; not when the long name ends in "Problem",
//       "Task", "Dataset", "Benchmark", ...),
// but not "X, a new benchmark|dataset|evaluation to ..." (that is data, which
// FindDatasets() reports).
// Name shapes are those of paperdb/extract/name_shape.h; a token with a
// trailing lower-case part ("CLIP-guided", "RoPE-based") is not a name.

#ifndef PAPERDB_EXTRACT_METHODS_H_
#define PAPERDB_EXTRACT_METHODS_H_

#include <vector>

#include "absl/strings/string_view.h"
#include "paperdb/extract/markup.h"
#include "paperdb/extract/span.h"

namespace paperdb::extract {

// The method names `text` introduces, each once (by exact name), in order of
// first introduction; Mention::name is the name as written without markup,
// the span that of the introducing occurrence in `text`, in bytes.
std::vector<Mention> FindMethods(absl::string_view text);

// As FindMethods(), on a text already stripped with StripMarkup().
std::vector<Mention> FindMethods(const PlainText& plain);

}  // namespace paperdb::extract

#endif  // PAPERDB_EXTRACT_METHODS_H_
