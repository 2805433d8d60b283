// Benchmark: HistLab's histogram on the CPU OpenCL device against OpenCV's cv::calcHist, on the
// same buffers, timed in turns (the target: PoCL at least 2 x cv::calcHist). Prints CSV on
// stdout: distribution, what, bytes, median_ms, min_ms, max_ms, runs, GB/s (input bytes / median
// seconds), and for HistLab its ratio to calcHist (medians of the same rounds) with the rounds'
// lowest and highest.
//   histlab-bench-calchist [--size MIB] [--repeat N] [--device SEL] [--variant V] [--csv FILE]
#include "image/image.h"
#include "pipelines/histogram256/histogram256.h"
#include "report/report.h"
#include "runtime/device.h"
#include "runtime/runner.h"
#include "runtime/timing.h"

#include <algorithm>
#include <any>
#include <array>
#include <cstring>

#include <CLI/CLI.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <iostream>
#include <sstream>
#include <thread>

using namespace histlab;

namespace {

// The machine's own ceiling for this algorithm: plain C++, 4 sub-histograms per thread, one
// contiguous run per thread, as many threads as cores. Not HistLab's code path; a yardstick.
void hostHistogram(const std::uint8_t* data, std::size_t bytes, unsigned threads,
                   std::vector<std::uint64_t>& out) {
    std::vector<std::array<std::uint32_t, 1024>> partial(threads);
    std::vector<std::thread> pool;
    const std::size_t words = bytes / 4, per = (words + threads - 1) / threads;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            auto& h = partial[t];
            h.fill(0);
            const std::size_t b = std::min(words, t * per), e = std::min(words, b + per);
            for (std::size_t i = b; i < e; ++i) {
                std::uint32_t w;
                std::memcpy(&w, data + 4 * i, 4);
                ++h[w & 0xFF];
                ++h[256 + ((w >> 8) & 0xFF)];
                ++h[512 + ((w >> 16) & 0xFF)];
                ++h[768 + (w >> 24)];
            }
        });
    for (auto& th : pool)
        th.join();
    out.assign(256, 0);
    for (auto& h : partial)
        for (int b = 0; b < 1024; ++b)
            out[b % 256] += h[b];
    for (std::size_t i = words * 4; i < bytes; ++i)
        ++out[data[i]];
}

/// The samples of `all` from `first` on, `n` of them (the partner's runs of one timed call).
std::vector<double> slice(const std::vector<double>& all, std::size_t first, std::size_t n) {
    return {all.begin() + std::ptrdiff_t(std::min(first, all.size())),
            all.begin() + std::ptrdiff_t(std::min(first + n, all.size()))};
}

void addRow(std::ostringstream& rows, const std::string& dist, const std::string& what,
            std::size_t bytes, const TimingStats& t, const std::string& ratios = ",,") {
    rows << dist << ',' << what << ',' << bytes << ',' << t.medianMs << ',' << t.minMs << ','
         << t.maxMs << ',' << t.samplesMs.size() << ',' << gbPerSecond(bytes, t.medianMs) << ','
         << ratios << '\n';
}

} // namespace

