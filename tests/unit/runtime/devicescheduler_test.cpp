// runtime/devicescheduler.h: one thread per device, a device that fails is given up with its
// reason and its work done by another, the injected failure fires at the asked piece of work,
// HISTLAB_DEVICE_FAIL's parsing. No device is used: the scheduler holds null pointers here.
#include "runtime/cancel.h"
#include "runtime/devicescheduler.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace histlab {
namespace {

std::vector<Device*> devices(std::size_t n) {
    return std::vector<Device*>(n, nullptr);
}

TEST(DeviceSchedulerTest, RunsEachDeviceOnAThreadOfItsOwn) {
    DeviceScheduler s(devices(3));
    std::mutex m;
    std::set<std::thread::id> threads;
    std::vector<int> ran(3, 0);
    const auto lost = s.runEach([&](std::size_t k) {
        std::lock_guard lock(m);
        threads.insert(std::this_thread::get_id());
        ++ran[k];
    });
    EXPECT_TRUE(lost.empty());
    EXPECT_EQ(ran, std::vector<int>({1, 1, 1}));
    EXPECT_EQ(threads.size(), 3u);
    EXPECT_EQ(threads.count(std::this_thread::get_id()), 0u);
    EXPECT_EQ(s.left(), 3u);
}

TEST(DeviceSchedulerTest, AFailingDeviceIsGivenUpAndLeftOut) {
    DeviceScheduler s(devices(3));
    const auto lost = s.runEach([](std::size_t k) {
        if (k == 1)
            throw DeviceError("out of memory");
    });
    EXPECT_EQ(lost, std::vector<std::size_t>({1}));
    EXPECT_TRUE(s.failed(1));
    EXPECT_EQ(s.failure(1), "out of memory");
    EXPECT_EQ(s.left(), 2u);
    std::vector<std::atomic<int>> ran(3);
    EXPECT_TRUE(s.runEach([&](std::size_t k) { ++ran[k]; }).empty());
    EXPECT_EQ(ran[0].load(), 1);
    EXPECT_EQ(ran[1].load(), 0);
    EXPECT_EQ(ran[2].load(), 1);
}

TEST(DeviceSchedulerTest, AFailedDevicesWorkIsDoneByAnother) {
    DeviceScheduler s(devices(3));
    s.fail(0, "gone");
    // Device 2 is picked first and fails at it; device 1 does it.
    std::vector<std::size_t> tried;
    const std::size_t by = s.handOn(
        [&](std::size_t k) {
            tried.push_back(k);
            if (k == 2)
                throw std::runtime_error("device 2 broke too");
        },
        [&] { return !s.failed(2)   ? 2
                     : !s.failed(1) ? 1
                                    : -1; }, "gone");
    EXPECT_EQ(by, 1u);
    EXPECT_EQ(tried, std::vector<std::size_t>({2, 1}));
    EXPECT_EQ(s.failure(2), "device 2 broke too");
    EXPECT_EQ(s.left(), 1u);
}

TEST(DeviceSchedulerTest, HandingOnWithNoDeviceLeftIsADeviceError) {
    DeviceScheduler s(devices(1));
    s.fail(0, "gone");
    try {
        s.handOn([](std::size_t) { FAIL() << "no device is left"; }, [] { return -1; }, "gone");
        FAIL() << "no exception";
    } catch (const DeviceError& e) {
        EXPECT_EQ(std::string(e.what()), "every device failed: gone");
    }
}

TEST(DeviceSchedulerTest, CancellationIsRethrownNotAFailure) {
    DeviceScheduler s(devices(2));
    EXPECT_THROW(s.runEach([](std::size_t k) {
        if (k == 0)
            throw CancelledError();
    }),
                 CancelledError);
    EXPECT_EQ(s.left(), 2u);
}

TEST(DeviceSchedulerTest, TheInjectedFailureFiresAtTheAskedCount) {
    DeviceScheduler s(devices(3), parseDeviceFault("1:2"));
    std::vector<std::size_t> taken(3, 0);
    const auto lost = s.runEach([&](std::size_t k) {
        for (std::size_t n = 0; n < 5; ++n) {
            s.injectFault(k, n);
            ++taken[k];
        }
    });
    EXPECT_EQ(lost, std::vector<std::size_t>({1}));
    EXPECT_EQ(taken, std::vector<std::size_t>({5, 2, 5}));
    EXPECT_EQ(s.failure(1), "failed on purpose (HISTLAB_DEVICE_FAIL=1:2)");
    DeviceScheduler none(devices(2));
    EXPECT_NO_THROW(none.injectFault(0, 0));
}

TEST(DeviceSchedulerTest, TheWorkOfAQueueFedRunReachesTheDevicesLeft) {
    // The batch's way: devices take pieces from one queue; one that fails puts its piece back.
    DeviceScheduler s(devices(2), parseDeviceFault("0:3"));
    std::mutex m;
    std::vector<int> queue;
    for (int i = 0; i < 40; ++i)
        queue.push_back(i);
    std::vector<int> done;
    const auto lost = s.runEach([&](std::size_t k) {
        // Device 1 starts once device 0 has failed, so that device 0 surely reaches its fourth.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (k == 1 && !s.failed(0) && std::chrono::steady_clock::now() < deadline)
            std::this_thread::yield();
        for (std::size_t taken = 0;; ++taken) {
            int piece = 0;
            {
                std::lock_guard lock(m);
                if (queue.empty())
                    return;
                piece = queue.back();
                queue.pop_back();
            }
            try {
                s.injectFault(k, taken);
            } catch (const DeviceError&) {
                std::lock_guard lock(m);
                queue.push_back(piece); // handed back
                throw;
            }
            std::lock_guard lock(m);
            done.push_back(piece);
        }
    });
    EXPECT_EQ(lost, std::vector<std::size_t>({0}));
    EXPECT_EQ(done.size(), 40u);
    EXPECT_EQ(std::set<int>(done.begin(), done.end()).size(), 40u);
}

TEST(DeviceSchedulerTest, ParsesTheFailureVariable) {
    const DeviceFault f = parseDeviceFault("2:7");
    EXPECT_EQ(f.device, 2);
    EXPECT_EQ(f.after, 7u);
    for (const char* bad : {"3", "x:1", "1:", "-1:0", "1:2:3"})
        EXPECT_THROW(parseDeviceFault(bad), UsageError) << bad;
    try {
        parseDeviceFault("a:1");
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string(e.what()), "HISTLAB_DEVICE_FAIL: 'a' is not a whole number");
    }
}

} // namespace
} // namespace histlab
