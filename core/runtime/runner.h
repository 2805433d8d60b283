#pragma once
// The worker-thread job runner (after Qt's Mandelbrot example and RenderDoc's replay thread):
// one thread owns every OpenCL object; callers submit jobs and hear back through callbacks,
// which run on the worker thread (the GUI re-posts them to its own thread). A job ends in a
// result or an error value, never in a crash. Cancellation is cooperative (checked between
// launches); a new job in a "lane" cancels the older ones of that lane (the newest wins).
#include "runtime/cancel.h"
#include "runtime/device.h"

#include <any>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>

namespace histlab {

/// Progress of a job: a fraction in [0, 1] and a short stage name.
struct Progress {
    double fraction = 0;
    std::string stage;
};

/// A failure as a value. The kinds map to histlab-cli's exit codes (see app/cli).
struct JobError {
    enum class Kind { Usage, Input, Device, Build, Unsupported, Cancelled, Internal };
    Kind kind = Kind::Internal;
    std::string message;
    std::string parameter;  ///< Usage: the parameter at fault
    std::string kernelFile; ///< Build: kernels/NAME.cl
    std::string options;    ///< Build: the exact build options
    std::string buildLog;   ///< Build: the compiler's log
    int clCode = 0;         ///< Device/Build: the OpenCL error code
};
const char* jobErrorKindName(JobError::Kind kind);

/// "not enough memory for <what> (...)": what a run that ran out of memory (std::bad_alloc,
/// std::length_error) says, an input error.
std::string notEnoughMemoryMessage(const std::string& what);

/// Turns the exception in flight (or any exception_ptr) into a JobError.
JobError toJobError(std::exception_ptr error);

using JobId = std::uint64_t;

/// Receives what a job streams as it goes (points, rows, outputs), on the worker thread.
using ItemSink = std::function<void(const std::any& item)>;

/// What a running job may use: its cancel token, progress reporting, and the devices.
class JobContext {
public:
    JobContext(JobId id, CancelToken token, DeviceSet& devices,
               std::function<void(const Progress&)> progress)
        : m_id(id)
        , m_token(std::move(token))
        , m_devices(devices)
        , m_progress(std::move(progress)) {}
    JobId id() const { return m_id; }
    const CancelToken& cancelToken() const { return m_token; }
    bool cancelled() const { return m_token.cancelled(); }
    void throwIfCancelled() const { m_token.throwIfCancelled(); }
    void progress(double fraction, const std::string& stage) const {
        if (m_progress)
            m_progress(Progress{fraction, stage});
    }
    DeviceSet& devices() const { return m_devices; }
    /// The same job seen by one of its parts: the part's progress 0 ... 1 is this job's
    /// `from` ... `to` (a front end that runs two families' runs one after the other).
    JobContext part(double from, double to) const {
        JobContext sub = *this;
        sub.m_progress = [progress = m_progress, from, to](const Progress& p) {
            if (progress)
                progress(Progress{from + (to - from) * p.fraction, p.stage});
        };
        return sub;
    }

private:
    JobId m_id;
    CancelToken m_token;
    DeviceSet& m_devices;
    std::function<void(const Progress&)> m_progress;
};

class JobRunner {
public:
    using Work = std::function<std::any(JobContext&)>;
    struct Handlers {
        std::function<void(JobId, const Progress&)> progress;
        std::function<void(JobId, std::any)> finished;
        std::function<void(JobId, const JobError&)> failed; ///< also for cancelled jobs
    };

    JobRunner();
    ~JobRunner(); ///< cancels what runs, drops what waits (reported as cancelled), joins

    JobRunner(const JobRunner&) = delete;
    JobRunner& operator=(const JobRunner&) = delete;

    /// Queues a job. A non-empty lane cancels the lane's running and waiting jobs first.
    JobId submit(std::string lane, Work work, Handlers handlers);
    void cancel(JobId id);
    void cancelAll();
    /// Blocks until no job runs or waits (for tests and the CLI).
    void waitIdle();

    /// Runs one job on the worker and waits for it: the CLI's way in.
    std::variant<std::any, JobError> runAndWait(Work work,
                                                std::function<void(const Progress&)> progress = {});

private:
    struct Job {
        JobId id;
        std::string lane;
        Work work;
        Handlers handlers;
        CancelToken token;
    };
    void loop();

    std::mutex m_mutex;
    std::condition_variable m_wake, m_idle;
    std::deque<Job> m_queue;
    std::optional<Job> m_running; // token and lane of the running job (work moved out)
    bool m_stop = false;
    JobId m_next = 1;
    DeviceSet m_devices; // touched only by the worker thread
    std::thread m_thread;
};

} // namespace histlab