int main(int argc, char** argv) {
    double mib = 256;
    int repeats = 7;
    std::string device, csv, variant = "auto";
    CLI::App app{"HistLab's 256-bin histogram on an OpenCL device against cv::calcHist, same "
                 "buffers, timed in turns (round for round); CSV on stdout"};
    app.add_option("--size", mib, "MiB of input per distribution (default 256)")
        ->check(CLI::Range(0.0625, 4095.0));
    app.add_option("--repeat", repeats, "timed rounds after a warm-up (default 7)")
        ->check(CLI::Range(1, 1000));
    app.add_option("--device", device, "an OpenCL device selector (default: the first)");
    app.add_option("--variant", variant, "the 256-bin variant (default auto)");
    app.add_option("--csv", csv, "also write the CSV to this file");
    CLI11_PARSE(app, argc, argv);
    const std::size_t bytes = std::size_t(mib * 1048576.0) / 4096 * 4096;
    std::ostringstream rows;
    rows << "distribution,what,bytes,median_ms,min_ms,max_ms,runs,gbps,ratio_to_calchist,"
            "ratio_min,ratio_max\n";
    JobRunner runner;
    std::string deviceLine;
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    for (SyntheticKind kind :
         {SyntheticKind::Random, SyntheticKind::Uniform, SyntheticKind::Skewed}) {
        const HostImage img = makeSynthetic(kind, bytes);
        const std::string dist = syntheticKindName(kind);
        // OpenCV: a 4096-wide 8-bit image of the same bytes, 256 bins over [0, 256).
        const cv::Mat mat(int(bytes / 4096), 4096, CV_8UC1,
                          const_cast<std::uint8_t*>(img.data.data()));
        const int channels[] = {0}, histSize[] = {256};
        const float range[] = {0, 256};
        const float* ranges[] = {range};
        cv::Mat hist;
        std::vector<std::uint64_t> hostCounts;
        const auto calcHist = [&] {
            cv::calcHist(&mat, 1, channels, cv::Mat(), hist, 1, histSize, ranges);
        };
        const auto yardstick = [&] { hostHistogram(img.data.data(), bytes, threads, hostCounts); };
        calcHist(); // warm-ups: their first runs fault pages in
        yardstick();
        // Round for round: after each timed HistLab launch, calcHist once and the C++
        // yardstick once (TimingPartner), so that a busy moment slows all three alike.
        std::vector<double> cvMs, hostMs;
        HistogramRequest req;
        req.variant = parseVariant(variant);
        HistogramRunOptions opt;
        opt.channel = ChannelSelection::Gray;
        opt.repeats = repeats;
        opt.verify = true;
        std::vector<double> cvRounds, hostRounds;
        auto outcome = runner.runAndWait([&](JobContext& ctx) -> std::any {
            Device& dev = ctx.devices().select(device);
            const TimingPartner partner([&] {
                cvMs.push_back(wallClockMs(calcHist));
                hostMs.push_back(wallClockMs(yardstick));
            });
            HistogramRun run = runHistogram(dev, img, req, opt, ctx.cancelToken());
            if (const TimingPartner::Call* call =
                    partner.callOf(run.passes.front().stats.samplesMs)) {
                cvRounds = slice(cvMs, call->firstPartnerRun, call->workMs.size());
                hostRounds = slice(hostMs, call->firstPartnerRun, call->workMs.size());
            }
            return run;
        });
        if (auto* e = std::get_if<JobError>(&outcome)) {
            std::cerr << "histlab: " << e->message << '\n';
            return 4;
        }
        const auto& run = std::any_cast<const HistogramRun&>(std::get<std::any>(outcome));
        if (!run.verified || !*run.verified) {
            std::cerr << "histlab: verification failed: " << run.verifyDetail << '\n';
            return 1;
        }
        const auto& p = run.passes.front();
        if (cvRounds.size() != p.stats.samplesMs.size()) {
            std::cerr << "histlab: the timed launches were not followed by calcHist rounds\n";
            return 1;
        }
        // calcHist counts in float: exact only below 2^24. HistLab is checked bit-exactly against
        // the core's CPU reference (verify) in any case.
        for (int b = 0; b < 256; ++b)
            if (run.histograms[0].counts[b] < (1u << 24) &&
                std::uint64_t(hist.at<float>(b)) != run.histograms[0].counts[b]) {
                std::cerr << "calcHist and HistLab disagree at bin " << b << '\n';
                return 1;
            }
        deviceLine =
            run.device.name + " | " + run.device.platformName + " | " + run.device.driverVersion;
        for (int b = 0; b < 256; ++b)
            if (hostCounts[b] != run.histograms[0].counts[b]) {
                std::cerr << "the C++ yardstick disagrees at bin " << b << '\n';
                return 1;
            }
        const TimingStats cvStats = summarize(cvRounds);
        // Each round's ratio: calcHist's time over HistLab's launch right before it.
        std::vector<double> ratios;
        for (std::size_t i = 0; i < cvRounds.size(); ++i)
            ratios.push_back(cvRounds[i] / p.stats.samplesMs[i]);
        const TimingStats r = summarize(ratios);
        std::ostringstream ratioCells;
        ratioCells << cvStats.medianMs / p.stats.medianMs << ',' << r.minMs << ',' << r.maxMs;
        addRow(rows, dist, "cv::calcHist", bytes, cvStats);
        addRow(rows, dist, "histlab " + run.config.describe(), bytes, p.stats, ratioCells.str());
        addRow(rows, dist, "read-only ceiling", run.ceiling.bytes, run.ceiling.stats);
        addRow(rows, dist, "plain C++ 4 copies " + std::to_string(threads) + " threads (yardstick)",
               bytes, summarize(hostRounds));
    }
    const std::string text =
        "# device: " + deviceLine + "\n# date: " + utcTimestamp() +
        "\n# verified: HistLab bit-exact vs CPU reference and the C++ yardstick; equal to "
        "calcHist in every bin < 2^24\n# timed round for round: each HistLab launch, then "
        "calcHist, then the yardstick; ratio_to_calchist = calcHist's median / HistLab's, "
        "ratio_min/max over the rounds\n" +
        rows.str();
    std::cout << text;
    if (!csv.empty())
        writeFileAtomically(csv, text);
    return 0;
}
