#include "paperdb/common/thread_pool.h"

#include <atomic>
#include <vector>

#include "absl/synchronization/blocking_counter.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace paperdb {
namespace {

TEST(ThreadPoolTest, RunsEveryScheduledFunctionBeforeItIsDestroyed) {
  std::atomic<int> ran{0};
  {
    ThreadPool pool(3);
    for (int i = 0; i < 100; ++i) pool.Schedule([&ran] { ++ran; });
  }
  EXPECT_EQ(ran.load(), 100);
}

TEST(ThreadPoolTest, OneThreadRunsFunctionsInTheOrderScheduled) {
  std::vector<int> order;  // Touched by the pool's one thread only.
  {
    ThreadPool pool(1);
    for (int i = 0; i < 5; ++i)
      pool.Schedule([&order, i] { order.push_back(i); });
  }
  EXPECT_THAT(order, testing::ElementsAre(0, 1, 2, 3, 4));
}

TEST(ThreadPoolTest, BlockedFunctionsGetThreadsUpToTheCapAndNoMore) {
  std::atomic<bool> third_ran{false};
  absl::Notification release;
  {
    ThreadPool pool(2);
    absl::BlockingCounter started(2);
    for (int i = 0; i < 2; ++i) {
      pool.Schedule([&] {
        started.DecrementCount();
        release.WaitForNotification();
      });
    }
    started.Wait();  // Both run at once: a second thread was started.
    pool.Schedule([&third_ran] { third_ran = true; });
    EXPECT_EQ(pool.threads_started(), 2u);
    EXPECT_FALSE(third_ran.load());  // Queued behind the two blocked ones.
    release.Notify();
  }
  EXPECT_TRUE(third_ran.load());
}

TEST(ThreadPoolTest, AnIdleThreadIsReusedInsteadOfStartingAnother) {
  ThreadPool pool(8);
  for (int i = 0; i < 20; ++i) {
    absl::Notification done;
    pool.Schedule([&done] { done.Notify(); });
    done.WaitForNotification();
    // Until the thread waits again, a new function would start another.
    while (pool.idle_threads() != pool.threads_started())
      absl::SleepFor(absl::Microseconds(50));
  }
  EXPECT_EQ(pool.threads_started(), 1u);
  EXPECT_EQ(pool.idle_threads(), 1u);
}

}  // namespace
}  // namespace paperdb
