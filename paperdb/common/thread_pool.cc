#include "paperdb/common/thread_pool.h"

#include <algorithm>
#include <utility>

namespace paperdb {

ThreadPool::ThreadPool(size_t max_threads)
    : max_threads_(std::max<size_t>(1, max_threads)) {}

ThreadPool::~ThreadPool() {
  std::vector<std::thread> threads;
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    threads.swap(threads_);
  }
  for (std::thread& thread : threads) thread.join();
}

void ThreadPool::Schedule(absl::AnyInvocable<void() &&> fn) {
  absl::MutexLock lock(&mu_);
  queue_.push_back(std::move(fn));
  // Each idle thread takes one queued function; start a thread for the
  // rest, up to the cap.
  if (queue_.size() > idle_ && threads_.size() < max_threads_) {
    ++idle_;  // Counted from now, so the next Schedule() does not start
              // another thread for the same function.
    threads_.emplace_back([this] { Work(); });
  }
}

size_t ThreadPool::threads_started() const {
  absl::MutexLock lock(&mu_);
  return threads_.size();
}

size_t ThreadPool::idle_threads() const {
  absl::MutexLock lock(&mu_);
  return idle_;
}

bool ThreadPool::HasWorkOrStopping() const {
  return !queue_.empty() || stopping_;
}

void ThreadPool::Work() {
  absl::MutexLock lock(&mu_);
  while (true) {
    // Here the thread counts as idle.
    mu_.Await(absl::Condition(this, &ThreadPool::HasWorkOrStopping));
    if (queue_.empty()) return;  // Stopping, and nothing left to run.
    absl::AnyInvocable<void()&&> fn = std::move(queue_.front());
    queue_.pop_front();
    --idle_;
    mu_.Unlock();
    std::move(fn)();
    fn = nullptr;  // Destroy what it captured outside the lock.
    mu_.Lock();
    ++idle_;
  }
}

}  // namespace paperdb
