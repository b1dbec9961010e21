// EngineSlot: the QueryEngine that answers calls, replaceable while calls
// run. A call takes a shared_ptr to the engine once and uses it throughout,
// so a replacement never changes the store under a running call, and the
// replaced engine (its store) closes when the last call holding it ends.
//
// Thread safety: all methods may run concurrently.

#ifndef PAPERDB_QUERY_SERVICE_ENGINE_SLOT_H_
#define PAPERDB_QUERY_SERVICE_ENGINE_SLOT_H_

#include <memory>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "query_service/query_engine.h"

namespace paperdb::query {

class EngineSlot {
 public:
  EngineSlot() = default;
  // A slot serving `engine` from the start.
  explicit EngineSlot(std::shared_ptr<const QueryEngine> engine)
      : engine_(std::move(engine)) {}
  EngineSlot(const EngineSlot&) = delete;
  EngineSlot& operator=(const EngineSlot&) = delete;

  // The engine serving now; null before the first Set().
  std::shared_ptr<const QueryEngine> Get() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::ReaderMutexLock lock(&mu_);
    return engine_;
  }

  // Serves `engine` from now on. The previous engine is released here and
  // destroyed by whichever holder lets go of it last.
  void Set(std::shared_ptr<const QueryEngine> engine) ABSL_LOCKS_EXCLUDED(mu_) {
    std::shared_ptr<const QueryEngine> previous;
    {
      absl::MutexLock lock(&mu_);
      previous = std::exchange(engine_, std::move(engine));
    }
    // `previous` is released here, outside the lock: closing a store may
    // take a while.
  }

 private:
  mutable absl::Mutex mu_;
  std::shared_ptr<const QueryEngine> engine_ ABSL_GUARDED_BY(mu_);
};

}  // namespace paperdb::query

#endif  // PAPERDB_QUERY_SERVICE_ENGINE_SLOT_H_
