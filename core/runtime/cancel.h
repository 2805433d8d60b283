#pragma once
// Cooperative cancellation: a job checks its token between launches.
#include <atomic>
#include <memory>
#include <stdexcept>

namespace histlab {

class CancelledError : public std::runtime_error {
public:
    CancelledError()
        : std::runtime_error("cancelled") {}
};

/// Shared flag; copies observe the same state. A default token is never cancelled.
class CancelToken {
public:
    CancelToken()
        : m_flag(std::make_shared<std::atomic<bool>>(false)) {}
    void cancel() const { m_flag->store(true); }
    bool cancelled() const { return m_flag->load(); }
    void throwIfCancelled() const {
        if (cancelled())
            throw CancelledError();
    }

private:
    std::shared_ptr<std::atomic<bool>> m_flag;
};

} // namespace histlab
