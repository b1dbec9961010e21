// Datasets and benchmarks mentioned in an abstract.
//
// Two sources: the curated list paperdb/extract/datasets.txt (compiled into
// the binary; see that file for its format and matching rules), and
// patterns, X being one name token (paperdb/extract/name_shape.h):
//   "the X dataset|datasets|benchmark|benchmarks|corpus|suite",
//   "a new dataset|benchmark, X",
//   "X, a [new] benchmark|dataset|evaluation|corpus|testbed to|for|...",
//   "Dataset|Benchmark|dataset ... (X)" in one clause ("the Spiking
//       Heidelberg Dataset (SHD)", "a dataset about image-text pairs (GrIT)"),
//   acronyms whose long form holds the word "Dataset" or "Benchmark".

#ifndef PAPERDB_EXTRACT_DATASETS_H_
#define PAPERDB_EXTRACT_DATASETS_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "paperdb/extract/acronyms.h"
#include "paperdb/extract/markup.h"
#include "paperdb/extract/span.h"

namespace paperdb::extract {

// The datasets `text` mentions, each once (by name), in order of first
// mention. Mention::name is the curated canonical name ("CIFAR-10" for
// "CIFAR10"), or the name as written for a pattern match; the span is that
// of the first mention in `text`, in bytes, as written.
std::vector<Mention> FindDatasets(absl::string_view text);

// As FindDatasets(), on a text already stripped with StripMarkup() and its
// FindAcronyms().
std::vector<Mention> FindDatasets(const PlainText& plain,
                                  const std::vector<Acronym>& acronyms);

// The canonical name of curated dataset `name` (a canonical name or an
// alias, exactly as listed); nullopt if it is not listed.
std::optional<std::string> CanonicalDatasetName(absl::string_view name);

// Every spelling in the curated list (canonical names and aliases, exactly
// as listed), each with its canonical name, in no particular order.
std::vector<std::pair<std::string, std::string>> CuratedDatasetSpellings();

// Number of canonical names in the curated list.
size_t CuratedDatasetCount();

}  // namespace paperdb::extract

#endif  // PAPERDB_EXTRACT_DATASETS_H_
