// The worker-thread job runner: results and errors as values, cancellation, lanes (the newest
// request wins), progress order, shutdown with pending jobs, and callbacks that throw.
// Synchronisation is by promises and condition variables; sleeps appear only inside jobs that
// poll their cancel token, as real jobs do between launches.
#include "unitsupport.h"

#include "pipelines/histogram256/histogram256.h"
#include "runtime/errors.h"
#include "runtime/kernelsource.h"
#include "runtime/runner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <map>
#include <mutex>

namespace histlab {
namespace {

using namespace std::chrono_literals;
constexpr auto kPatience = 5s; // generous: "promptly" without a tight timing assertion

/// What the handlers heard, per job, in arrival order.
class Recorder {
public:
    struct Outcome {
        bool finished = false;
        std::any value;
        JobError error;
    };

    JobRunner::Handlers handlers() {
        JobRunner::Handlers h;
        h.progress = [this](JobId id, const Progress& p) {
            std::lock_guard lock(m_mutex);
            m_progress[id].push_back(p);
            m_order.push_back("progress " + std::to_string(id));
        };
        h.finished = [this](JobId id, std::any v) {
            std::lock_guard lock(m_mutex);
            m_outcomes[id] = Outcome{true, std::move(v), {}};
            m_order.push_back("finished " + std::to_string(id));
            m_changed.notify_all();
        };
        h.failed = [this](JobId id, const JobError& e) {
            std::lock_guard lock(m_mutex);
            m_outcomes[id] = Outcome{false, {}, e};
            m_order.push_back("failed " + std::to_string(id));
            m_changed.notify_all();
        };
        return h;
    }

    /// Waits (up to kPatience) for the job's outcome.
    std::optional<Outcome> wait(JobId id) {
        std::unique_lock lock(m_mutex);
        if (!m_changed.wait_for(lock, kPatience, [&] { return m_outcomes.count(id) > 0; }))
            return std::nullopt;
        return m_outcomes[id];
    }

