#include "runtime/runner.h"

#include "runtime/errors.h"

#include <future>
#include <new>
#include <stdexcept>

namespace histlab {

const char* jobErrorKindName(JobError::Kind kind) {
    switch (kind) {
    case JobError::Kind::Usage:
        return "usage";
    case JobError::Kind::Input:
        return "input";
    case JobError::Kind::Device:
        return "device";
    case JobError::Kind::Build:
        return "build";
    case JobError::Kind::Unsupported:
        return "unsupported";
    case JobError::Kind::Cancelled:
        return "cancelled";
    case JobError::Kind::Internal:
        return "internal";
    }
    return "internal";
}

std::string notEnoughMemoryMessage(const std::string& what) {
    return "not enough memory for " + what +
           " (the input is too large for this machine or for the memory limit it runs under)";
}

JobError toJobError(std::exception_ptr error) {
    JobError e;
    try {
        std::rethrow_exception(error);
    } catch (const CancelledError& x) {
        e.kind = JobError::Kind::Cancelled;
        e.message = x.what();
    } catch (const UsageError& x) {
        e.kind = JobError::Kind::Usage;
        e.message = x.what();
        e.parameter = x.parameter();
    } catch (const InputError& x) {
        e.kind = JobError::Kind::Input;
        e.message = x.what();
    } catch (const BuildError& x) {
        e.kind = JobError::Kind::Build;
        e.message = x.what();
        e.kernelFile = x.kernelFile();
        e.options = x.options();
        e.buildLog = x.buildLog();
        e.clCode = x.code();
    } catch (const UnsupportedError& x) {
        e.kind = JobError::Kind::Unsupported;
        e.message = x.what();
    } catch (const DeviceError& x) {
        e.kind = JobError::Kind::Device;
        e.message = x.what();
        e.clCode = x.code();
    } catch (const cl::Error& x) {
        e.kind = JobError::Kind::Device;
        e.message = describeClError(x.what(), x.err());
        e.clCode = x.err();
    } catch (const std::bad_alloc&) {
        // An input too large for this machine, or for the limit it runs under (ulimit -v, a
        // Slurm job): the input's fault as far as the person can act on it, not a crash.
        e.kind = JobError::Kind::Input;
        e.message = notEnoughMemoryMessage("this run");
    } catch (const std::length_error&) {
        e.kind = JobError::Kind::Input; // a container asked for more than it can hold
        e.message = notEnoughMemoryMessage("this run");
    } catch (const std::exception& x) {
        e.kind = JobError::Kind::Internal;
        e.message = x.what();
    } catch (...) {
        e.kind = JobError::Kind::Internal;
        e.message = "unknown error";
    }
    return e;
}

JobRunner::JobRunner()
    : m_thread([this] { loop(); }) {}

JobRunner::~JobRunner() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        if (m_running)
            m_running->token.cancel();
        for (auto& job : m_queue)
            job.token.cancel();
    }
    m_wake.notify_all();
    m_thread.join();
}

JobId JobRunner::submit(std::string lane, Work work, Handlers handlers) {
    std::lock_guard lock(m_mutex);
    if (!lane.empty()) {
        if (m_running && m_running->lane == lane)
            m_running->token.cancel();
        for (auto& job : m_queue)
            if (job.lane == lane)
                job.token.cancel();
    }
    const JobId id = m_next++;
    m_queue.push_back(Job{id, std::move(lane), std::move(work), std::move(handlers), {}});
    m_wake.notify_all();
    return id;
}

void JobRunner::cancel(JobId id) {
    std::lock_guard lock(m_mutex);
    if (m_running && m_running->id == id)
        m_running->token.cancel();
    for (auto& job : m_queue)
        if (job.id == id)
            job.token.cancel();
}

void JobRunner::cancelAll() {
    std::lock_guard lock(m_mutex);
    if (m_running)
        m_running->token.cancel();
    for (auto& job : m_queue)
        job.token.cancel();
}

void JobRunner::waitIdle() {
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [this] { return m_queue.empty() && !m_running; });
}

std::variant<std::any, JobError>
JobRunner::runAndWait(Work work, std::function<void(const Progress&)> progress) {
    std::promise<std::variant<std::any, JobError>> promise;
    auto future = promise.get_future();
    Handlers h;
    h.progress = [progress](JobId, const Progress& p) {
        if (progress)
            progress(p);
    };
    h.finished = [&promise](JobId, std::any r) { promise.set_value(std::move(r)); };
    h.failed = [&promise](JobId, const JobError& e) { promise.set_value(e); };
    submit({}, std::move(work), std::move(h));
    return future.get();
}

void JobRunner::loop() {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
            if (m_queue.empty()) // stopping, nothing left
                return;
            job = std::move(m_queue.front());
            m_queue.pop_front();
            m_running = Job{job.id, job.lane, {}, {}, job.token};
            if (m_stop)
                job.token.cancel();
        }
        std::variant<std::any, JobError> outcome;
        try {
            job.token.throwIfCancelled(); // superseded while it waited
            auto& handlers = job.handlers;
            JobContext context(job.id, job.token, m_devices, [&](const Progress& p) {
                if (handlers.progress)
                    handlers.progress(job.id, p);
            });
            outcome = job.work(context);
            if (job.token.cancelled()) // finished, but a newer request has replaced it
                outcome = toJobError(std::make_exception_ptr(CancelledError()));
        } catch (...) {
            outcome = toJobError(std::current_exception());
        }
        // Callbacks run outside the lock: they may submit new jobs.
        try {
            if (auto* e = std::get_if<JobError>(&outcome)) {
                if (job.handlers.failed)
                    job.handlers.failed(job.id, *e);
            } else if (job.handlers.finished) {
                job.handlers.finished(job.id, std::move(std::get<std::any>(outcome)));
            }
        } catch (...) {
            // A throwing callback must not take the worker down; nothing to report it to.
        }
        {
            std::lock_guard lock(m_mutex);
            m_running.reset();
            if (m_queue.empty())
                m_idle.notify_all();
        }
    }
}

} // namespace histlab
