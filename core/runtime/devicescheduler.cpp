#include "runtime/devicescheduler.h"

#include "runtime/cancel.h"
#include "runtime/errors.h"
#include "runtime/messagetext.h"
#include "runtime/opencl.h"
#include "runtime/parallel.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace histlab {
namespace {

constexpr const char* kVariable = "HISTLAB_DEVICE_FAIL";

long long wholeNumber(const std::string& text, long long lo, long long hi) {
    long long v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
        throw UsageError(kVariable, "'" + cappedText(text) + "' is not a whole number");
    if (v < lo || v > hi)
        throw UsageError(kVariable, cappedText(text) + " is out of range (" + std::to_string(lo) +
                                        ".." + std::to_string(hi) + ")");
    return v;
}

} // namespace

DeviceFault parseDeviceFault(const std::string& text) {
    const std::size_t colon = text.find(':');
    if (colon == std::string::npos)
        throw UsageError(kVariable, "'" + text +
                                        "' is not P:N (the device's position and the piece of "
                                        "work it fails on)");
    DeviceFault f;
    f.device = int(wholeNumber(text.substr(0, colon), 0, 1024));
    f.after = std::size_t(wholeNumber(text.substr(colon + 1), 0, 1ll << 40));
    return f;
}

DeviceFault deviceFaultFromEnvironment() {
    const char* text = std::getenv(kVariable);
    return text && *text ? parseDeviceFault(text) : DeviceFault{};
}

std::string deviceFailureText(const std::exception_ptr& error) {
    try {
        std::rethrow_exception(error);
    } catch (const cl::Error& e) {
        return std::string(e.what()) + " (" + clErrorName(e.err()) + ")";
    } catch (const std::exception& e) {
        return e.what();
    } catch (...) {
        return "an unknown error";
    }
}

struct DeviceScheduler::Running {
    std::mutex mutex;
    std::vector<std::size_t> lost;
    std::exception_ptr cancelled;
    std::vector<Thread> threads; // last: joined before what they write is destroyed
};

DeviceScheduler::DeviceScheduler(std::vector<Device*> devices, DeviceFault fault)
    : m_devices(std::move(devices))
    , m_fault(fault)
    , m_failures(m_devices.size())
    , m_failed(m_devices.size(), 0) {}

DeviceScheduler::~DeviceScheduler() = default; // joins what is still running

void DeviceScheduler::injectFault(std::size_t k, std::size_t n) const {
    if (m_fault.device == int(k) && m_fault.after == n)
        throw DeviceError("failed on purpose (" + std::string(kVariable) + "=" + std::to_string(k) +
                          ":" + std::to_string(n) + ")");
}

void DeviceScheduler::fail(std::size_t k, const std::string& why) {
    std::lock_guard lock(m_mutex);
    if (!m_failed[k]) {
        m_failed[k] = 1;
        m_failures[k] = why;
    }
}

bool DeviceScheduler::failed(std::size_t k) const {
    std::lock_guard lock(m_mutex);
    return m_failed[k] != 0;
}

std::string DeviceScheduler::failure(std::size_t k) const {
    std::lock_guard lock(m_mutex);
    return m_failures[k];
}

std::size_t DeviceScheduler::left() const {
    std::lock_guard lock(m_mutex);
    return std::size_t(std::count(m_failed.begin(), m_failed.end(), 0));
}

void DeviceScheduler::start(std::function<void(std::size_t k)> work) {
    wait(); // one set of threads at a time
    m_running = std::make_unique<Running>();
    Running& running = *m_running;
    for (std::size_t k = 0; k < size(); ++k) {
        if (failed(k))
            continue;
        running.threads.emplace_back([this, &running, work, k] {
            try {
                work(k);
            } catch (const CancelledError&) {
                std::lock_guard lock(running.mutex);
                if (!running.cancelled)
                    running.cancelled = std::current_exception();
            } catch (...) {
                fail(k, deviceFailureText(std::current_exception()));
                std::lock_guard lock(running.mutex);
                running.lost.push_back(k);
            }
        });
    }
}

std::vector<std::size_t> DeviceScheduler::wait() {
    if (!m_running)
        return {};
    for (Thread& t : m_running->threads)
        t.join();
    const std::unique_ptr<Running> done = std::move(m_running);
    if (done->cancelled)
        std::rethrow_exception(done->cancelled);
    std::sort(done->lost.begin(), done->lost.end());
    return done->lost;
}

std::vector<std::size_t> DeviceScheduler::runEach(std::function<void(std::size_t k)> work) {
    start(std::move(work));
    return wait();
}

std::size_t DeviceScheduler::handOn(const std::function<void(std::size_t by)>& work,
                                    const std::function<int()>& pick, const std::string& why) {
    for (;;) {
        const int by = pick();
        if (by < 0 || failed(std::size_t(by)))
            throw DeviceError("every device failed: " + why);
        try {
            work(std::size_t(by));
            return std::size_t(by);
        } catch (const CancelledError&) {
            throw;
        } catch (...) {
            fail(std::size_t(by), deviceFailureText(std::current_exception()));
        }
    }
}

} // namespace histlab
