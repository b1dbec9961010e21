// Field terms of a paper: the index terms of its typed fields (venue, year,
// code links, methods, datasets, acronym definitions), encoded as
// field_keys.h describes.

#ifndef PAPERDB_INDEX_FIELD_TERMS_H_
#define PAPERDB_INDEX_FIELD_TERMS_H_

#include <string>
#include <vector>

#include "paperdb/index/field_keys.h"
#include "paperdb/v1/paper.pb.h"

namespace paperdb::index {

// The distinct field terms of `paper`, in a fixed order: venue, year (4
// digits, if not 0), "has:code" (if has_code), code hosts, methods,
// datasets, acronym definitions both ways.
std::vector<std::string> FieldTermsOf(const v1::Paper& paper);

}  // namespace paperdb::index

#endif  // PAPERDB_INDEX_FIELD_TERMS_H_
