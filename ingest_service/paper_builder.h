// Builds the API's Paper message from one parsed abstract: content-derived
// id, source, URLs, code links, word count, content hash, and the typed
// extractions of paperdb/extract (methods, datasets, acronyms).

#ifndef PAPERDB_INGEST_SERVICE_PAPER_BUILDER_H_
#define PAPERDB_INGEST_SERVICE_PAPER_BUILDER_H_

#include <string>

#include "absl/strings/string_view.h"
#include "ingest_service/abstract_list_parser.h"
#include "paperdb/v1/paper.pb.h"

namespace paperdb::ingest {

// The stable paper id: lower-case ASCII letters and digits of `venue`, the
// year (if not 0), '-', then 16 hex digits of XXH3-64 of the abstract after
// NFKC case folding and whitespace collapsing, e.g.
// "iclr2024-3f2a9c0d1e2b4a5f"; for a venue holding any other character
// ("Neur IPS", "计算机学报"), of the folded venue, a line break and that
// abstract, so that venues alike in their letters and digits give their
// abstracts different ids. Re-wrapping or re-casing an abstract or its
// venue keeps its id.
std::string PaperId(absl::string_view venue, int year,
                    absl::string_view abstract);

// The Paper for `abstract`, read from file `file_name`. Leaves
// ingest_time unset (the index writer sets it). code_urls holds the links
// that are not CODE_URL_KIND_UNSPECIFIED; every TextSpan is filled in all
// three units.
v1::Paper BuildPaper(const ParsedAbstract& abstract,
                     absl::string_view file_name);

}  // namespace paperdb::ingest

#endif  // PAPERDB_INGEST_SERVICE_PAPER_BUILDER_H_
