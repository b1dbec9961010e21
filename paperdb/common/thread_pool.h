// A pool of worker threads that runs scheduled functions in FIFO order,
// starting threads on demand up to a cap. query_service moves searches off
// gRPC's callback threads onto it, so that a long search cannot hold up the
// few threads that serve every other call.
//
// Thread safety: Schedule() may be called from any thread.

#ifndef PAPERDB_COMMON_THREAD_POOL_H_
#define PAPERDB_COMMON_THREAD_POOL_H_

#include <cstddef>
#include <deque>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/functional/any_invocable.h"
#include "absl/synchronization/mutex.h"

namespace paperdb {

class ThreadPool {
 public:
  // Starts no thread yet; at most `max_threads` (>= 1) run at once.
  explicit ThreadPool(size_t max_threads);
  // Runs every function already scheduled, then joins the threads. No
  // Schedule() may be running or follow.
  ~ThreadPool();

  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Queues `fn`. It runs on an idle thread, on a new one if none is idle
  // and fewer than max_threads exist, or else when a thread frees up.
  void Schedule(absl::AnyInvocable<void() &&> fn) ABSL_LOCKS_EXCLUDED(mu_);

  // Threads started so far, and those of them waiting for work (for tests
  // and metrics).
  size_t threads_started() const ABSL_LOCKS_EXCLUDED(mu_);
  size_t idle_threads() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  void Work() ABSL_LOCKS_EXCLUDED(mu_);
  bool HasWorkOrStopping() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const size_t max_threads_;
  mutable absl::Mutex mu_;
  std::deque<absl::AnyInvocable<void() &&>> queue_ ABSL_GUARDED_BY(mu_);
  size_t idle_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_ ABSL_GUARDED_BY(mu_);
};

}  // namespace paperdb

#endif  // PAPERDB_COMMON_THREAD_POOL_H_
