#include "pipelines/largebin/jointrun.h"

#include "report/files.h"
#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <array>
#include <cstring>
#include <memory>
#include <sstream>

namespace histlab {

JointRequest makeJointRequest(const HostImage& first, const HostImage& second,
                              const std::string& channelA, const std::string& channelB,
                              std::pair<int, int> bins, const std::optional<BinRange>& rangeA,
                              const std::optional<BinRange>& rangeB, const HostImage* mask,
                              const std::vector<LargeBinMethod>& methods, int repeats) {
    JointRequest r;
    r.a = imagePlane(first, channelA);
    r.b = imagePlane(second, channelB);
    if (first.width != second.width || first.height != second.height)
        throw InputError(first.source + " (" + std::to_string(first.width) + " x " +
                         std::to_string(first.height) + ") and " + second.source + " (" +
                         std::to_string(second.width) + " x " + std::to_string(second.height) +
                         ") differ in size");
    r.spec = makeJointSpec(r.a, r.b, bins.first, bins.second, rangeA, rangeB);
    if (mask) {
        r.mask = maskBytes(*mask, first.width, first.height, "the images' size");
        r.maskSource = mask->source;
    }
    r.methods = methods;
    r.repeats = repeats;
    return r;
}

JointRun runJoint(Device& device, const JointRequest& r, const CancelToken& cancel,
                  const std::function<void(const JointPoint&)>& onPoint) {
    JointRun run;
    run.device = device.info();
    run.sourceA = r.a.source;
    run.sourceB = r.b.source;
    run.maskSource = r.maskSource;
    run.pairs = r.a.count();
    run.spec = r.spec;
    run.histogram = jointHistogramReference(r.a, r.b, r.spec, r.mask);
    run.mi = mutualInformation(run.histogram);
    const cl::Buffer a = uploadPlane(device, r.a), b = uploadPlane(device, r.b);
    std::optional<cl::Buffer> mask;
    if (!r.mask.empty()) {
        SamplePlane m;
        m.type = SampleType::U8;
        m.bytes = r.mask;
        mask = uploadPlane(device, m);
    }
    if (r.a.bytes.size() >= 16)
        run.ceiling = measureReadCeiling(device, a, r.a.bytes.size(), r.repeats, cancel);
    for (LargeBinMethod m : r.methods) {
        cancel.throwIfCancelled();
        JointPoint p = runJointPoint(device, a, b, mask ? &*mask : nullptr, run.pairs, r.spec,
                                     run.histogram, m, r.repeats, cancel);
        if (run.ceiling.gbps > 0 && statusRan(p.status))
            p.percentOfCeiling = 100.0 * p.gbps / run.ceiling.gbps;
        if (onPoint)
            onPoint(p);
        run.points.push_back(std::move(p));
    }
    cancel.throwIfCancelled();
    // The evaluations count with auto's pick: where a point above already timed auto's
    // candidates on these pairs, its choice stands rather than being timed a second time.
    LargeBinMethod evaluated = LargeBinMethod::Auto;
    std::string tuning;
    for (const JointPoint& p : run.points)
        if (!p.tuning.empty()) {
            evaluated = p.method;
            tuning = p.tuning;
        }
    run.miEvaluation = runMiEvaluation(device, a, b, mask ? &*mask : nullptr, run.pairs, r.spec,
                                       run.mi, evaluated, r.repeats, cancel);
    if (!tuning.empty())
        run.miEvaluation.tuning = tuning;
    std::optional<ColocDevicePass> colocPass; // made on the first pass: not for float samples
    auto onDevice = [&]() -> ColocDevicePass& {
        cancel.throwIfCancelled();
        if (!colocPass)
            colocPass.emplace(device, a, b, mask ? &*mask : nullptr, run.pairs, r.spec);
        return *colocPass;
    };
    colocaliseCounts(run, r,
                     {[&](const ColocPassArgs& args) { return onDevice()(args); },
                      [&](const ColocSteps& steps) { return onDevice().steps(steps); }});
    return run;
}

void colocaliseCounts(JointCounts& counts, const JointRequest& r, const ColocPasses& passes,
                      const std::function<Colocalisation()>& reference) {
    if (!r.colocalise) {
        counts.coloc.why = "not computed (--coloc off)";
        counts.colocStatus = Status::NotApplicable;
        return;
    }
    counts.coloc.why = colocRefusal(r.a.type);
    if (!counts.coloc.why.empty()) {
        counts.colocStatus = Status::Unsupported;
        counts.colocDetail = counts.coloc.why;
        return;
    }
    Colocalisation device;
    try {
        counts.colocDeviceMs =
            wallClockMs([&] { device = colocalise(r.a.type, r.costes, passes); });
    } catch (...) {
        const RowError e = rowErrorOf(std::current_exception()); // rethrows cancellation
        counts.colocStatus = e.status;
        counts.colocDetail = e.detail;
    }
    Colocalisation expected;
    counts.colocReferenceMs = wallClockMs([&] {
        expected =
            reference ? reference() : colocalisationReference(r.a, r.b, r.spec, r.mask, r.costes);
    });
    if (device.computed) {
        counts.colocDetail = firstColocMismatch(expected, device);
        counts.colocStatus = counts.colocDetail.empty() ? Status::Verified : Status::Mismatch;
        counts.coloc = std::move(device);
    } else {
        counts.coloc = std::move(expected); // the device's passes did not run
    }
    // The stepwise table (up to 65,536 slots of 48 bytes) is compared, not reported: a stack
    // keeps a colocalisation per page.
    counts.coloc.steps = {};
    logInfo("joint",
            std::string("colocalisation: ") + statusName(counts.colocStatus) +
                (counts.colocDetail.empty() ? std::string() : " (" + counts.colocDetail + ")"));
}

namespace {

std::string number(double v) {
    std::ostringstream s;
    s.precision(6);
    s << std::fixed << v;
    return std::isnan(v) ? std::string("nan (undefined: a zero denominator)") : s.str();
}

} // namespace

namespace {

/// The inputs' line.
std::string jointInputsLine(const JointCounts& run) {
    std::ostringstream out;
    out << "joint " << run.sourceA << " x " << run.sourceB << ", " << run.pairs << " pairs, "
        << run.spec.a.bins << " x " << run.spec.b.bins << " bins";
    if (!run.maskSource.empty())
        out << ", mask " << run.maskSource;
    return out.str();
}

/// What was counted and its entropies, MI and NMI, a line each.
std::string jointCountsLines(const JointCounts& run) {
    std::ostringstream out;
    out << "counted " << run.histogram.counted() << ", left out " << run.histogram.leftOut
        << " (out of range, NaN or masked)\n";
    out << "H(A) " << number(run.mi.entropyA) << " bits, H(B) " << number(run.mi.entropyB)
        << " bits, H(A,B) " << number(run.mi.jointEntropy) << " bits\n";
    out << "MI " << number(run.mi.mi) << " bits\n";
    out << "NMI (H(A)+H(B))/H(A,B) " << number(run.mi.nmiStudholme) << '\n';
    out << "NMI 2 MI/(H(A)+H(B)) " << number(run.mi.nmiArithmetic) << '\n';
    out << "NMI MI/sqrt(H(A) H(B)) " << number(run.mi.nmiGeometric) << '\n';
    out << colocLines(run);
    return out.str();
}

} // namespace

std::string colocLines(const JointCounts& run) {
    const Colocalisation& c = run.coloc;
    if (!c.computed)
        return "colocalisation: " + c.why + '\n';
    std::ostringstream out;
    out << "Pearson's r " << number(c.pearson) << " (below Costes' thresholds "
        << number(c.pearsonBelow) << ", above " << number(c.pearsonAbove) << ")\n";
    out << "Manders' M1 " << number(c.m1) << ", M2 " << number(c.m2)
        << "; above Costes' thresholds tM1 " << number(c.tm1) << ", tM2 " << number(c.tm2) << '\n';
    if (std::isnan(c.thresholdA))
        out << "Costes' thresholds: none (no regression line: zero covariance)\n";
    else
        out << "Costes' thresholds A " << c.thresholdA << ", B " << c.thresholdB
            << " on the line b = " << number(c.slope) << " a + " << number(c.intercept) << " ("
            << costesSearchName(c.search) << " search: " << c.candidates
            << (c.candidates == 1 ? " candidate, " : " candidates, ") << c.passes
            << " passes over the pairs)\n";
    out << "Li's ICQ " << number(c.icq) << ", pairs above both thresholds ";
    if (std::isnan(c.overlap))
        out << "nan (no thresholds)\n";
    else
        out << std::uint64_t(c.overlap) << '\n';
    out << "colocalisation sums on the device, exact against the CPU reference: "
        << statusText(run.colocStatus, run.colocDetail) << '\n';
    out << "colocalisation passes (wall clock, each read back): device "
        << fixedText(run.colocDeviceMs, 1) << " ms, CPU reference "
        << fixedText(run.colocReferenceMs, 1) << " ms\n";
    return out.str();
}

std::string jointText(const JointRun& run) {
    std::ostringstream out;
    out << jointInputsLine(run) << '\n' << deviceLine(run.device) << '\n';
    out << jointCountsLines(run);
    using A = TextTable::Align;
    TextTable table({{"method", A::Left},
                     {"median ms"},
                     {"GB/s"},
                     {"G pairs/s"},
                     {"% read-only"},
                     {"geometry", A::Left},
                     {"status", A::Left}});
    for (const JointPoint& p : run.points) {
        const bool ran = statusRan(p.status);
        table.add({largeBinMethodName(p.method), ran ? fixedText(p.stats.medianMs, 4) : "-",
                   ran ? fixedText(p.gbps, 2) : "-", ran ? fixedText(p.gpairs, 2) : "-",
                   ran && run.ceiling.gbps > 0 ? fixedText(p.percentOfCeiling, 1) : "-", p.geometry,
                   statusText(p.status, p.detail)});
    }
    out << table.text();
    for (const JointPoint& p : run.points)
        if (!p.tuning.empty())
            out << p.tuning << " -> " << largeBinMethodName(p.method) << '\n';
    const MiEvaluation& e = run.miEvaluation;
    out << "MI evaluations on the device (" << largeBinMethodName(e.method)
        << ", then the entropies; wall clock, each read back): ";
    if (statusRan(e.status))
        out << fixedText(e.perSecond, 0) << " per second (median " << fixedText(e.stats.medianMs, 4)
            << " ms, min " << fixedText(e.stats.minMs, 4) << " ms), ";
    out << statusText(e.status, e.detail) << '\n';
    return out.str();
}

std::string jointCsv(const JointCounts& run) {
    std::vector<std::string> columns{"a_bin"};
    for (int j = 0; j < run.spec.b.bins; ++j) {
        std::string name = "b"; // appended, not "b" + ...: GCC 12 at -O3 warns wrongly
        name += std::to_string(j);
        columns.push_back(std::move(name));
    }
    Table table(columns);
    for (int i = 0; i < run.spec.a.bins; ++i) {
        table.row().add(i);
        for (int j = 0; j < run.spec.b.bins; ++j)
            table.add(run.histogram
                          .counts[std::size_t(i) * std::size_t(run.spec.b.bins) + std::size_t(j)]);
    }
    return table.csv();
}

namespace {

Json nanOrNumber(double v) {
    return std::isnan(v) ? Json(nullptr) : Json(v);
}

/// The inputs, each axis with its marginal, what was counted, the entropies, MI and NMI.
void addJointCounts(Json& j, const JointCounts& run) {
    auto axis = [](const BinSpec& s, const std::string& source,
                   const std::vector<std::uint64_t>& marginal) {
        return Json{{"source", source},
                    {"bins", s.bins},
                    {"lo", s.lo},
                    {"hi", s.hi},
                    {"marginal", marginal}};
    };
    j["pairs"] = run.pairs;
    j["mask"] = run.maskSource;
    j["a"] = axis(run.spec.a, run.sourceA, run.histogram.marginalA());
    j["b"] = axis(run.spec.b, run.sourceB, run.histogram.marginalB());
    j["counted"] = run.histogram.counted();
    j["left_out"] = run.histogram.leftOut;
    j["entropy_a_bits"] = run.mi.entropyA;
    j["entropy_b_bits"] = run.mi.entropyB;
    j["joint_entropy_bits"] = run.mi.jointEntropy;
    j["mi_bits"] = run.mi.mi;
    j["nmi_studholme"] = nanOrNumber(run.mi.nmiStudholme);
    j["nmi_arithmetic"] = nanOrNumber(run.mi.nmiArithmetic);
    j["nmi_geometric"] = nanOrNumber(run.mi.nmiGeometric);
    j["colocalisation"] = colocalisationJson(run.coloc, run.colocStatus, run.colocDetail,
                                             run.colocDeviceMs, run.colocReferenceMs);
}

} // namespace

Json colocalisationJson(const Colocalisation& c, Status status, const std::string& detail,
                        double deviceMs, double referenceMs) {
    Json coloc{{"computed", c.computed},
               {"why_not", c.why},
               {"status", statusName(status)},
               {"detail", detail}};
    if (!c.computed)
        return coloc;
    coloc["pairs"] = c.n;
    coloc["pearson"] = nanOrNumber(c.pearson);
    coloc["pearson_below"] = nanOrNumber(c.pearsonBelow);
    coloc["pearson_above"] = nanOrNumber(c.pearsonAbove);
    coloc["m1"] = nanOrNumber(c.m1);
    coloc["m2"] = nanOrNumber(c.m2);
    coloc["tm1"] = nanOrNumber(c.tm1);
    coloc["tm2"] = nanOrNumber(c.tm2);
    coloc["threshold_a"] = nanOrNumber(c.thresholdA);
    coloc["threshold_b"] = nanOrNumber(c.thresholdB);
    coloc["slope"] = nanOrNumber(c.slope);
    coloc["intercept"] = nanOrNumber(c.intercept);
    coloc["icq"] = nanOrNumber(c.icq);
    coloc["above_both"] = nanOrNumber(c.overlap);
    coloc["search"] = costesSearchName(c.search);
    coloc["candidates"] = c.candidates;
    coloc["passes"] = c.passes;
    coloc["device_ms"] = deviceMs;
    coloc["reference_ms"] = referenceMs;
    return coloc;
}

std::string jointJson(const JointRun& run) {
    Json points = Json::array();
    for (const JointPoint& p : run.points)
        points.push_back({{"method", largeBinMethodName(p.method)},
                          {"geometry", p.geometry},
                          {"build_options", p.buildOptions},
                          {"status", statusName(p.status)},
                          {"detail", p.detail},
                          {"timing", timingJson(p.stats)},
                          {"bytes", p.bytes},
                          {"gbps", p.gbps},
                          {"gpairs_per_s", p.gpairs},
                          {"percent_of_read_only", p.percentOfCeiling},
                          {"auto_tuning", p.tuning}});
    Json j{{"tool", "histlab-cli joint"},
           {"date", utcTimestamp()},
           {"device", deviceJson(run.device)}};
    addJointCounts(j, run);
    j["read_only"] = ceilingJson(run.ceiling);
    j["points"] = std::move(points);
    j["mi_evaluation"] = {{"method", largeBinMethodName(run.miEvaluation.method)},
                          {"geometry", run.miEvaluation.geometry},
                          {"auto_tuning", run.miEvaluation.tuning},
                          {"status", statusName(run.miEvaluation.status)},
                          {"detail", run.miEvaluation.detail},
                          {"wall_clock", timingJson(run.miEvaluation.stats)},
                          {"per_second", run.miEvaluation.perSecond},
                          {"mi_bits", run.miEvaluation.mi.mi}};
    return jsonText(j);
}

namespace {

/// One device's means of counting pieces of the pairs: both planes (and the mask) resident on
/// it and pinned on the host.
class JointSplitCounter : public SplitCounter {
public:
    JointSplitCounter(Device& device, const JointRequest& r, LargeBinMethod method,
                      const SamplePlane* mask, const CancelToken& cancel)
        : m_device(device)
        , m_sample(sampleBytes(r.a.type))
        , m_a(uploadPlane(device, r.a))
        , m_b(uploadPlane(device, r.b))
        , m_pa(device, r.a.bytes.size())
        , m_pb(device, r.b.bytes.size()) {
        std::memcpy(m_pa.data(), r.a.bytes.data(), r.a.bytes.size());
        std::memcpy(m_pb.data(), r.b.bytes.data(), r.b.bytes.size());
        if (mask) {
            m_mask = uploadPlane(device, *mask);
            m_pm = std::make_unique<PinnedHost>(device, mask->bytes.size());
            std::memcpy(m_pm->data(), mask->bytes.data(), mask->bytes.size());
        }
        m_pieces = std::make_unique<JointPieces>(device, m_a, m_b, m_mask ? &*m_mask : nullptr,
                                                 r.a.count(), r.spec, method, cancel);
    }
    std::string config() const override { return m_pieces->describe(); }
    std::vector<std::uint64_t> streamed(std::uint64_t offset, std::uint64_t length,
                                        const CancelToken& cancel) override {
        cancel.throwIfCancelled();
        if (length == 0)
            return m_pieces->count(0, 0);
        cl::CommandQueue& q = m_device.queue();
        // Written, then counted on the same in-order queue.
        q.enqueueWriteBuffer(m_a, CL_FALSE, offset * m_sample, length * m_sample,
                             m_pa.data() + offset * m_sample);
        q.enqueueWriteBuffer(m_b, CL_FALSE, offset * m_sample, length * m_sample,
                             m_pb.data() + offset * m_sample);
        if (m_mask)
            q.enqueueWriteBuffer(*m_mask, CL_FALSE, offset, length, m_pm->data() + offset);
        return m_pieces->count(offset, length);
    }
    double kernels(std::uint64_t offset, std::uint64_t length) override {
        std::vector<cl::Event> events;
        m_pieces->count(offset, length, &events);
        return profiledMs(events);
    }

private:
    Device& m_device;
    std::size_t m_sample;
    cl::Buffer m_a, m_b;
    std::optional<cl::Buffer> m_mask;
    PinnedHost m_pa, m_pb;
    std::unique_ptr<PinnedHost> m_pm;
    std::unique_ptr<JointPieces> m_pieces;
};

} // namespace

JointSplitRun runJointSplit(const std::vector<Device*>& devices, const JointRequest& r,
                            const DeviceFault& fault, const CancelToken& cancel) {
    if (r.methods.size() > 1)
        throw UsageError("--method", "several devices count with one method (auto, or one named)");
    const LargeBinMethod method = r.methods.empty() ? LargeBinMethod::Auto : r.methods.front();
    JointSplitRun run;
    run.sourceA = r.a.source;
    run.sourceB = r.b.source;
    run.maskSource = r.maskSource;
    run.pairs = r.a.count();
    run.spec = r.spec;
    if (run.pairs == 0)
        throw InputError(r.a.source + ": no pairs to count");
    const JointHistogram reference = jointHistogramReference(r.a, r.b, r.spec, r.mask);
    std::optional<SamplePlane> mask;
    if (!r.mask.empty()) {
        mask.emplace();
        mask->type = SampleType::U8;
        mask->bytes = r.mask;
    }
    SplitInput input;
    input.length = run.pairs;
    // Pieces start at multiples of 12,288 pairs: whole multiples of 4,096 bytes of each plane,
    // the largest sub-buffer alignment a device asks.
    input.unit = 12288;
    input.counter = [&](Device& device, std::size_t) {
        return std::make_unique<JointSplitCounter>(device, r, method, mask ? &*mask : nullptr,
                                                   cancel);
    };
    input.check = [&](const std::string& what, const std::vector<std::uint64_t>& slots) {
        // The cells, then the left-out count.
        const std::string detail =
            slots.empty()
                ? std::string("no counts")
                : firstJointMismatch(reference, slots.data(), slots.size() - 1, slots.back());
        return detail.empty() ? detail : what + ": " + detail;
    };
    static_cast<SplitTiming&>(run) = runSplit(devices, input, r.repeats, fault, cancel);
    run.histogram.binsA = r.spec.a.bins;
    run.histogram.binsB = r.spec.b.bins;
    if (run.counts.empty())
        throw DeviceError("no device counted the pairs");
    run.histogram.counts.assign(run.counts.begin(), run.counts.end() - 1);
    run.histogram.leftOut = run.counts.back();
    run.mi = mutualInformation(run.histogram);
    // The colocalisation passes on the split's pieces, each counted by the device that counted
    // it above (the one that redid a failed device's piece), the sums added.
    std::vector<std::optional<std::array<cl::Buffer, 3>>> planes(devices.size());
    std::vector<std::unique_ptr<ColocDevicePass>> pieces;
    auto onDevices = [&]() -> std::vector<std::unique_ptr<ColocDevicePass>>& {
        cancel.throwIfCancelled();
        if (pieces.empty())
            for (std::size_t k = 0; k < run.shares.size(); ++k) {
                const SplitShare& s = run.shares[k];
                const int at = s.failure.empty() ? int(k) : s.redoneBy;
                if (s.length == 0 || at < 0)
                    continue;
                Device& device = *devices[std::size_t(at)];
                auto& p = planes[std::size_t(at)];
                if (!p)
                    p = {uploadPlane(device, r.a), uploadPlane(device, r.b),
                         mask ? uploadPlane(device, *mask) : uploadPlane(device, r.a)};
                pieces.push_back(std::make_unique<ColocDevicePass>(
                    device, (*p)[0], (*p)[1], mask ? &(*p)[2] : nullptr, run.pairs, r.spec,
                    s.offset, s.length));
            }
        return pieces;
    };
    colocaliseCounts(run, r,
                     {[&](const ColocPassArgs& args) {
                          ColocSums sum;
                          for (auto& piece : onDevices())
                              addColocSums(sum, (*piece)(args));
                          return sum;
                      },
                      [&](const ColocSteps& steps) {
                          std::vector<ColocMoments> sum(steps.count() + 1);
                          for (auto& piece : onDevices())
                              addColocMoments(sum, piece->steps(steps));
                          return sum;
                      }});
    return run;
}

std::string jointSplitText(const JointSplitRun& run) {
    std::ostringstream out;
    out << jointInputsLine(run) << ", split over " << run.shares.size() << " devices\n";
    out << jointCountsLines(run);
    const double pairBytes =
        double(sampleBytes(run.spec.a.type)) * 2 + (run.maskSource.empty() ? 0.0 : 1.0);
    out << splitSharesText(run, run.pairs, "pairs", pairBytes);
    out << splitVerifiedLine(run, "cell for cell");
    return out.str();
}

std::string jointSplitJson(const JointSplitRun& run) {
    Json j{{"tool", "histlab-cli joint --device (several)"}, {"date", utcTimestamp()}};
    addJointCounts(j, run);
    addSplitJson(j, run, "pairs");
    return jsonText(j);
}

} // namespace histlab
