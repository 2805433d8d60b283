#include "pipelines/largebin/jointrun.h"

#include "report/files.h"
#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/errors.h"

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
        const HostImage& m = *mask;
        if (m.width != first.width || m.height != first.height || m.channels != 1)
            throw InputError(m.source + ": a mask is one channel of the images' size (" +
                             std::to_string(first.width) + " x " + std::to_string(first.height) +
                             "), not " + std::to_string(m.width) + " x " +
                             std::to_string(m.height) + " with " + std::to_string(m.channels) +
                             " channel(s)");
        r.maskSource = m.source;
        const SamplePlane plane = imagePlane(m, "gray");
        r.mask.resize(plane.count());
        for (std::size_t i = 0; i < plane.count(); ++i)
            r.mask[i] = sampleValue(plane, i) != 0 ? 1 : 0;
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
    return run;
}

namespace {

std::string number(double v) {
    std::ostringstream s;
    s.precision(6);
    s << std::fixed << v;
    return std::isnan(v) ? std::string("nan (undefined: a zero denominator)") : s.str();
}

} // namespace

std::string jointText(const JointRun& run) {
    std::ostringstream out;
    out << "joint " << run.sourceA << " x " << run.sourceB << ", " << run.pairs << " pairs, "
        << run.spec.a.bins << " x " << run.spec.b.bins << " bins";
    if (!run.maskSource.empty())
        out << ", mask " << run.maskSource;
    out << '\n' << deviceLine(run.device) << '\n';
    out << "counted " << run.histogram.counted() << ", left out " << run.histogram.leftOut
        << " (out of range, NaN or masked)\n";
    out << "H(A) " << number(run.mi.entropyA) << " bits, H(B) " << number(run.mi.entropyB)
        << " bits, H(A,B) " << number(run.mi.jointEntropy) << " bits\n";
    out << "MI " << number(run.mi.mi) << " bits\n";
    out << "NMI (H(A)+H(B))/H(A,B) " << number(run.mi.nmiStudholme) << '\n';
    out << "NMI 2 MI/(H(A)+H(B)) " << number(run.mi.nmiArithmetic) << '\n';
    out << "NMI MI/sqrt(H(A) H(B)) " << number(run.mi.nmiGeometric) << '\n';
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

std::string jointCsv(const JointRun& run) {
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

} // namespace

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
    auto axis = [](const BinSpec& s, const std::string& source,
                   const std::vector<std::uint64_t>& marginal) {
        return Json{{"source", source},
                    {"bins", s.bins},
                    {"lo", s.lo},
                    {"hi", s.hi},
                    {"marginal", marginal}};
    };
    return jsonText({{"tool", "histlab-cli joint"},
                     {"date", utcTimestamp()},
                     {"device", deviceJson(run.device)},
                     {"pairs", run.pairs},
                     {"mask", run.maskSource},
                     {"a", axis(run.spec.a, run.sourceA, run.histogram.marginalA())},
                     {"b", axis(run.spec.b, run.sourceB, run.histogram.marginalB())},
                     {"counted", run.histogram.counted()},
                     {"left_out", run.histogram.leftOut},
                     {"entropy_a_bits", run.mi.entropyA},
                     {"entropy_b_bits", run.mi.entropyB},
                     {"joint_entropy_bits", run.mi.jointEntropy},
                     {"mi_bits", run.mi.mi},
                     {"nmi_studholme", nanOrNumber(run.mi.nmiStudholme)},
                     {"nmi_arithmetic", nanOrNumber(run.mi.nmiArithmetic)},
                     {"nmi_geometric", nanOrNumber(run.mi.nmiGeometric)},
                     {"read_only", ceilingJson(run.ceiling)},
                     {"points", std::move(points)},
                     {"mi_evaluation",
                      {{"method", largeBinMethodName(run.miEvaluation.method)},
                       {"geometry", run.miEvaluation.geometry},
                       {"auto_tuning", run.miEvaluation.tuning},
                       {"status", statusName(run.miEvaluation.status)},
                       {"detail", run.miEvaluation.detail},
                       {"wall_clock", timingJson(run.miEvaluation.stats)},
                       {"per_second", run.miEvaluation.perSecond},
                       {"mi_bits", run.miEvaluation.mi.mi}}}});
}

} // namespace histlab
