#include "paperdb/common/free_memory.h"

// gperftools' C interface (gperftools/malloc_extension_c.h), declared weak:
// the symbols resolve only in binaries linked with tcmalloc.
extern "C" {
void MallocExtension_ReleaseFreeMemory(void) __attribute__((weak));
int MallocExtension_GetNumericProperty(const char* property, size_t* value)
    __attribute__((weak));
}

namespace paperdb {

void ReleaseFreeMemory() {
  if (MallocExtension_ReleaseFreeMemory != nullptr) {
    MallocExtension_ReleaseFreeMemory();
  }
}

size_t FreeMemoryHeldBytes() {
  size_t bytes = 0;
  if (MallocExtension_GetNumericProperty == nullptr ||
      !MallocExtension_GetNumericProperty("tcmalloc.pageheap_free_bytes",
                                          &bytes)) {
    return 0;
  }
  return bytes;
}

}  // namespace paperdb
