#include "runtime/parallel.h"

#include <algorithm>
#include <exception>
#include <vector>

namespace histlab {

unsigned hostThreads() {
    return std::max(1u, std::thread::hardware_concurrency());
}

void runTasks(std::size_t n, const std::function<void(std::size_t k)>& task) {
    std::vector<std::exception_ptr> errors(n);
    {
        // Joined before the errors are looked at, also when starting a thread fails.
        std::vector<Thread> threads;
        threads.reserve(n);
        for (std::size_t k = 0; k < n; ++k)
            threads.emplace_back([&task, &errors, k] {
                try {
                    task(k);
                } catch (...) {
                    errors[k] = std::current_exception();
                }
            });
    }
    for (const std::exception_ptr& e : errors)
        if (e)
            std::rethrow_exception(e);
}

void parallelFor(std::size_t count, std::size_t shares,
                 const std::function<void(std::size_t lo, std::size_t hi)>& body) {
    shares = std::max<std::size_t>(1, shares);
    if (shares == 1 || count == 0) {
        body(0, count);
        return;
    }
    runTasks(shares, [&](std::size_t t) { body(count * t / shares, count * (t + 1) / shares); });
}

Thread::Thread(std::function<void()> body)
    : m_thread(std::move(body)) {}

Thread& Thread::operator=(Thread&& other) noexcept {
    if (this != &other) {
        join();
        m_thread = std::move(other.m_thread);
    }
    return *this;
}

Thread::~Thread() {
    join();
}

void Thread::join() {
    if (m_thread.joinable())
        m_thread.join();
}

} // namespace histlab
