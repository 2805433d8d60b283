#include "pipelines/devicesplit.h"

#include "report/status.h"
#include "report/text.h"
#include "runtime/errors.h"
#include "runtime/parallel.h"

#include <algorithm>
#include <exception>
#include <sstream>
#include <tuple>
#include <utility>

namespace histlab {

std::vector<std::pair<std::uint64_t, std::uint64_t>>
splitByWeight(std::uint64_t length, const std::vector<double>& weights, std::uint64_t unit) {
    double total = 0;
    std::size_t last = 0;
    for (std::size_t i = 0; i < weights.size(); ++i)
        if (weights[i] > 0) {
            total += weights[i];
            last = i;
        }
    std::vector<std::pair<std::uint64_t, std::uint64_t>> pieces(weights.size(), {0, 0});
    std::uint64_t at = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        if (weights[i] <= 0)
            continue;
        std::uint64_t len = length - at;
        if (i != last) {
            len = std::uint64_t(double(length) * weights[i] / total) / unit * unit;
            len = std::min(len, length - at);
        }
        pieces[i] = {at, len};
        at += len;
    }
    return pieces;
}

std::string splitSharesText(const SplitTiming& run, std::uint64_t length, const std::string& unit,
                            double unitBytes) {
    std::ostringstream out;
    const double gb = double(length) * unitBytes / 1e9;
    using A = TextTable::Align;
    TextTable t({{"device", A::Right},
                 {"name", A::Left},
                 {"alone ms", A::Right},
                 {"alone GB/s", A::Right},
                 {"kernels ms", A::Right},
                 {"piece " + unit, A::Right},
                 {"share", A::Right},
                 {"piece ms", A::Right},
                 {"kernels piece", A::Right},
                 {"kernels ms", A::Right},
                 {"status", A::Left},
                 {"detail", A::Left}});
    // A share that ran is as the split's verification says (timed where nothing was verified).
    const Status ran = !run.verified   ? Status::Timed
                       : *run.verified ? Status::Verified
                                       : Status::Mismatch;
    for (std::size_t k = 0; k < run.shares.size(); ++k) {
        const SplitShare& s = run.shares[k];
        const bool alone = s.aloneMs > 0;
        const Status status = s.failure.empty() ? ran : Status::Failed;
        const std::string detail =
            s.failure + (!s.failure.empty() && s.redoneBy >= 0
                             ? "; its piece counted by device " + std::to_string(s.redoneBy)
                             : std::string());
        t.add({std::to_string(k), s.device.name, alone ? fixedText(s.aloneMs, 3) : "-",
               alone ? fixedText(gb / (s.aloneMs / 1000.0), 1) : "-",
               alone ? fixedText(s.aloneKernelMs, 3) : "-", std::to_string(s.length),
               fixedText(100.0 * double(s.length) / double(length), 1) + " %",
               fixedText(s.pieceMs, 3), std::to_string(s.kernelLength),
               fixedText(s.pieceKernelMs, 3), statusName(status), detail});
    }
    out << t.text();
    out << "end to end (pinned host memory -> counts on the host): split "
        << fixedText(run.wall.medianMs, 3) << " ms (" << fixedText(run.wall.minMs, 3) << " .. "
        << fixedText(run.wall.maxMs, 3) << "), " << fixedText(gb / (run.wall.medianMs / 1000.0), 1)
        << " GB/s, " << fixedText(run.speedup, 2) << "x the fastest device alone\n";
    out << "kernels only (each piece already on its device): slowest device "
        << fixedText(run.kernelWall.medianMs, 3) << " ms (" << fixedText(run.kernelWall.minMs, 3)
        << " .. " << fixedText(run.kernelWall.maxMs, 3) << "), " << fixedText(run.kernelSpeedup, 2)
        << "x the fastest device alone\n";
    return out.str();
}

std::string splitVerifiedLine(const SplitTiming& run, const std::string& how) {
    if (!run.verified)
        return {};
    return *run.verified
               ? "verified: every device alone and the split equal the CPU reference, " + how + "\n"
               : "MISMATCH: " + run.verifyDetail + "\n";
}

void addSplitJson(Json& j, const SplitTiming& run, const std::string& unit) {
    Json shares = Json::array();
    for (const SplitShare& s : run.shares)
        shares.push_back({{"device", deviceJson(s.device)},
                          {"config", s.config},
                          {"alone_ms", s.aloneMs},
                          {"alone_kernel_ms", s.aloneKernelMs},
                          {"offset", s.offset},
                          {unit, s.length},
                          {"piece_ms", s.pieceMs},
                          {"kernel_offset", s.kernelOffset},
                          {"kernel_" + unit, s.kernelLength},
                          {"piece_kernel_ms", s.pieceKernelMs},
                          {"failure", s.failure},
                          {"redone_by", s.redoneBy}});
    j["shares"] = shares;
    j["wall"] = timingJson(run.wall);
    j["speedup"] = run.speedup;
    j["kernel_wall"] = timingJson(run.kernelWall);
    j["kernel_speedup"] = run.kernelSpeedup;
    j["verified"] = run.verified ? Json(*run.verified) : Json();
    j["verify_detail"] = run.verifyDetail;
}

