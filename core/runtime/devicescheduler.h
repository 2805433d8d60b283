#pragma once
// Work shared between several opened devices (a batch of images, one input split): one thread
// per device, a device that fails is given up and its work goes to the devices left. A Device is
// used by one thread at a time, so each device's work runs on its own thread and nowhere else
// while the scheduler runs it.
//
// HISTLAB_DEVICE_FAIL="P:N" makes the device at position P of those chosen fail on the N-th
// piece of work it takes (from 0), for the tests of that hand-over; it is read here and nowhere
// else.
#include "runtime/device.h"

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace histlab {

/// A device made to fail on purpose: the device at position `device` of those chosen fails on
/// the `after`-th piece of work it takes (from 0). device -1: none.
struct DeviceFault {
    int device = -1;
    std::size_t after = 0;
};
/// "P:N" (whole numbers); UsageError("HISTLAB_DEVICE_FAIL") otherwise.
DeviceFault parseDeviceFault(const std::string& text);
/// HISTLAB_DEVICE_FAIL="P:N" from the environment (none: device -1).
DeviceFault deviceFaultFromEnvironment();

/// Why a device failed, from the exception it threw: its message, and for a cl::Error the
/// error code's name too.
std::string deviceFailureText(const std::exception_ptr& error);

class DeviceScheduler {
public:
    /// The opened devices, by position (the scheduler never uses them itself: it may hold null
    /// pointers in tests), and the failure to inject.
    explicit DeviceScheduler(std::vector<Device*> devices, DeviceFault fault = {});
    ~DeviceScheduler();
    DeviceScheduler(const DeviceScheduler&) = delete;
    DeviceScheduler& operator=(const DeviceScheduler&) = delete;

    std::size_t size() const { return m_devices.size(); }
    Device& device(std::size_t k) const { return *m_devices[k]; }

    /// Throws DeviceError("failed on purpose (HISTLAB_DEVICE_FAIL=k:n)") when device `k` is the
    /// one made to fail on its `n`-th piece of work; a device calls it as it takes each piece.
    void injectFault(std::size_t k, std::size_t n) const;

    /// Device `k` is given up, for `why`. The first reason stays.
    void fail(std::size_t k, const std::string& why);
    bool failed(std::size_t k) const;
    /// Why device `k` failed ("" when it has not).
    std::string failure(std::size_t k) const;
    /// The devices that have not failed.
    std::size_t left() const;

    /// work(k) on a thread of its own for every device that has not failed, started now. A
    /// device whose work throws anything but CancelledError has failed (deviceFailureText).
    void start(std::function<void(std::size_t k)> work);
    /// Waits for the threads start() made; then rethrows a CancelledError one of them threw.
    /// Returns the devices that failed in them, in order.
    std::vector<std::size_t> wait();
    /// start(work) then wait().
    std::vector<std::size_t> runEach(std::function<void(std::size_t k)> work);

    /// Hands a failed device's piece on, on the calling thread: work(by) for the device `pick`
    /// chooses among those left (its position, -1: none left), again while the one chosen fails
    /// at it (it has failed then). Returns the device that did it; throws
    /// DeviceError("every device failed: " + why) when none is left. CancelledError passes.
    std::size_t handOn(const std::function<void(std::size_t by)>& work,
                       const std::function<int()>& pick, const std::string& why);

private:
    std::vector<Device*> m_devices;
    DeviceFault m_fault;
    mutable std::mutex m_mutex;
    std::vector<std::string> m_failures; ///< "" for a device that has not failed
    std::vector<char> m_failed;
    struct Running;
    std::unique_ptr<Running> m_running;
};

} // namespace histlab
