#include "pipelines/devicesplit.h"

#include "report/text.h"
#include "runtime/errors.h"

#include <algorithm>
#include <exception>
#include <sstream>
#include <thread>
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
                 {"status", A::Left}});
    for (std::size_t k = 0; k < run.shares.size(); ++k) {
        const SplitShare& s = run.shares[k];
        const bool alone = s.aloneMs > 0;
        std::string status = "ok";
        if (!s.failure.empty())
            status =
                "failed: " + s.failure +
                (s.redoneBy >= 0 ? "; its piece counted by device " + std::to_string(s.redoneBy)
                                 : std::string());
        t.add({std::to_string(k), s.device.name, alone ? fixedText(s.aloneMs, 3) : "-",
               alone ? fixedText(gb / (s.aloneMs / 1000.0), 1) : "-",
               alone ? fixedText(s.aloneKernelMs, 3) : "-", std::to_string(s.length),
               fixedText(100.0 * double(s.length) / double(length), 1) + " %",
               fixedText(s.pieceMs, 3), std::to_string(s.kernelLength),
               fixedText(s.pieceKernelMs, 3), status});
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

std::string clFailure(const cl::Error& e) {
    return std::string(e.what()) + " (" + clErrorName(e.err()) + ")";
}

} // namespace

SplitTiming runSplit(const std::vector<Device*>& devices, const SplitInput& input, int repeats,
                     const DeviceFault& fault, const CancelToken& cancel) {
    SplitTiming run;
    auto check = [&](const std::string& what, const std::vector<std::uint64_t>& counts) {
        if (run.verified == false)
            return;
        run.verifyDetail = input.check(what, counts);
        run.verified = run.verifyDetail.empty();
    };
    const std::uint64_t length = input.length;

    std::vector<std::unique_ptr<SplitCounter>> counters(devices.size());
    std::vector<bool> failed(devices.size(), false);
    for (std::size_t k = 0; k < devices.size(); ++k) {
        SplitShare share;
        share.device = devices[k]->info();
        share.index = int(k);
        try {
            counters[k] = input.counter(*devices[k], k);
            SplitCounter& c = *counters[k];
            share.config = c.config();
            // Alone: the whole input end to end, then its kernels on the resident copy.
            check("device " + std::to_string(k) + " alone", c.streamed(0, length, cancel));
            share.aloneMs =
                timeRepeated(
                    repeats, [&] { return wallClockMs([&] { c.streamed(0, length, cancel); }); },
                    cancel)
                    .medianMs;
            share.aloneKernelMs = timeRepeated(
                                      repeats, [&] { return c.kernels(0, length); }, cancel)
                                      .medianMs;
        } catch (const CancelledError&) {
            throw;
        } catch (const UsageError&) {
            throw;
        } catch (const cl::Error& e) {
            failed[k] = true;
            share.failure = clFailure(e);
        } catch (const std::exception& e) { // DeviceError, bad_alloc: this device is left out
            failed[k] = true;
            share.failure = e.what();
        }
        run.shares.push_back(share);
    }

    auto healthyWeights = [&](bool kernelsOnly) {
        std::vector<double> weights(devices.size(), 0.0);
        for (std::size_t k = 0; k < devices.size(); ++k) {
            const double ms = kernelsOnly ? run.shares[k].aloneKernelMs : run.shares[k].aloneMs;
            if (!failed[k] && ms > 0)
                weights[k] = 1.0 / ms;
        }
        return weights;
    };
    auto fastest = [&] {
        int best = -1;
        for (std::size_t k = 0; k < devices.size(); ++k)
            if (!failed[k] &&
                (best < 0 || run.shares[k].aloneMs < run.shares[std::size_t(best)].aloneMs))
                best = int(k);
        return best;
    };
    if (fastest() < 0)
        throw DeviceError("no device could count the input: " + run.shares.front().failure);
    auto place = [&] {
        const auto pieces = splitByWeight(length, healthyWeights(false), input.unit);
        const auto kernelPieces = splitByWeight(length, healthyWeights(true), input.unit);
        for (std::size_t k = 0; k < devices.size(); ++k) {
            std::tie(run.shares[k].offset, run.shares[k].length) = pieces[k];
            std::tie(run.shares[k].kernelOffset, run.shares[k].kernelLength) = kernelPieces[k];
        }
    };
    place();

    // Every device at once on its piece; a device that fails leaves its piece to the fastest
    // one left, and the next pass splits over the devices left.
    std::size_t pass = 0;
    auto together = [&](std::vector<std::uint64_t>* counts) {
        const std::size_t thisPass = pass++;
        std::vector<std::vector<std::uint64_t>> got(devices.size());
        std::vector<double> ms(devices.size(), 0.0);
        std::vector<std::string> failures(devices.size());
        std::vector<std::thread> threads;
        const double wall = wallClockMs([&] {
            for (std::size_t k = 0; k < devices.size(); ++k) {
                if (failed[k])
                    continue;
                threads.emplace_back([&, k] {
                    try {
                        if (int(k) == fault.device && thisPass == fault.after)
                            throw DeviceError(
                                "failed on purpose (HISTLAB_DEVICE_FAIL=" + std::to_string(k) +
                                ":" + std::to_string(thisPass) + ")");
                        ms[k] = wallClockMs([&] {
                            got[k] = counters[k]->streamed(run.shares[k].offset,
                                                           run.shares[k].length, cancel);
                        });
                    } catch (const cl::Error& e) {
                        failures[k] = clFailure(e);
                    } catch (const std::exception& e) {
                        failures[k] = e.what();
                    }
                });
            }
            for (std::thread& t : threads)
                t.join();
        });
        cancel.throwIfCancelled();
        std::vector<std::uint64_t> sum;
        for (std::size_t k = 0; k < devices.size(); ++k)
            if (!got[k].empty())
                addCounts(sum, got[k]);
        // Every device that failed is marked first, so that none of them is handed a piece.
        bool anyFailed = false;
        for (std::size_t k = 0; k < devices.size(); ++k)
            if (!failures[k].empty()) {
                anyFailed = true;
                failed[k] = true;
                run.shares[k].failure = failures[k];
            }
        for (std::size_t k = 0; k < devices.size(); ++k) {
            if (failures[k].empty())
                continue;
            // The fastest device left counts the piece; one that fails at it is left out too.
            for (;;) {
                const int by = fastest();
                if (by < 0)
                    throw DeviceError("every device failed: " + failures[k]);
                try {
                    addCounts(sum, counters[std::size_t(by)]->streamed(
                                       run.shares[k].offset, run.shares[k].length, cancel));
                    run.shares[k].redoneBy = by;
                    break;
                } catch (const CancelledError&) {
                    throw;
                } catch (const cl::Error& e) {
                    failed[std::size_t(by)] = true;
                    run.shares[std::size_t(by)].failure = clFailure(e);
                } catch (const std::exception& e) {
                    failed[std::size_t(by)] = true;
                    run.shares[std::size_t(by)].failure = e.what();
                }
            }
        }
        if (anyFailed)
            place(); // the next pass without the devices that failed
        if (counts)
            *counts = std::move(sum);
        return std::make_pair(wall, ms);
    };
    together(&run.counts);
    check("split", run.counts);

    std::vector<std::vector<double>> pieceMs(devices.size()), pieceKernelMs(devices.size());
    run.wall = timeRepeated(
        repeats,
        [&] {
            const auto [wall, ms] = together(nullptr);
            for (std::size_t k = 0; k < devices.size(); ++k)
                pieceMs[k].push_back(ms[k]);
            return wall;
        },
        cancel);
    run.kernelWall = timeRepeated(
        repeats,
        [&] {
            std::vector<double> ms(devices.size(), 0.0);
            std::vector<std::exception_ptr> errors(devices.size());
            std::vector<std::thread> threads;
            for (std::size_t k = 0; k < devices.size(); ++k)
                if (!failed[k] && run.shares[k].kernelLength > 0)
                    threads.emplace_back([&, k] {
                        try {
                            ms[k] = counters[k]->kernels(run.shares[k].kernelOffset,
                                                         run.shares[k].kernelLength);
                        } catch (...) {
                            errors[k] = std::current_exception();
                        }
                    });
            for (std::thread& t : threads)
                t.join();
            // Kernels only has no piece to hand on: a device failing here ends the run with
            // its error, on this thread.
            for (const std::exception_ptr& e : errors)
                if (e)
                    std::rethrow_exception(e);
            for (std::size_t k = 0; k < devices.size(); ++k)
                pieceKernelMs[k].push_back(ms[k]);
            return *std::max_element(ms.begin(), ms.end());
        },
        cancel);
    double aloneBest = 0, kernelBest = 0;
    for (std::size_t k = 0; k < devices.size(); ++k) {
        if (failed[k])
            continue;
        run.shares[k].pieceMs = summarize(pieceMs[k]).medianMs;
        run.shares[k].pieceKernelMs = summarize(pieceKernelMs[k]).medianMs;
        if (aloneBest == 0 || run.shares[k].aloneMs < aloneBest)
            aloneBest = run.shares[k].aloneMs;
        if (kernelBest == 0 || run.shares[k].aloneKernelMs < kernelBest)
            kernelBest = run.shares[k].aloneKernelMs;
    }
    run.speedup = run.wall.medianMs > 0 ? aloneBest / run.wall.medianMs : 0;
    run.kernelSpeedup = run.kernelWall.medianMs > 0 ? kernelBest / run.kernelWall.medianMs : 0;
    return run;
}

} // namespace histlab