namespace {

void addCounts(std::vector<std::uint64_t>& sum, const std::vector<std::uint64_t>& counts) {
    if (sum.empty())
        sum.assign(counts.size(), 0);
    for (std::size_t i = 0; i < sum.size() && i < counts.size(); ++i)
        sum[i] += counts[i];
}

/// One split: the devices' counters, the shares and which devices are left (the scheduler).
class SplitRun {
public:
    SplitRun(const std::vector<Device*>& devices, const SplitInput& input, int repeats,
             const DeviceFault& fault, const CancelToken& cancel)
        : m_input(input)
        , m_repeats(repeats)
        , m_cancel(cancel)
        , m_scheduler(devices, fault)
        , m_counters(devices.size()) {}

    SplitTiming run;

    /// Each device alone on the whole input: its counter, its counts checked, its timings. A
    /// device that cannot is left out, and the report says why.
    void alone() {
        for (std::size_t k = 0; k < m_scheduler.size(); ++k) {
            SplitShare share;
            share.device = m_scheduler.device(k).info();
            share.index = int(k);
            try {
                aloneOn(k, share);
            } catch (const CancelledError&) {
                throw;
            } catch (const UsageError&) {
                throw;
            } catch (const std::exception&) { // DeviceError, cl::Error, bad_alloc
                m_scheduler.fail(k, deviceFailureText(std::current_exception()));
                share.failure = m_scheduler.failure(k);
            }
            run.shares.push_back(share);
        }
        if (fastest() < 0)
            throw DeviceError("no device could count the input: " + run.shares.front().failure);
        place();
    }

    /// Every device left at once on its piece: {the wall, each device's milliseconds}. A device
    /// that fails leaves its piece to the fastest one left, and the next pass splits over the
    /// devices left. The sum of the counts goes to `counts` when given.
    std::pair<double, std::vector<double>> together(std::vector<std::uint64_t>* counts) {
        const std::size_t pass = m_pass++, n = m_scheduler.size();
        std::vector<std::vector<std::uint64_t>> got(n);
        std::vector<double> ms(n, 0.0);
        std::vector<std::size_t> lost;
        const double wall = wallClockMs([&] {
            lost = m_scheduler.runEach([&](std::size_t k) {
                m_scheduler.injectFault(k, pass);
                ms[k] = wallClockMs([&] { got[k] = streamed(k, k); });
            });
        });
        m_cancel.throwIfCancelled();
        std::vector<std::uint64_t> sum;
        for (std::size_t k = 0; k < n; ++k)
            if (!got[k].empty())
                addCounts(sum, got[k]);
        // Every device that failed is marked (by the scheduler) before any piece is handed on,
        // so that none of them is handed one.
        for (std::size_t k : lost)
            run.shares[k].failure = m_scheduler.failure(k);
        for (std::size_t k : lost) {
            run.shares[k].redoneBy =
                int(m_scheduler.handOn([&](std::size_t by) { addCounts(sum, streamed(by, k)); },
                                       [this] { return fastest(); }, run.shares[k].failure));
            keepFailures();
        }
        if (!lost.empty())
            place(); // the next pass without the devices that failed
        if (counts)
            *counts = std::move(sum);
        return {wall, ms};
    }

    /// Each device's kernels on its piece already on the device, every device at once: each
    /// device's milliseconds. A device failing here ends the run with its error: kernels only
    /// has no piece to hand on.
    std::vector<double> kernelsTogether() {
        std::vector<double> ms(m_scheduler.size(), 0.0);
        runTasks(m_scheduler.size(), [&](std::size_t k) {
            const SplitShare& s = run.shares[k];
            if (!m_scheduler.failed(k) && s.kernelLength > 0)
                ms[k] = m_counters[k]->kernels(s.kernelOffset, s.kernelLength);
        });
        return ms;
    }

    /// The pieces' medians, and the split against the fastest device alone.
    void speedups(const std::vector<std::vector<double>>& pieceMs,
                  const std::vector<std::vector<double>>& pieceKernelMs) {
        double aloneBest = 0, kernelBest = 0;
        for (std::size_t k = 0; k < m_scheduler.size(); ++k) {
            if (m_scheduler.failed(k))
                continue;
            SplitShare& s = run.shares[k];
            s.pieceMs = summarize(pieceMs[k]).medianMs;
            s.pieceKernelMs = summarize(pieceKernelMs[k]).medianMs;
            if (aloneBest == 0 || s.aloneMs < aloneBest)
                aloneBest = s.aloneMs;
            if (kernelBest == 0 || s.aloneKernelMs < kernelBest)
                kernelBest = s.aloneKernelMs;
        }
        run.speedup = run.wall.medianMs > 0 ? aloneBest / run.wall.medianMs : 0;
        run.kernelSpeedup = run.kernelWall.medianMs > 0 ? kernelBest / run.kernelWall.medianMs : 0;
    }

