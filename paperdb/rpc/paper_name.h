// Paper resource names (AIP-122): "papers/{id}", as every RPC that names a
// paper takes them, read the same way by the query and the ingest service.

#ifndef PAPERDB_RPC_PAPER_NAME_H_
#define PAPERDB_RPC_PAPER_NAME_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace paperdb::rpc {

// Longest paper name accepted, in bytes (ids are about 30).
inline constexpr size_t kMaxNameBytes = 512;

// The id in a paper resource name: "papers/{id}" or a bare id, in lower
// case as every id is ("papers/ICLR2024-5DFA..." is "iclr2024-5dfa...").
// INVALID_ARGUMENT naming the problem if `name` is empty, longer than
// kMaxNameBytes, holds a control character or invalid UTF-8 (shown
// C-escaped), has no id, or an id containing '/'; its BadRequest field
// is "name".
absl::StatusOr<std::string> PaperIdFromName(absl::string_view name);

}  // namespace paperdb::rpc

#endif  // PAPERDB_RPC_PAPER_NAME_H_
