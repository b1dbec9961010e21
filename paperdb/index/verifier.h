// Verifier: checks that a paperdb store is internally consistent, for
// operators (`ingest_service verify`) and crash tests.
//
// Checked: the schema version; every paper record parses, and its id maps
// back to it through "paper_ids" and vice versa; corpus statistics equal
// the sums over the records; every posting block decodes, blocks of a term
// are in doc order without overlap, every posting names a stored paper with
// the right document length, and each term's postings add up to its stored
// document frequency (and no frequency lacks postings); each paper's
// postings are exactly those of its abstract analyzed again (so a deleted
// paper's postings are gone); every paper has a source file, and source
// records and paper records name each other.

#ifndef PAPERDB_INDEX_VERIFIER_H_
#define PAPERDB_INDEX_VERIFIER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "paperdb/storage/store.h"

namespace paperdb::index {

struct VerifyReport {
  uint64_t papers = 0;                // Paper records read.
  uint64_t terms = 0;                 // Distinct terms with postings.
  uint64_t postings = 0;              // Postings read.
  uint64_t sources = 0;               // Source file records read.
  std::vector<std::string> problems;  // Empty if the store is consistent;
                                      // at most 100 are listed.
  uint64_t problem_count = 0;         // All problems, listed or not.
};

// Reads the whole store. Errors only if the store cannot be read at all;
// inconsistencies are reported in VerifyReport::problems.
absl::StatusOr<VerifyReport> VerifyStore(const storage::Store& store);

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_VERIFIER_H_