    std::size_t outcomes() {
        std::lock_guard lock(m_mutex);
        return m_outcomes.size();
    }
    std::vector<Progress> progress(JobId id) {
        std::lock_guard lock(m_mutex);
        return m_progress[id];
    }
    std::vector<std::string> order() {
        std::lock_guard lock(m_mutex);
        return m_order;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::map<JobId, Outcome> m_outcomes;
    std::map<JobId, std::vector<Progress>> m_progress;
    std::vector<std::string> m_order;
};

/// A job that signals when it starts and then runs until its token is cancelled.
JobRunner::Work untilCancelled(std::shared_ptr<std::promise<void>> started) {
    return [started](JobContext& ctx) -> std::any {
        started->set_value();
        for (;;) {
            ctx.throwIfCancelled();
            std::this_thread::sleep_for(1ms);
        }
    };
}

JobError errorOf(JobRunner& runner, JobRunner::Work work) {
    auto outcome = runner.runAndWait(std::move(work));
    if (auto* e = std::get_if<JobError>(&outcome))
        return *e;
    ADD_FAILURE() << "the job did not fail";
    return {};
}

TEST(Runner, ResultArrivesThroughFinished) {
    JobRunner runner;
    Recorder rec;
    const JobId id = runner.submit(
        "", [](JobContext&) { return std::any(42); }, rec.handlers());
    const auto out = rec.wait(id);
    ASSERT_TRUE(out.has_value()) << "no outcome";
    ASSERT_TRUE(out->finished) << out->error.message;
    EXPECT_EQ(std::any_cast<int>(out->value), 42);
}

TEST(Runner, RunAndWaitReturnsTheValueOrTheError) {
    JobRunner runner;
    auto ok = runner.runAndWait([](JobContext&) { return std::any(std::string("done")); });
    ASSERT_TRUE(std::holds_alternative<std::any>(ok));
    EXPECT_EQ(std::any_cast<std::string>(std::get<std::any>(ok)), "done");
    const JobError e = errorOf(
        runner, [](JobContext&) -> std::any { throw InputError("photo.png: file is empty"); });
    EXPECT_EQ(e.kind, JobError::Kind::Input);
    EXPECT_EQ(e.message, "photo.png: file is empty");
}

TEST(Runner, EachExceptionTypeBecomesItsErrorKind) {
    JobRunner runner;
    {
        const JobError e = errorOf(runner, [](JobContext&) -> std::any {
            throw UsageError("--banks", "3 is not a power of two");
        });
        EXPECT_EQ(e.kind, JobError::Kind::Usage);
        EXPECT_EQ(e.parameter, "--banks");
        EXPECT_EQ(e.message, "--banks: 3 is not a power of two");
    }
    {
        const JobError e =
            errorOf(runner, [](JobContext&) -> std::any { throw InputError("bad file"); });
        EXPECT_EQ(e.kind, JobError::Kind::Input);
    }
    {
        const JobError e = errorOf(runner, [](JobContext&) -> std::any {
            throw BuildError("histogram256", "-D NCHAN=3", "error: oops", -11);
        });
        EXPECT_EQ(e.kind, JobError::Kind::Build);
        EXPECT_EQ(e.options, "-D NCHAN=3");
        EXPECT_EQ(e.buildLog, "error: oops");
        EXPECT_EQ(e.clCode, -11);
        EXPECT_NE(e.message.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos);
    }
    {
        const JobError e = errorOf(runner, [](JobContext&) -> std::any {
            throw DeviceError("clCreateBuffer failed: CL_OUT_OF_RESOURCES (-5)", -5);
        });
        EXPECT_EQ(e.kind, JobError::Kind::Device);
        EXPECT_EQ(e.clCode, -5);
    }
    {
        const JobError e = errorOf(runner, [](JobContext&) -> std::any {
            throw UnsupportedError("work_group_scan_exclusive_add does not compile here");
        });
        EXPECT_EQ(e.kind, JobError::Kind::Unsupported);
    }
    {
        const JobError e = errorOf(runner, [](JobContext&) -> std::any {
            throw cl::Error(-54, "clEnqueueNDRangeKernel");
        });
        EXPECT_EQ(e.kind, JobError::Kind::Device);
        EXPECT_EQ(e.clCode, -54);
        EXPECT_NE(e.message.find("CL_INVALID_WORK_GROUP_SIZE"), std::string::npos) << e.message;
        EXPECT_NE(e.message.find("clEnqueueNDRangeKernel"), std::string::npos) << e.message;
    }
    {
        const JobError e = errorOf(
            runner, [](JobContext&) -> std::any { throw std::runtime_error("something else"); });
        EXPECT_EQ(e.kind, JobError::Kind::Internal);
        EXPECT_EQ(e.message, "something else");
    }
    {
        const JobError e = errorOf(runner, [](JobContext&) -> std::any { throw 7; });
        EXPECT_EQ(e.kind, JobError::Kind::Internal);
    }
    {
        const JobError e = errorOf(runner, [](JobContext&) -> std::any { throw CancelledError(); });
        EXPECT_EQ(e.kind, JobError::Kind::Cancelled);
    }
    EXPECT_STREQ(jobErrorKindName(JobError::Kind::Build), "build");
    EXPECT_STREQ(jobErrorKindName(JobError::Kind::Cancelled), "cancelled");
}

TEST(Runner, BuildFailureOnTheWorkerCarriesTheLog) {
    test::TempDir dir;
    test::writeFile(dir / "broken.cl", "__kernel void f(__global uint* o) { o[0] = nope; }\n");
    setKernelDir(dir.path().string());
    struct RestoreKernelDir {
        ~RestoreKernelDir() { setKernelDir(""); }
    } restore;
    JobRunner runner;
    const JobError e = errorOf(runner, [](JobContext& ctx) -> std::any {
        ctx.devices().select("").program("broken", "-D UNIT=1");
        return {};
    });
    EXPECT_EQ(e.kind, JobError::Kind::Build);
    EXPECT_EQ(e.options, "-D UNIT=1");
    EXPECT_NE(e.buildLog.find("nope"), std::string::npos) << e.buildLog;
    EXPECT_EQ(e.clCode, -11);
}

TEST(Runner, CancelStopsARunningJobPromptly) {
    JobRunner runner;
    Recorder rec;
    auto started = std::make_shared<std::promise<void>>();
    auto startedF = started->get_future();
    const JobId id = runner.submit("", untilCancelled(started), rec.handlers());
    ASSERT_EQ(startedF.wait_for(kPatience), std::future_status::ready);
    const auto t0 = std::chrono::steady_clock::now();
    runner.cancel(id);
    const auto out = rec.wait(id);
    ASSERT_TRUE(out.has_value()) << "the cancelled job never ended";
    EXPECT_FALSE(out->finished);
    EXPECT_EQ(out->error.kind, JobError::Kind::Cancelled);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, kPatience);
}

TEST(Runner, CancelAWaitingJobAndCancelAll) {
    JobRunner runner;
    Recorder rec;
    std::promise<void> release;
    auto releaseF = release.get_future().share();
    const JobId first = runner.submit(
        "",
        [releaseF](JobContext&) {
            releaseF.wait();
            return std::any(1);
        },
        rec.handlers());
    const JobId second = runner.submit(
        "", [](JobContext&) { return std::any(2); }, rec.handlers());
    runner.cancel(second);
    release.set_value();
    const auto a = rec.wait(first), b = rec.wait(second);
    ASSERT_TRUE(a && b);
    EXPECT_TRUE(a->finished);
    EXPECT_FALSE(b->finished);
    EXPECT_EQ(b->error.kind, JobError::Kind::Cancelled);

    auto started = std::make_shared<std::promise<void>>();
    auto startedF = started->get_future();
    const JobId running = runner.submit("", untilCancelled(started), rec.handlers());
    const JobId waiting = runner.submit(
        "", [](JobContext&) { return std::any(3); }, rec.handlers());
    ASSERT_EQ(startedF.wait_for(kPatience), std::future_status::ready);
    runner.cancelAll();
    const auto c = rec.wait(running), d = rec.wait(waiting);
    ASSERT_TRUE(c && d);
    EXPECT_EQ(c->error.kind, JobError::Kind::Cancelled);
    EXPECT_EQ(d->error.kind, JobError::Kind::Cancelled);
    runner.waitIdle();
}

TEST(Runner, NewJobInALaneCancelsTheOlderOne) {
    JobRunner runner;
    Recorder rec;
    auto started = std::make_shared<std::promise<void>>();
    auto startedF = started->get_future();
    const JobId older = runner.submit("histogram", untilCancelled(started), rec.handlers());
    ASSERT_EQ(startedF.wait_for(kPatience), std::future_status::ready);
    const JobId newer = runner.submit(
        "histogram", [](JobContext&) { return std::any(2); }, rec.handlers());
    const auto a = rec.wait(older), b = rec.wait(newer);
    ASSERT_TRUE(a && b);
    EXPECT_FALSE(a->finished);
    EXPECT_EQ(a->error.kind, JobError::Kind::Cancelled);
    ASSERT_TRUE(b->finished) << b->error.message;
    EXPECT_EQ(std::any_cast<int>(b->value), 2);
}

TEST(Runner, AJobThatIgnoresItsTokenIsStillReportedSuperseded) {
    JobRunner runner;
    Recorder rec;
    std::promise<void> started, release;
    auto releaseF = release.get_future().share();
    const JobId older = runner.submit(
        "blur",
        [&started, releaseF](JobContext&) {
            started.set_value();
            releaseF.wait();
            return std::any(1);
        },
        rec.handlers());
    ASSERT_EQ(started.get_future().wait_for(kPatience), std::future_status::ready);
    const JobId newer = runner.submit(
        "blur", [](JobContext&) { return std::any(2); }, rec.handlers());
    release.set_value();
    const auto a = rec.wait(older), b = rec.wait(newer);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->error.kind, JobError::Kind::Cancelled) << "the newest request wins";
    EXPECT_TRUE(b->finished);
}

TEST(Runner, DifferentLanesAndTheEmptyLaneDoNotCancel) {
    JobRunner runner;
    Recorder rec;
    std::promise<void> release;
    auto releaseF = release.get_future().share();
    auto blocker = [releaseF](JobContext&) {
        releaseF.wait();
        return std::any(0);
    };
    const JobId a = runner.submit("a", blocker, rec.handlers());
    const JobId b = runner.submit(
        "b", [](JobContext&) { return std::any(1); }, rec.handlers());
    const JobId c = runner.submit(
        "", [](JobContext&) { return std::any(2); }, rec.handlers());
    const JobId d = runner.submit(
        "", [](JobContext&) { return std::any(3); }, rec.handlers());
    release.set_value();
    for (JobId id : {a, b, c, d}) {
        const auto out = rec.wait(id);
        ASSERT_TRUE(out.has_value());
        EXPECT_TRUE(out->finished) << "job " << id << ": " << out->error.message;
    }
}

TEST(Runner, ProgressArrivesInOrderBeforeTheResult) {
    JobRunner runner;
    Recorder rec;
    const JobId id = runner.submit(
        "",
        [](JobContext& ctx) {
            for (int i = 1; i <= 10; ++i)
                ctx.progress(i / 10.0, "step " + std::to_string(i));
            return std::any(0);
        },
        rec.handlers());
    ASSERT_TRUE(rec.wait(id).has_value());
    const auto p = rec.progress(id);
    ASSERT_EQ(p.size(), 10u);
    for (int i = 0; i < 10; ++i) {
        EXPECT_DOUBLE_EQ(p[i].fraction, (i + 1) / 10.0);
        EXPECT_EQ(p[i].stage, "step " + std::to_string(i + 1));
    }
    const auto order = rec.order();
    ASSERT_EQ(order.size(), 11u);
    EXPECT_EQ(order.back(), "finished " + std::to_string(id));

    std::vector<double> seen;
    auto r = runner.runAndWait(
        [](JobContext& ctx) {
            ctx.progress(0.5, "half");
            ctx.progress(1.0, "all");
            return std::any(1);
        },
        [&seen](const Progress& pr) { seen.push_back(pr.fraction); });
    EXPECT_TRUE(std::holds_alternative<std::any>(r));
    EXPECT_EQ(seen, (std::vector<double>{0.5, 1.0}));
}

TEST(Runner, ThrowingCallbacksDoNotKillTheWorker) {
    JobRunner runner;
    JobRunner::Handlers bad;
    bad.progress = [](JobId, const Progress&) { throw std::runtime_error("progress handler"); };
    bad.finished = [](JobId, std::any) { throw std::runtime_error("finished handler"); };
    bad.failed = [](JobId, const JobError&) { throw std::runtime_error("failed handler"); };
    runner.submit(
        "", [](JobContext&) { return std::any(1); }, bad);
    runner.submit(
        "", [](JobContext&) -> std::any { throw InputError("x"); }, bad);
    runner.submit(
        "",
        [](JobContext& ctx) {
            ctx.progress(0.5, "half"); // the handler throws into the job: it fails, not the worker
            return std::any(1);
        },
        bad);
    auto next = runner.runAndWait([](JobContext&) { return std::any(7); });
    ASSERT_TRUE(std::holds_alternative<std::any>(next)) << "the worker survived";
    EXPECT_EQ(std::any_cast<int>(std::get<std::any>(next)), 7);
}

TEST(Runner, CallbacksMaySubmitFollowUpJobs) {
    JobRunner runner;
    std::promise<int> second;
    JobRunner::Handlers h;
    h.finished = [&](JobId, std::any) {
        JobRunner::Handlers h2;
        h2.finished = [&](JobId, std::any v) { second.set_value(std::any_cast<int>(v)); };
        runner.submit(
            "", [](JobContext&) { return std::any(2); }, h2);
    };
    runner.submit(
        "", [](JobContext&) { return std::any(1); }, h);
    auto f = second.get_future();
    ASSERT_EQ(f.wait_for(kPatience), std::future_status::ready);
    EXPECT_EQ(f.get(), 2);
}

TEST(Runner, DestructorReportsPendingJobsCancelledWithoutHanging) {
    Recorder rec;
    std::vector<JobId> ids;
    const auto t0 = std::chrono::steady_clock::now();
    {
        JobRunner runner;
        auto started = std::make_shared<std::promise<void>>();
        auto startedF = started->get_future();
        ids.push_back(runner.submit("", untilCancelled(started), rec.handlers()));
        ids.push_back(runner.submit(
            "", [](JobContext&) { return std::any(1); }, rec.handlers()));
        ids.push_back(runner.submit(
            "x", [](JobContext&) { return std::any(2); }, rec.handlers()));
        ASSERT_EQ(startedF.wait_for(kPatience), std::future_status::ready);
    } // ~JobRunner
    EXPECT_LT(std::chrono::steady_clock::now() - t0, kPatience);
    ASSERT_EQ(rec.outcomes(), ids.size()) << "every job hears how it ended";
    for (JobId id : ids) {
        const auto out = rec.wait(id);
        ASSERT_TRUE(out.has_value());
        EXPECT_FALSE(out->finished) << "job " << id;
        EXPECT_EQ(out->error.kind, JobError::Kind::Cancelled) << "job " << id;
    }
}

TEST(Runner, IdleRunnerShutsDown) {
    auto runner = std::make_unique<JobRunner>();
    runner->waitIdle();
    runner.reset(); // must return
    SUCCEED();
}

TEST(Runner, HistogramJobIsCancelledBetweenLaunches) {
    JobRunner runner;
    Recorder rec;
    auto reachedHistogram = std::make_shared<std::promise<void>>();
    auto reachedF = reachedHistogram->get_future();
    auto once = std::make_shared<std::once_flag>();
    JobRunner::Handlers h = rec.handlers();
    auto recordProgress = h.progress;
    h.progress = [=](JobId id, const Progress& p) {
        recordProgress(id, p);
        if (p.stage.rfind("histogram", 0) == 0)
            std::call_once(*once, [&] { reachedHistogram->set_value(); });
    };
    const JobId id = runner.submit(
        "histogram",
        [](JobContext& ctx) {
            Device& device = ctx.devices().select("");
            const HostImage img = makeSynthetic(SyntheticKind::Random, std::size_t(8) << 20, 5);
            HistogramRunOptions o;
            o.repeats = 100000; // minutes of work unless cancelled
            return std::any(
                runHistogram(device, img, {}, o, ctx.cancelToken(),
                             [&ctx](double f, const std::string& s) { ctx.progress(f, s); }));
        },
        h);
    ASSERT_EQ(reachedF.wait_for(std::chrono::seconds(60)), std::future_status::ready);
    const auto t0 = std::chrono::steady_clock::now();
    runner.cancel(id);
    const auto out = rec.wait(id);
    ASSERT_TRUE(out.has_value()) << "the histogram job did not stop";
    EXPECT_EQ(out->error.kind, JobError::Kind::Cancelled) << out->error.message;
    EXPECT_LT(std::chrono::steady_clock::now() - t0, kPatience);
}

} // namespace
} // namespace histlab
