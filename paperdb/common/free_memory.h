#ifndef PAPERDB_COMMON_FREE_MEMORY_H_
#define PAPERDB_COMMON_FREE_MEMORY_H_

#include <cstddef>

namespace paperdb {

// Returns the allocator's free pages to the operating system. The two
// services link gperftools' tcmalloc, which keeps freed pages for reuse:
// after a large write is replayed and dropped (a secondary's memtables, an
// ingest's buffers) the process would otherwise keep its peak size. A no-op
// without tcmalloc (sanitizer builds, tests). Takes milliseconds; call it
// after such an event, not per request.
void ReleaseFreeMemory();

// Bytes the allocator holds free and unreturned, or 0 without tcmalloc.
size_t FreeMemoryHeldBytes();

}  // namespace paperdb

#endif  // PAPERDB_COMMON_FREE_MEMORY_H_