    /// Checks `counts` against the reference, unless a mismatch was already found.
    void check(const std::string& what, const std::vector<std::uint64_t>& counts) {
        if (run.verified == false)
            return;
        run.verifyDetail = m_input.check(what, counts);
        run.verified = run.verifyDetail.empty();
    }

    std::size_t size() const { return m_scheduler.size(); }

private:
    void aloneOn(std::size_t k, SplitShare& share) {
        const std::uint64_t length = m_input.length;
        m_counters[k] = m_input.counter(m_scheduler.device(k), k);
        SplitCounter& c = *m_counters[k];
        share.config = c.config();
        // Alone: the whole input end to end, then its kernels on the resident copy.
        check("device " + std::to_string(k) + " alone", c.streamed(0, length, m_cancel));
        share.aloneMs =
            timeRepeated(
                m_repeats, [&] { return wallClockMs([&] { c.streamed(0, length, m_cancel); }); },
                m_cancel)
                .medianMs;
        share.aloneKernelMs = timeRepeated(
                                  m_repeats, [&] { return c.kernels(0, length); }, m_cancel)
                                  .medianMs;
    }

    /// Device `by` counts device `k`'s piece, end to end.
    std::vector<std::uint64_t> streamed(std::size_t by, std::size_t k) {
        return m_counters[by]->streamed(run.shares[k].offset, run.shares[k].length, m_cancel);
    }

    /// The fastest device left alone (its position), -1 when none is left.
    int fastest() const {
        int best = -1;
        for (std::size_t k = 0; k < m_scheduler.size(); ++k)
            if (!m_scheduler.failed(k) &&
                (best < 0 || run.shares[k].aloneMs < run.shares[std::size_t(best)].aloneMs))
                best = int(k);
        return best;
    }

    std::vector<double> healthyWeights(bool kernelsOnly) const {
        std::vector<double> weights(m_scheduler.size(), 0.0);
        for (std::size_t k = 0; k < m_scheduler.size(); ++k) {
            const double ms = kernelsOnly ? run.shares[k].aloneKernelMs : run.shares[k].aloneMs;
            if (!m_scheduler.failed(k) && ms > 0)
                weights[k] = 1.0 / ms;
        }
        return weights;
    }

    /// The pieces, in proportion to the devices' speeds alone, over the devices left.
    void place() {
        const auto pieces = splitByWeight(m_input.length, healthyWeights(false), m_input.unit);
        const auto kernelPieces = splitByWeight(m_input.length, healthyWeights(true), m_input.unit);
        for (std::size_t k = 0; k < m_scheduler.size(); ++k) {
            std::tie(run.shares[k].offset, run.shares[k].length) = pieces[k];
            std::tie(run.shares[k].kernelOffset, run.shares[k].kernelLength) = kernelPieces[k];
        }
    }

    /// The report's failures from the scheduler's (a device that failed while counting
    /// another's piece).
    void keepFailures() {
        for (std::size_t k = 0; k < m_scheduler.size(); ++k)
            if (m_scheduler.failed(k))
                run.shares[k].failure = m_scheduler.failure(k);
    }

    const SplitInput& m_input;
    int m_repeats;
    const CancelToken& m_cancel;
    DeviceScheduler m_scheduler;
    std::vector<std::unique_ptr<SplitCounter>> m_counters;
    std::size_t m_pass = 0;
};

} // namespace

SplitTiming runSplit(const std::vector<Device*>& devices, const SplitInput& input, int repeats,
                     const DeviceFault& fault, const CancelToken& cancel) {
    SplitRun split(devices, input, repeats, fault, cancel);
    split.alone();
    split.together(&split.run.counts);
    split.check("split", split.run.counts);

    const std::size_t n = split.size();
    std::vector<std::vector<double>> pieceMs(n), pieceKernelMs(n);
    split.run.wall = timeRepeated(
        repeats,
        [&] {
            const auto [wall, ms] = split.together(nullptr);
            for (std::size_t k = 0; k < n; ++k)
                pieceMs[k].push_back(ms[k]);
            return wall;
        },
        cancel);
    split.run.kernelWall = timeRepeated(
        repeats,
        [&] {
            const std::vector<double> ms = split.kernelsTogether();
            for (std::size_t k = 0; k < n; ++k)
                pieceKernelMs[k].push_back(ms[k]);
            return *std::max_element(ms.begin(), ms.end());
        },
        cancel);
    split.speedups(pieceMs, pieceKernelMs);
    return split.run;
}

} // namespace histlab
