// runtime/parallel.h: every task and index runs once, an exception is rethrown only after every
// task has ended, the first by index wins, a Thread is joined, a background value arrives.
#include "runtime/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace histlab {
namespace {

TEST(ParallelTest, HostThreadsIsAtLeastOne) {
    EXPECT_GE(hostThreads(), 1u);
}

TEST(ParallelTest, RunTasksRunsEachTaskOnce) {
    std::vector<std::atomic<int>> seen(17);
    runTasks(seen.size(), [&](std::size_t k) { ++seen[k]; });
    for (const std::atomic<int>& s : seen)
        EXPECT_EQ(s.load(), 1);
    runTasks(0, [](std::size_t) { FAIL() << "no task to run"; });
}

TEST(ParallelTest, RunTasksRethrowsTheFirstExceptionAfterAllEnd) {
    std::atomic<int> ended{0};
    try {
        runTasks(4, [&](std::size_t k) {
            if (k == 1 || k == 2)
                throw std::runtime_error("task " + std::to_string(k));
            // The others end later than the throwing ones: none may be abandoned.
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            ++ended;
        });
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), "task 1");
    }
    EXPECT_EQ(ended.load(), 2);
}

TEST(ParallelTest, RunTasksRunsTheTasksAtOnce) {
    // Each task waits for the other: they must run on threads of their own.
    std::atomic<int> arrived{0};
    runTasks(2, [&](std::size_t) {
        ++arrived;
        while (arrived.load() < 2)
            std::this_thread::yield();
    });
    EXPECT_EQ(arrived.load(), 2);
}

TEST(ParallelTest, ParallelForVisitsEveryIndexOnce) {
    for (std::size_t count : {0u, 1u, 5u, 1000u})
        for (std::size_t shares : {0u, 1u, 3u, 8u}) {
            std::vector<std::atomic<int>> seen(count);
            parallelFor(count, shares, [&](std::size_t lo, std::size_t hi) {
                EXPECT_LE(lo, hi);
                for (std::size_t i = lo; i < hi; ++i)
                    ++seen[i];
            });
            for (std::size_t i = 0; i < count; ++i)
                EXPECT_EQ(seen[i].load(), 1) << count << " in " << shares << ", index " << i;
        }
}

TEST(ParallelTest, ParallelForRethrowsAfterAllShares) {
    std::atomic<int> ended{0};
    EXPECT_THROW(parallelFor(100, 4,
                             [&](std::size_t lo, std::size_t) {
                                 if (lo == 0)
                                     throw std::logic_error("first share");
                                 ++ended;
                             }),
                 std::logic_error);
    EXPECT_EQ(ended.load(), 3);
}

TEST(ParallelTest, ThreadIsJoinedByItsDestructor) {
    std::atomic<bool> ran{false};
    {
        Thread t([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            ran = true;
        });
        EXPECT_TRUE(t.joinable());
    }
    EXPECT_TRUE(ran.load());
    Thread moved([] {});
    Thread other = std::move(moved);
    EXPECT_FALSE(moved.joinable());
    other.join();
    EXPECT_FALSE(other.joinable());
    other.join(); // nothing to join: no error
}

TEST(ParallelTest, InBackgroundGivesTheValueOrTheException) {
    auto value = inBackground([] { return 42; });
    EXPECT_EQ(value.get(), 42);
    auto error = inBackground([]() -> int { throw std::runtime_error("no value"); });
    EXPECT_THROW(error.get(), std::runtime_error);
}

} // namespace
} // namespace histlab
