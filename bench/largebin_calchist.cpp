// Benchmark: HistLab's large-bin histogram on the CPU OpenCL device against OpenCV's
// cv::calcHist on the same 16-bit buffer in the same run (the target: PoCL at least 2 x
// cv::calcHist with 65,536 bins), and the 256 x 256 joint histogram of two 8-bit planes (as many
// pairs as there are 16-bit samples) against calcHist of the two images (target: 2 x). Prints CSV
// on stdout: data, bins, what, samples, median_ms, min_ms, gsamples_per_s, gbps (input bytes /
// median seconds); HistLab's counts are verified against the CPU reference, and calcHist's must
// equal them (below 2^24: it counts in float).
//   histlab-bench-largebin-calchist [--size MIB] [--repeat N] [--device SEL] [--csv FILE]
#include "pipelines/largebin/joint.h"
#include "pipelines/largebin/largebin.h"
#include "report/report.h"
#include "runtime/device.h"
#include "runtime/runner.h"
#include "runtime/timing.h"

#include <CLI/CLI.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <iostream>
#include <sstream>

using namespace histlab;

int main(int argc, char** argv) {
    double mib = 64;
    int repeats = 7;
    std::string device, csv;
    CLI::App app{"HistLab's large-bin and joint histograms on an OpenCL device against "
                 "cv::calcHist, same buffers, same run; CSV on stdout"};
    app.add_option("--size", mib, "MiB of 16-bit samples per distribution (default 64)")
        ->check(CLI::Range(0.0625, 4095.0));
    app.add_option("--repeat", repeats, "timed runs after a warm-up (default 7)")
        ->check(CLI::Range(1, 1000));
    app.add_option("--device", device, "an OpenCL device selector (default: the first)");
    app.add_option("--csv", csv, "also write the CSV to this file");
    CLI11_PARSE(app, argc, argv);
    const std::size_t samples = std::size_t(mib * 1048576.0) / 2 / 4096 * 4096;
    std::ostringstream rows;
    rows << "data,bins,what,samples,median_ms,min_ms,gsamples_per_s,gbps\n";
    // Every row counts `samples` 16-bit samples, or as many pairs of 8-bit ones (the same bytes).
    auto row = [&](const std::string& data, const std::string& bins, const std::string& what,
                   const TimingStats& t) {
        rows << data << ',' << bins << ',' << what << ',' << samples << ',' << t.medianMs << ','
             << t.minMs << ',' << double(samples) / (t.medianMs * 1e6) << ','
             << gbPerSecond(samples * 2, t.medianMs) << '\n';
    };
    JobRunner runner;
    std::string deviceLine;
    for (LargeBinData data : {LargeBinData::Random, LargeBinData::Skewed, LargeBinData::Smooth}) {
        const SamplePlane plane = makeLargeBinData(data, SampleType::U16, samples);
        const cv::Mat mat(int(samples / 4096), 4096, CV_16UC1,
                          const_cast<std::uint8_t*>(plane.bytes.data()));
        for (int bins : {256, 4096, 65536}) {
            // calcHist: uniform bins over [0, 65536) (its upper edge is open; no sample is 65536).
            const int channels[] = {0}, histSize[] = {bins};
            const float range[] = {0, 65536};
            const float* ranges[] = {range};
            cv::Mat hist;
            std::vector<double> cvMs;
            for (int r = 0; r <= repeats; ++r) {
                const double ms = wallClockMs(
                    [&] { cv::calcHist(&mat, 1, channels, cv::Mat(), hist, 1, histSize, ranges); });
                if (r > 0)
                    cvMs.push_back(ms);
            }
            const BinSpec spec = makeBinSpec(plane, bins, std::nullopt);
            const LargeHistogram ref = largeHistogramReference(plane, spec);
            // calcHist counts in float: exact only below 2^24.
            for (int b = 0; b < bins; ++b)
                if (ref.counts[std::size_t(b)] < (1u << 24) &&
                    std::uint64_t(hist.at<float>(b)) != ref.counts[std::size_t(b)]) {
                    std::cerr << "calcHist and the reference disagree at bin " << b << '\n';
                    return 1;
                }
            auto outcome = runner.runAndWait([&](JobContext& ctx) -> std::any {
                Device& dev = ctx.devices().select(device);
                const cl::Buffer buffer = uploadPlane(dev, plane);
                deviceLine = dev.info().name + " | " + dev.info().platformName + " | " +
                             dev.info().driverVersion;
                return runLargeBinPoint(dev, buffer, samples, spec, ref, LargeBinMethod::Auto,
                                        repeats, ctx.cancelToken());
            });
            if (auto* e = std::get_if<JobError>(&outcome)) {
                std::cerr << "histlab: " << e->message << '\n';
                return 4;
            }
            const auto& p = std::any_cast<const LargeBinPoint&>(std::get<std::any>(outcome));
            if (p.status != Status::Verified) {
                std::cerr << "histlab: " << statusName(p.status) << ": " << p.detail << '\n';
                return 1;
            }
            const std::string dataName = largeBinDataName(data);
            row(dataName, std::to_string(bins), "cv::calcHist", summarize(cvMs));
            row(dataName, std::to_string(bins),
                std::string("histlab ") + largeBinMethodName(p.method), p.stats);
            rows << dataName << ',' << bins << ",ratio histlab/calcHist,,,,"
                 << summarize(cvMs).medianMs / p.stats.medianMs << ",\n";
        }
    }
    // Joint 256 x 256 of two 8-bit planes against calcHist with two images (channel 0 of each).
    for (LargeBinData data : {LargeBinData::Random, LargeBinData::Skewed, LargeBinData::Smooth}) {
        const SamplePlane a = makeLargeBinData(data, SampleType::U8, samples, 1);
        const SamplePlane b = makeLargeBinData(data, SampleType::U8, samples, 2);
        const int rows8 = int(samples / 4096);
        const cv::Mat mats[] = {
            cv::Mat(rows8, 4096, CV_8UC1, const_cast<std::uint8_t*>(a.bytes.data())),
            cv::Mat(rows8, 4096, CV_8UC1, const_cast<std::uint8_t*>(b.bytes.data()))};
        const int channels[] = {0, 1}, histSize[] = {256, 256};
        const float range[] = {0, 256};
        const float* ranges[] = {range, range};
        cv::Mat hist;
        std::vector<double> cvMs;
        for (int r = 0; r <= repeats; ++r) {
            const double ms = wallClockMs(
                [&] { cv::calcHist(mats, 2, channels, cv::Mat(), hist, 2, histSize, ranges); });
            if (r > 0)
                cvMs.push_back(ms);
        }
        const JointSpec spec = makeJointSpec(a, b, 256, 256, std::nullopt, std::nullopt);
        const JointHistogram ref = jointHistogramReference(a, b, spec);
        for (int i = 0; i < 256; ++i)
            for (int j = 0; j < 256; ++j) {
                const std::uint64_t c = ref.counts[std::size_t(i) * 256 + std::size_t(j)];
                if (c < (1u << 24) && std::uint64_t(hist.at<float>(i, j)) != c) {
                    std::cerr << "calcHist and the joint reference disagree at cell (" << i << ", "
                              << j << ")\n";
                    return 1;
                }
            }
        auto outcome = runner.runAndWait([&](JobContext& ctx) -> std::any {
            Device& dev = ctx.devices().select(device);
            const cl::Buffer ba = uploadPlane(dev, a), bb = uploadPlane(dev, b);
            return runJointPoint(dev, ba, bb, nullptr, samples, spec, ref, LargeBinMethod::Auto,
                                 repeats, ctx.cancelToken());
        });
        if (auto* e = std::get_if<JobError>(&outcome)) {
            std::cerr << "histlab: " << e->message << '\n';
            return 4;
        }
        const auto& p = std::any_cast<const JointPoint&>(std::get<std::any>(outcome));
        if (p.status != Status::Verified) {
            std::cerr << "histlab joint: " << statusName(p.status) << ": " << p.detail << '\n';
            return 1;
        }
        const std::string dataName = std::string("u8 pairs ") + largeBinDataName(data);
        row(dataName, "256x256", "cv::calcHist (2 images)", summarize(cvMs));
        row(dataName, "256x256", std::string("histlab joint ") + largeBinMethodName(p.method),
            p.stats);
        rows << dataName << ",256x256,ratio histlab/calcHist,,,,"
             << summarize(cvMs).medianMs / p.stats.medianMs << ",\n";
    }
    const std::string text = "# device: " + deviceLine + "\n# date: " + utcTimestamp() +
                             "\n# verified: HistLab bit-exact vs the CPU reference; calcHist "
                             "equal to it in every bin < 2^24\n" +
                             rows.str();
    std::cout << text;
    if (!csv.empty())
        writeFileAtomically(csv, text);
    return 0;
}
