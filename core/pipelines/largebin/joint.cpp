#include "pipelines/largebin/joint.h"

#include "pipelines/largebin/kernelargs.h"
#include "pipelines/options.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <cmath>

namespace histlab {

std::pair<int, int> parseJointBins(const std::string& text) {
    const std::size_t comma = text.find(',');
    if (comma == std::string::npos) {
        const int b = int(parseWholeNumber("--bins", text, 1, kMaxJointBinsPerAxis));
        return {b, b};
    }
    return {int(parseWholeNumber("--bins", text.substr(0, comma), 1, kMaxJointBinsPerAxis)),
            int(parseWholeNumber("--bins", text.substr(comma + 1), 1, kMaxJointBinsPerAxis))};
}

JointSpec makeJointSpec(const SamplePlane& a, const SamplePlane& b, int binsA, int binsB,
                        const std::optional<BinRange>& rangeA,
                        const std::optional<BinRange>& rangeB) {
    if (a.count() != b.count())
        throw InputError(a.source + " and " + b.source + " differ in size (" +
                         std::to_string(a.count()) + " and " + std::to_string(b.count()) +
                         " samples)");
    if (a.type != b.type)
        throw InputError(a.source + " and " + b.source + " differ in sample type (" +
                         sampleTypeName(a.type) + " and " + sampleTypeName(b.type) + ")");
    for (int bins : {binsA, binsB})
        if (bins < 1 || bins > kMaxJointBinsPerAxis)
            throw UsageError("--bins", std::to_string(bins) + " is not from 1 to 1024 per axis");
    return {makeBinSpec(a, binsA, rangeA, "--range-a"), makeBinSpec(b, binsB, rangeB, "--range-b")};
}

std::uint64_t JointHistogram::counted() const {
    std::uint64_t n = 0;
    for (std::uint64_t c : counts)
        n += c;
    return n;
}

std::vector<std::uint64_t> JointHistogram::marginalA() const {
    std::vector<std::uint64_t> m(std::size_t(binsA), 0);
    for (int i = 0; i < binsA; ++i)
        for (int j = 0; j < binsB; ++j)
            m[std::size_t(i)] += counts[std::size_t(i) * std::size_t(binsB) + std::size_t(j)];
    return m;
}

std::vector<std::uint64_t> JointHistogram::marginalB() const {
    std::vector<std::uint64_t> m(std::size_t(binsB), 0);
    for (int i = 0; i < binsA; ++i)
        for (int j = 0; j < binsB; ++j)
            m[std::size_t(j)] += counts[std::size_t(i) * std::size_t(binsB) + std::size_t(j)];
    return m;
}

JointHistogram jointHistogramReference(const SamplePlane& a, const SamplePlane& b,
                                       const JointSpec& spec,
                                       const std::vector<std::uint8_t>& mask) {
    JointHistogram h;
    h.binsA = spec.a.bins;
    h.binsB = spec.b.bins;
    h.counts.assign(spec.cells(), 0);
    const std::vector<float> edgesA =
        a.type == SampleType::F32 ? floatEdges(spec.a) : std::vector<float>{};
    const std::vector<float> edgesB =
        b.type == SampleType::F32 ? floatEdges(spec.b) : std::vector<float>{};
    for (std::size_t k = 0; k < a.count(); ++k) {
        const std::uint32_t i = referenceSlot(spec.a, edgesA, sampleValue(a, k));
        const std::uint32_t j = referenceSlot(spec.b, edgesB, sampleValue(b, k));
        if ((!mask.empty() && mask[k] == 0) || i >= std::uint32_t(spec.a.bins) ||
            j >= std::uint32_t(spec.b.bins))
            ++h.leftOut;
        else
            ++h.counts[std::size_t(i) * std::size_t(spec.b.bins) + j];
    }
    return h;
}

double entropyBits(const std::vector<std::uint64_t>& counts) {
    long double n = 0;
    for (std::uint64_t c : counts)
        n += c;
    if (n == 0)
        return 0;
    long double h = 0;
    for (std::uint64_t c : counts)
        if (c) {
            const long double p = c / n;
            h -= p * std::log2(p);
        }
    return double(h) + 0.0; // + 0.0 turns -0 into 0
}

MutualInformation mutualInformationOf(double entropyA, double entropyB, double jointEntropy) {
    MutualInformation m;
    m.entropyA = entropyA;
    m.entropyB = entropyB;
    m.jointEntropy = jointEntropy;
    m.mi = m.entropyA + m.entropyB - m.jointEntropy;
    const double sum = m.entropyA + m.entropyB, product = m.entropyA * m.entropyB;
    if (m.jointEntropy > 0)
        m.nmiStudholme = sum / m.jointEntropy;
    if (sum > 0)
        m.nmiArithmetic = 2 * m.mi / sum;
    if (product > 0)
        m.nmiGeometric = m.mi / std::sqrt(product);
    return m;
}

MutualInformation mutualInformation(const JointHistogram& h) {
    return mutualInformationOf(entropyBits(h.marginalA()), entropyBits(h.marginalB()),
                               entropyBits(h.counts));
}

template <typename Count>
std::string firstJointMismatch(const JointHistogram& reference, const Count* deviceCells,
                               std::size_t cells, std::uint64_t deviceLeftOut) {
    if (cells != reference.counts.size())
        return "the device returned " + std::to_string(cells) + " cells, not " +
               std::to_string(reference.counts.size());
    std::size_t differ = 0, first = 0;
    for (std::size_t c = 0; c < cells; ++c)
        if (deviceCells[c] != reference.counts[c] && differ++ == 0)
            first = c;
    if (differ) {
        std::string text = std::to_string(differ);
        text += differ == 1 ? " cell differs; cell (" : " cells differ; cell (";
        text += std::to_string(first / std::size_t(reference.binsB));
        text += ", ";
        text += std::to_string(first % std::size_t(reference.binsB));
        text += "): device " + std::to_string(deviceCells[first]);
        text += ", CPU reference " + std::to_string(reference.counts[first]);
        return text;
    }
    if (deviceLeftOut != reference.leftOut)
        return "pairs left out: device " + std::to_string(deviceLeftOut) + ", CPU reference " +
               std::to_string(reference.leftOut);
    return "";
}

template std::string firstJointMismatch(const JointHistogram&, const std::uint32_t*, std::size_t,
                                        std::uint64_t);
template std::string firstJointMismatch(const JointHistogram&, const std::uint64_t*, std::size_t,
                                        std::uint64_t);

std::vector<LargeBinMethod> jointMethods() {
    return allLargeBinMethods();
}

JointKernel jointKernel(Device& device, const cl::Buffer& a, const cl::Buffer& b,
                        const cl::Buffer* mask, std::size_t n, const JointSpec& spec,
                        const std::string& kernelName) {
    checkFloatBins(device, spec.a.type);
    JointKernel j;
    j.buildOptions = largeBinBuildOptions({spec.a, spec.b}, mask != nullptr);
    j.program = device.program("largebin", j.buildOptions);
    const LargeBinKernelParams pa = largeBinKernelParams(spec.a), pb = largeBinKernelParams(spec.b);
    j.ea = edgeBuffer(device, spec.a);
    j.eb = edgeBuffer(device, spec.b);
    j.count = cl::Kernel(j.program, kernelName.c_str());
    j.count.setArg(0, a);
    j.count.setArg(1, b);
    j.count.setArg(2, mask ? *mask : a); // not read without a mask (built without JOINT_MASK)
    j.count.setArg(3, cl_uint(n));
    j.count.setArg(4, sizeof(pa), &pa);
    j.count.setArg(5, sizeof(pb), &pb);
    j.count.setArg(6, j.ea);
    j.count.setArg(7, j.eb);
    return j;
}

namespace {

constexpr cl_uint kJointHistArg = 8;

/// The method `method` resolves to on the device (auto: tuneSlotMethod, each candidate timed on
/// the pairs) and its geometry for the cells and the left-out slot; `status` and `detail` say so
/// when the device cannot run it.
template <typename Result>
LargeBinGeometry planJointRun(Device& device, const cl::Buffer& a, const cl::Buffer& b,
                              const cl::Buffer* mask, std::size_t n, const JointSpec& spec,
                              LargeBinMethod method, const CancelToken& cancel, Result& r) {
    const std::size_t slots = spec.cells() + 1;
    r.method = method;
    if (method == LargeBinMethod::Auto)
        r.method = tuneSlotMethod(
            device.info(), spec.a.type, slots, n,
            [&](const LargeBinGeometry& g, std::size_t pairs) {
                JointKernel k =
                    jointKernel(device, a, b, mask, pairs, spec, slotKernelName("joint", g.method));
                TimingStats stats;
                timeSlotCount(device, k.program, k.count, kJointHistArg, g, slots, kTuneRepeats,
                              cancel, stats);
                return stats.medianMs;
            },
            r.tuning);
    const LargeBinGeometry g = planSlotGeometry(device.info(), spec.a.type, slots, n, r.method);
    r.geometry = g.describe();
    if (!g.supported) {
        r.status = Status::Unsupported;
        r.detail = g.why;
    }
    return g;
}

} // namespace

JointPoint runJointPoint(Device& device, const cl::Buffer& a, const cl::Buffer& b,
                         const cl::Buffer* mask, std::size_t n, const JointSpec& spec,
                         const JointHistogram& reference, LargeBinMethod method, int repeats,
                         const CancelToken& cancel) {
    JointPoint p;
    p.bytes = n * sampleBytes(spec.a.type) * 2 + (mask ? n : 0);
    const std::size_t slots = spec.cells() + 1;
    const LargeBinGeometry g = planJointRun(device, a, b, mask, n, spec, method, cancel, p);
    if (!g.supported)
        return p;
    try {
        JointKernel k = jointKernel(device, a, b, mask, n, spec, slotKernelName("joint", p.method));
        p.buildOptions = k.buildOptions;
        std::vector<std::uint32_t> cells = timeSlotCount(device, k.program, k.count, kJointHistArg,
                                                         g, slots, repeats, cancel, p.stats);
        const std::uint64_t leftOut = cells.back();
        cells.pop_back();
        p.detail = firstJointMismatch(reference, cells.data(), cells.size(), leftOut);
        p.status = p.detail.empty() ? Status::Verified : Status::Mismatch;
        p.gbps = gbPerSecond(p.bytes, p.stats.medianMs);
        p.gpairs = p.stats.medianMs > 0 ? double(n) / (p.stats.medianMs * 1e6) : 0;
    } catch (...) {
        const RowError e = rowErrorOf(std::current_exception()); // rethrows cancellation
        p.status = e.status;
        p.detail = e.detail;
    }
    logInfo("joint", std::string(largeBinMethodName(p.method)) + ": " + statusName(p.status) +
                         (p.detail.empty() ? std::string() : " (" + p.detail + ")"));
    return p;
}

namespace {

/// planJointRun's result where only the method, geometry and tuning are wanted.
struct JointChoice {
    LargeBinMethod method = LargeBinMethod::Auto;
    std::string geometry, tuning, detail;
    Status status = Status::Verified;
};

} // namespace

JointPieces::JointPieces(Device& device, const cl::Buffer& a, const cl::Buffer& b,
                         const cl::Buffer* mask, std::size_t n, const JointSpec& spec,
                         LargeBinMethod method, const CancelToken& cancel)
    : m_device(device)
    , m_a(a)
    , m_b(b)
    , m_n(n)
    , m_spec(spec) {
    if (mask)
        m_mask = *mask;
    JointChoice choice;
    const LargeBinGeometry g = planJointRun(device, a, b, mask, n, spec, method, cancel, choice);
    if (!g.supported)
        throw UnsupportedError(std::string(largeBinMethodName(choice.method)) + ": " + g.why);
    m_method = choice.method;
    m_describe = std::string(largeBinMethodName(m_method)) + ", " + choice.geometry;
    if (!choice.tuning.empty())
        m_describe += " (" + choice.tuning + ")";
}

std::vector<std::uint64_t> JointPieces::count(std::size_t offset, std::size_t length,
                                              std::vector<cl::Event>* events) {
    const std::size_t slots = m_spec.cells() + 1;
    if (length == 0)
        return std::vector<std::uint64_t>(slots, 0);
    const std::size_t sample = sampleBytes(m_spec.a.type);
    auto piece = [&](cl::Buffer& whole, std::size_t bytesPerPair) {
        if (offset == 0 && length == m_n)
            return whole;
        const cl_buffer_region region{offset * bytesPerPair, length * bytesPerPair};
        return whole.createSubBuffer(CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region);
    };
    const cl::Buffer a = piece(m_a, sample), b = piece(m_b, sample);
    std::optional<cl::Buffer> mask;
    if (m_mask)
        mask = piece(*m_mask, 1);
    const LargeBinGeometry g =
        planSlotGeometry(m_device.info(), m_spec.a.type, slots, length, m_method);
    if (!g.supported)
        throw UnsupportedError(std::string(largeBinMethodName(m_method)) + ": " + g.why);
    JointKernel k = jointKernel(m_device, a, b, mask ? &*mask : nullptr, length, m_spec,
                                slotKernelName("joint", m_method));
    SlotCounter counter(m_device, k.program, k.count, kJointHistArg, g, slots);
    std::vector<cl::Event> mine;
    counter.enqueue(mine);
    cl::Event::waitForEvents(mine);
    if (events)
        *events = mine;
    const std::vector<std::uint32_t> c = counter.read();
    return std::vector<std::uint64_t>(c.begin(), c.end());
}

MiEvaluation runMiEvaluation(Device& device, const cl::Buffer& a, const cl::Buffer& b,
                             const cl::Buffer* mask, std::size_t n, const JointSpec& spec,
                             const MutualInformation& reference, LargeBinMethod method, int repeats,
                             const CancelToken& cancel) {
    MiEvaluation e;
    const std::size_t slots = spec.cells() + 1;
    const LargeBinGeometry g = planJointRun(device, a, b, mask, n, spec, method, cancel, e);
    if (!g.supported)
        return e;
    try {
        if (device.device().getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() == 0)
            throw UnsupportedError("the entropies are summed in double precision, which " +
                                   device.info().name + " does not offer");
        JointKernel k = jointKernel(device, a, b, mask, n, spec, slotKernelName("joint", e.method));
        SlotCounter counter(device, k.program, k.count, kJointHistArg, g, slots);
        const cl_uint binsA = cl_uint(spec.a.bins), binsB = cl_uint(spec.b.bins);
        cl::Buffer rowSum(device.context(), CL_MEM_READ_WRITE, binsA * sizeof(cl_ulong));
        cl::Buffer rowCells(device.context(), CL_MEM_READ_WRITE, binsA * sizeof(cl_double));
        cl::Buffer colSum(device.context(), CL_MEM_READ_WRITE, binsB * sizeof(cl_ulong));
        cl::Buffer out(device.context(), CL_MEM_WRITE_ONLY, 3 * sizeof(cl_double));
        const std::size_t wg = std::min<std::size_t>(256, device.info().maxWorkGroupSize);
        std::size_t pow2 = 1;
        while (pow2 * 2 <= wg)
            pow2 *= 2; // the reductions halve
        const auto scratch = cl::Local(pow2 * sizeof(cl_double));
        cl::Kernel parts(k.program, "joint_entropy_parts");
        setKernelArgs(parts, counter.histogram(), binsA, binsB, rowSum, rowCells, colSum, scratch);
        cl::Kernel entropies(k.program, "joint_entropies");
        setKernelArgs(entropies, rowSum, rowCells, colSum, binsA, binsB, out, scratch);
        const std::size_t groups = binsA + (binsB + pow2 - 1) / pow2; // rows, then columns
        double h[3] = {0, 0, 0};
        cl::CommandQueue& q = device.queue();
        e.stats = timeRepeated(
            repeats,
            [&] {
                return wallClockMs([&] {
                    std::vector<cl::Event> events;
                    counter.enqueue(events);
                    q.enqueueNDRangeKernel(parts, cl::NullRange, cl::NDRange(groups * pow2),
                                           cl::NDRange(pow2));
                    q.enqueueNDRangeKernel(entropies, cl::NullRange, cl::NDRange(pow2),
                                           cl::NDRange(pow2));
                    q.enqueueReadBuffer(out, CL_TRUE, 0, sizeof h, h);
                });
            },
            cancel);
        e.perSecond = e.stats.medianMs > 0 ? 1000.0 / e.stats.medianMs : 0;
        e.mi = mutualInformationOf(h[0], h[1], h[2]);
        const double want[3] = {reference.entropyA, reference.entropyB, reference.jointEntropy};
        const char* names[3] = {"H(A)", "H(B)", "H(A,B)"};
        for (int i = 0; i < 3 && e.detail.empty(); ++i)
            if (std::fabs(h[i] - want[i]) > 1e-9 * std::max(1.0, std::fabs(want[i])))
                e.detail = std::string(names[i]) + ": device " + std::to_string(h[i]) +
                           ", CPU reference " + std::to_string(want[i]);
        e.status = e.detail.empty() ? Status::Verified : Status::Mismatch;
    } catch (...) {
        const RowError r = rowErrorOf(std::current_exception()); // rethrows cancellation
        e.status = r.status;
        e.detail = r.detail;
    }
    logInfo("joint", std::string("MI evaluation, ") + largeBinMethodName(e.method) + ": " +
                         statusName(e.status) +
                         (e.detail.empty() ? std::string() : " (" + e.detail + ")"));
    return e;
}

} // namespace histlab
