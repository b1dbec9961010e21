// Early-return helpers for absl::Status and absl::StatusOr<T>. Debian's
// Abseil (20220623) ships neither, so paperdb keeps these two.

#ifndef PAPERDB_COMMON_STATUS_MACROS_H_
#define PAPERDB_COMMON_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Evaluates `expr` (an absl::Status) and returns it from the enclosing
// function unless it is OK.
#define PAPERDB_RETURN_IF_ERROR(expr)                  \
  do {                                                 \
    const ::absl::Status paperdb_status_ = (expr);     \
    if (!paperdb_status_.ok()) return paperdb_status_; \
  } while (0)

#define PAPERDB_STATUS_MACROS_CONCAT_INNER_(x, y) x##y
#define PAPERDB_STATUS_MACROS_CONCAT_(x, y) \
  PAPERDB_STATUS_MACROS_CONCAT_INNER_(x, y)

// Evaluates `rexpr` (an absl::StatusOr<T>); returns its status from the
// enclosing function on error, else moves the value into `lhs`, which may be
// a declaration (`T x`) or an existing variable.
#define PAPERDB_ASSIGN_OR_RETURN(lhs, rexpr) \
  PAPERDB_ASSIGN_OR_RETURN_IMPL_(            \
      PAPERDB_STATUS_MACROS_CONCAT_(paperdb_statusor_, __LINE__), lhs, rexpr)

#define PAPERDB_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                                   \
  if (!statusor.ok()) return statusor.status();              \
  lhs = *std::move(statusor)

#endif  // PAPERDB_COMMON_STATUS_MACROS_H_
