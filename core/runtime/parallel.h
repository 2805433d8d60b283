#pragma once
// The one place in the core that makes threads (docs/architecture.md, "Threads"): everything
// else asks for them here, so that how many there are, how they end and where their exceptions
// go is decided once.
//
// - hostThreads(): how many threads the host runs at once (at least 1).
// - runTasks(n, task): task(k) for every k < n, each on a thread of its own; waits for all and
//   rethrows the first exception (by k) once every task has ended.
// - parallelFor(count, shares, body): body(lo, hi) over `shares` contiguous shares of
//   [0, count), the same way.
// - Thread: a long-lived thread that is joined, never detached: its owner stops it and joins.
// - inBackground(f): f() on a thread of its own; its value (or exception) from the future.
#include <cstddef>
#include <functional>
#include <future>
#include <thread>
#include <type_traits>
#include <utility>

namespace histlab {

/// The threads the host runs at once: std::thread::hardware_concurrency(), or 1 when it does not
/// know.
unsigned hostThreads();

/// task(k) for k in [0, n), each on its own thread (the caller's thread runs none of them, so a
/// task may block on another). Waits until every task has ended, then rethrows the exception of
/// the lowest k that threw, if any.
void runTasks(std::size_t n, const std::function<void(std::size_t k)>& task);

/// body(lo, hi) over `shares` contiguous shares of [0, count): share t is
/// [count * t / shares, count * (t + 1) / shares). One share (or none to do) runs on the
/// caller's thread; more run as runTasks does, the first exception rethrown after all end.
void parallelFor(std::size_t count, std::size_t shares,
                 const std::function<void(std::size_t lo, std::size_t hi)>& body);

/// A thread that lives as long as its owner wants: it starts with `body` and is joined by
/// join() or by its destructor, never detached. The owner must make `body` return first (a stop
/// flag); an exception that leaves `body` ends the program, as std::thread's would.
class Thread {
public:
    Thread() = default;
    explicit Thread(std::function<void()> body);
    Thread(Thread&&) noexcept = default;
    Thread& operator=(Thread&& other) noexcept;
    ~Thread();
    Thread(const Thread&) = delete;
    Thread& operator=(const Thread&) = delete;

    bool joinable() const { return m_thread.joinable(); }
    /// Waits until the body has returned; nothing when it has no thread (or was joined).
    void join();

private:
    std::thread m_thread;
};

/// f() on a thread of its own, started now: the future holds its value or its exception. The
/// future's destructor waits for f to end, so what f reads must outlive the future.
template <class F> auto inBackground(F&& f) -> std::future<std::invoke_result_t<std::decay_t<F>>> {
    return std::async(std::launch::async, std::forward<F>(f));
}

} // namespace histlab
