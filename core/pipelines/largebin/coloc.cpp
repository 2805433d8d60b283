#include "pipelines/largebin/coloc.h"

#include "pipelines/largebin/kernelargs.h"
#include "runtime/errors.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

namespace histlab {

namespace {

__extension__ typedef __int128 Int128;

/// n Σxy - Σx Σy: n times the centred sum, exact (< 2^97 for 16-bit samples and 2^32 pairs).
Int128 centred(std::uint64_t n, std::uint64_t sxy, std::uint64_t sx, std::uint64_t sy) {
    return Int128(n) * Int128(sxy) - Int128(sx) * Int128(sy);
}

void addPair(ColocMoments& m, std::uint64_t a, std::uint64_t b) {
    ++m.n;
    m.a += a;
    m.b += b;
    m.aa += a * a;
    m.bb += b * b;
    m.ab += a * b;
}

void addMoments(ColocMoments& into, const ColocMoments& m) {
    into.n += m.n;
    into.a += m.a;
    into.b += m.b;
    into.aa += m.aa;
    into.bb += m.bb;
    into.ab += m.ab;
}

/// The largest value of an integer sample type: where Coloc 2 clamps a threshold.
double typeMax(SampleType type) {
    return type == SampleType::U8 ? 255.0 : 65535.0;
}

/// Java's Math.round (half up), then clamped to the sample type, as Coloc 2 makes a threshold.
std::uint32_t thresholdOf(double t, SampleType type) {
    const double r = std::floor(t + 0.5);
    if (!(r > 0)) // NaN too
        return 0;
    return std::uint32_t(std::min(r, typeMax(type)));
}

/// Whether Costes' working threshold walks on A (the line nearer the A axis), else on B.
bool walksOnA(double slope) {
    return slope > -1 && slope < 1;
}

/// The thresholds TA, TB of working threshold t on the line b = slope a + intercept.
std::pair<std::uint32_t, std::uint32_t> thresholdsAt(double t, double slope, double intercept,
                                                     SampleType type) {
    const bool onA = walksOnA(slope);
    return {thresholdOf(onA ? t : (t - intercept) / slope, type),
            thresholdOf(onA ? t * slope + intercept : t, type)};
}

/// Six slots in the order n, Σa, Σb, Σa², Σb², Σab.
ColocMoments momentsOfSlots(const std::uint64_t* six) {
    return {six[0], six[1], six[2], six[3], six[4], six[5]};
}

/// A fraction of exact sums, NaN for 0 / 0 or x / 0.
double ratio(std::uint64_t num, std::uint64_t den) {
    return den ? double(num) / double(den) : NAN;
}

/// into - m, modulo 2^64 (exact where m's pairs are among into's).
ColocMoments minus(const ColocMoments& into, const ColocMoments& m) {
    return {into.n - m.n,   into.a - m.a,   into.b - m.b,
            into.aa - m.aa, into.bb - m.bb, into.ab - m.ab};
}

/// The candidates k at which x >= t[k], as [lo, hi): t moves one way (non-increasing: from the
/// first k with t[k] <= x on; non-decreasing: up to the first k with t[k] > x).
std::pair<std::uint32_t, std::uint32_t> atOrAbove(const std::vector<std::uint32_t>& t,
                                                  std::uint32_t x) {
    const auto count = std::uint32_t(t.size());
    if (t.empty() || t.front() >= t.back()) {
        const auto at =
            std::partition_point(t.begin(), t.end(), [&](std::uint32_t v) { return v > x; });
        return {std::uint32_t(at - t.begin()), count};
    }
    const auto at =
        std::partition_point(t.begin(), t.end(), [&](std::uint32_t v) { return v <= x; });
    return {0, std::uint32_t(at - t.begin())};
}

/// Whether the pair (x, y) is counted: in both ranges, the mask non-zero.
bool counted(const JointSpec& spec, const std::vector<std::uint8_t>& mask, std::size_t k, double x,
             double y) {
    static const std::vector<float> none;
    return (mask.empty() || mask[k] != 0) &&
           referenceSlot(spec.a, none, x) < std::uint32_t(spec.a.bins) &&
           referenceSlot(spec.b, none, y) < std::uint32_t(spec.b.bins);
}

} // namespace

const char* costesSearchName(CostesSearch search) {
    return search == CostesSearch::Stepwise ? "stepwise" : "bisection";
}

std::vector<std::string> colocChoices() {
    return {costesSearchName(CostesSearch::Stepwise), costesSearchName(CostesSearch::Bisection),
            "off"};
}

std::optional<CostesSearch> parseColocChoice(const std::string& option, const std::string& text) {
    for (CostesSearch s : {CostesSearch::Stepwise, CostesSearch::Bisection})
        if (text == costesSearchName(s))
            return s;
    if (text == "off")
        return std::nullopt;
    throw UsageError(option, "'" + text + "' is not stepwise, bisection or off");
}

ColocSteps costesSteps(double slope, double intercept, std::uint32_t maxWorking, SampleType type) {
    ColocSteps s;
    for (std::uint32_t t = maxWorking; t >= 1; --t) {
        const auto [ta, tb] = thresholdsAt(t, slope, intercept, type);
        s.ta.push_back(ta);
        s.tb.push_back(tb);
    }
    const std::size_t values = std::size_t(typeMax(type)) + 1;
    for (auto* table : {&s.loA, &s.hiA, &s.loB, &s.hiB})
        table->resize(values);
    for (std::size_t x = 0; x < values; ++x) {
        std::tie(s.loA[x], s.hiA[x]) = atOrAbove(s.ta, std::uint32_t(x));
        std::tie(s.loB[x], s.hiB[x]) = atOrAbove(s.tb, std::uint32_t(x));
    }
    return s;
}

std::vector<ColocMoments> colocStepsReference(const SamplePlane& a, const SamplePlane& b,
                                              const JointSpec& spec,
                                              const std::vector<std::uint8_t>& mask,
                                              const ColocSteps& steps) {
    std::vector<ColocMoments> diff(steps.count() + 1);
    for (std::size_t k = 0; k < a.count(); ++k) {
        const double x = sampleValue(a, k), y = sampleValue(b, k);
        if (!counted(spec, mask, k, x, y))
            continue;
        const std::uint64_t u = std::uint64_t(x), v = std::uint64_t(y);
        const auto [loA, hiA] = atOrAbove(steps.ta, std::uint32_t(u));
        const auto [loB, hiB] = atOrAbove(steps.tb, std::uint32_t(v));
        const std::uint32_t lo = std::max(loA, loB), hi = std::min(hiA, hiB);
        if (lo >= hi)
            continue;
        ColocMoments m;
        addPair(m, u, v);
        addMoments(diff[lo], m);
        if (hi < steps.count()) // to the end: nothing to take away
            diff[hi] = minus(diff[hi], m);
    }
    return diff;
}

double pearsonOf(const ColocMoments& m) {
    const Int128 cab = centred(m.n, m.ab, m.a, m.b);
    const Int128 caa = centred(m.n, m.aa, m.a, m.a);
    const Int128 cbb = centred(m.n, m.bb, m.b, m.b);
    if (m.n == 0 || caa <= 0 || cbb <= 0)
        return NAN;
    const long double r = (long double)cab / std::sqrt((long double)caa * (long double)cbb);
    return double(std::clamp(r, -1.0L, 1.0L));
}

ColocSums colocSumsOfSlots(const std::uint64_t* rows, std::size_t groups) {
    ColocSums s;
    std::uint64_t sum[24] = {};
    for (std::size_t g = 0; g < groups; ++g) {
        const std::uint64_t* row = rows + g * kColocSlots;
        for (int k = 0; k < 24; ++k)
            sum[k] += row[k];
        s.minA = std::min<std::uint32_t>(s.minA, std::uint32_t(row[24]));
        s.maxA = std::max<std::uint32_t>(s.maxA, std::uint32_t(row[25]));
        s.minB = std::min<std::uint32_t>(s.minB, std::uint32_t(row[26]));
        s.maxB = std::max<std::uint32_t>(s.maxB, std::uint32_t(row[27]));
    }
    ColocMoments* sets[3] = {&s.all, &s.below, &s.above};
    for (int k = 0; k < 3; ++k)
        *sets[k] = momentsOfSlots(sum + 6 * k);
    s.aWhereB = sum[18];
    s.bWhereA = sum[19];
    s.aAboveTB = sum[20];
    s.bAboveTA = sum[21];
    s.overlap = sum[22];
    s.icqNegative = sum[23];
    return s;
}

void addColocSums(ColocSums& into, const ColocSums& piece) {
    addMoments(into.all, piece.all);
    addMoments(into.below, piece.below);
    addMoments(into.above, piece.above);
    into.aWhereB += piece.aWhereB;
    into.bWhereA += piece.bWhereA;
    into.aAboveTB += piece.aAboveTB;
    into.bAboveTA += piece.bAboveTA;
    into.overlap += piece.overlap;
    into.icqNegative += piece.icqNegative;
    into.minA = std::min(into.minA, piece.minA);
    into.maxA = std::max(into.maxA, piece.maxA);
    into.minB = std::min(into.minB, piece.minB);
    into.maxB = std::max(into.maxB, piece.maxB);
}

void addColocMoments(std::vector<ColocMoments>& into, const std::vector<ColocMoments>& piece) {
    for (std::size_t k = 0; k < into.size() && k < piece.size(); ++k)
        addMoments(into[k], piece[k]);
}

ColocSums colocPassReference(const SamplePlane& a, const SamplePlane& b, const JointSpec& spec,
                             const std::vector<std::uint8_t>& mask, const ColocPassArgs& args) {
    ColocSums s;
    for (std::size_t k = 0; k < a.count(); ++k) {
        const double x = sampleValue(a, k), y = sampleValue(b, k);
        if (!counted(spec, mask, k, x, y))
            continue;
        const std::uint64_t u = std::uint64_t(x), v = std::uint64_t(y);
        addPair(s.all, u, v);
        if (u < args.ta || v < args.tb)
            addPair(s.below, u, v);
        if (u > args.ta || v > args.tb)
            addPair(s.above, u, v);
        if (v > 0)
            s.aWhereB += u;
        if (u > 0)
            s.bWhereA += v;
        if (v > 0 && v >= args.tb)
            s.aAboveTB += u;
        if (u > 0 && u >= args.ta)
            s.bAboveTA += v;
        if (u > args.ta && v > args.tb)
            ++s.overlap;
        // The sign of (a - mean a)(b - mean b), from n a - Σa and n b - Σb.
        const Int128 da = Int128(args.n) * Int128(u) - Int128(args.sa);
        const Int128 db = Int128(args.n) * Int128(v) - Int128(args.sb);
        if ((da < 0 && db > 0) || (da > 0 && db < 0))
            ++s.icqNegative;
        s.minA = std::min(s.minA, std::uint32_t(u));
        s.maxA = std::max(s.maxA, std::uint32_t(u));
        s.minB = std::min(s.minB, std::uint32_t(v));
        s.maxB = std::max(s.maxB, std::uint32_t(v));
    }
    return s;
}

std::string colocRefusal(SampleType type) {
    if (type == SampleType::F32)
        return "not computed for float samples (their sums are not exact integers; 8- and 16-bit "
               "samples are summed exactly)";
    return "";
}

namespace {

/// Coloc 2's BisectionStepper: the thresholds of the last candidate evaluated.
std::pair<std::uint32_t, std::uint32_t> bisect(Colocalisation& c, SampleType type,
                                               const ColocPass& pass) {
    const bool onA = walksOnA(c.slope);
    const double maxW = onA ? c.first.maxA : c.first.maxB;
    const double minW = onA ? c.first.minA : c.first.minB;
    double t = std::fabs(maxW + minW) * 0.5, step = std::fabs(t - maxW);
    std::uint32_t ta = c.first.maxA, tb = c.first.maxB; // where no candidate is evaluated
    int updates = 0;
    while (!(updates > 100 || step < 1.0)) {
        std::tie(ta, tb) = thresholdsAt(t, c.slope, c.intercept, type);
        const double r = pearsonOf(pass({ta, tb, 0, 0, 0, true}).below);
        ++c.passes;
        ++c.candidates;
        const double before = t;
        if (r < 0)
            t += step * 0.5;
        else if (r > 0)
            t -= step * 0.5; // r = 0 or NaN: t stays, and the search ends
        step = std::fabs(t - before);
        ++updates;
    }
    return {ta, tb};
}

/// Costes et al.'s search from one pass: r_below at each candidate from the running sums, to
/// the first whose r_below is <= 0 or undefined.
std::pair<std::uint32_t, std::uint32_t> stepDown(Colocalisation& c, SampleType type,
                                                 const ColocStepsPass& pass) {
    const ColocSteps steps =
        costesSteps(c.slope, c.intercept, walksOnA(c.slope) ? c.first.maxA : c.first.maxB, type);
    if (steps.count() == 0)
        return {c.first.maxA, c.first.maxB}; // no candidate
    c.steps = pass(steps);
    ++c.passes;
    ColocMoments notBelow;
    std::size_t k = 0;
    for (; k < steps.count(); ++k) {
        addMoments(notBelow, c.steps[k]);
        if (!(pearsonOf(minus(c.first.all, notBelow)) > 0))
            break;
    }
    c.candidates = std::min(k + 1, steps.count());
    return {steps.ta[c.candidates - 1], steps.tb[c.candidates - 1]};
}

} // namespace

Colocalisation colocalise(SampleType type, CostesSearch search, const ColocPasses& passes) {
    Colocalisation c;
    c.search = search;
    c.why = colocRefusal(type);
    if (!c.why.empty())
        return c;
    c.computed = true;
    c.first = passes.sums({});
    ++c.passes;
    const ColocMoments& all = c.first.all;
    c.n = all.n;
    c.pearson = pearsonOf(all);
    c.m1 = ratio(c.first.aWhereB, all.a);
    c.m2 = ratio(c.first.bWhereA, all.b);
    ColocPassArgs last{0, 0, all.n, all.a, all.b};
    const Int128 caa = centred(all.n, all.aa, all.a, all.a);
    const Int128 cbb = centred(all.n, all.bb, all.b, all.b);
    const Int128 cab = centred(all.n, all.ab, all.a, all.b);
    const bool line = all.n > 0 && cab != 0;
    if (line) {
        // Orthogonal regression (Coloc 2's, from the variances and the covariance; the common
        // factor 1 / (n (n - 1)) cancels).
        const long double vaa = (long double)caa, vbb = (long double)cbb, vab = (long double)cab;
        const long double m =
            (vbb - vaa + std::sqrt((vbb - vaa) * (vbb - vaa) + 4 * vab * vab)) / (2 * vab);
        c.slope = double(m);
        c.intercept = double(all.b) / double(all.n) - c.slope * (double(all.a) / double(all.n));
        std::tie(last.ta, last.tb) = search == CostesSearch::Stepwise
                                         ? stepDown(c, type, passes.steps)
                                         : bisect(c, type, passes.sums);
        c.thresholdA = last.ta;
        c.thresholdB = last.tb;
    }
    c.sums = passes.sums(last);
    ++c.passes;
    c.icq = all.n ? double(all.n - c.sums.icqNegative) / double(all.n) - 0.5 : NAN;
    if (line) {
        c.pearsonBelow = pearsonOf(c.sums.below);
        c.pearsonAbove = pearsonOf(c.sums.above);
        c.tm1 = ratio(c.sums.aAboveTB, all.a);
        c.tm2 = ratio(c.sums.bAboveTA, all.b);
        c.overlap = double(c.sums.overlap);
    }
    return c;
}

Colocalisation colocalisationReference(const SamplePlane& a, const SamplePlane& b,
                                       const JointSpec& spec, const std::vector<std::uint8_t>& mask,
                                       CostesSearch search) {
    return colocalise(
        a.type, search,
        {[&](const ColocPassArgs& args) { return colocPassReference(a, b, spec, mask, args); },
         [&](const ColocSteps& steps) { return colocStepsReference(a, b, spec, mask, steps); }});
}

namespace {

std::string momentsMismatch(const std::string& set, const ColocMoments& d, const ColocMoments& r) {
    const std::uint64_t dv[6] = {d.n, d.a, d.b, d.aa, d.bb, d.ab};
    const std::uint64_t rv[6] = {r.n, r.a, r.b, r.aa, r.bb, r.ab};
    const char* names[6] = {"n", "Σa", "Σb", "Σa²", "Σb²", "Σab"};
    for (int k = 0; k < 6; ++k)
        if (dv[k] != rv[k])
            return std::string(names[k]) + " " + set + ": device " + std::to_string(dv[k]) +
                   ", CPU reference " + std::to_string(rv[k]);
    return "";
}

std::string sumsMismatch(const std::string& pass, const ColocSums& d, const ColocSums& r) {
    std::string m = momentsMismatch("of all pairs", d.all, r.all);
    if (m.empty())
        m = momentsMismatch("below the thresholds", d.below, r.below);
    if (m.empty())
        m = momentsMismatch("above the thresholds", d.above, r.above);
    const std::uint64_t dv[6] = {d.aWhereB,  d.bWhereA, d.aAboveTB,
                                 d.bAboveTA, d.overlap, d.icqNegative};
    const std::uint64_t rv[6] = {r.aWhereB,  r.bWhereA, r.aAboveTB,
                                 r.bAboveTA, r.overlap, r.icqNegative};
    const char* names[6] = {"Σa where b > 0",   "Σb where a > 0",   "Σa where b >= TB",
                            "Σb where a >= TA", "pairs above both", "negative ICQ products"};
    for (int k = 0; k < 6 && m.empty(); ++k)
        if (dv[k] != rv[k])
            m = std::string(names[k]) + ": device " + std::to_string(dv[k]) + ", CPU reference " +
                std::to_string(rv[k]);
    if (m.empty() && (d.minA != r.minA || d.maxA != r.maxA || d.minB != r.minB || d.maxB != r.maxB))
        m = "the channels' minima and maxima differ";
    return m.empty() ? m : pass + ": " + m;
}

} // namespace

std::string firstColocMismatch(const Colocalisation& reference, const Colocalisation& device) {
    if (reference.computed != device.computed)
        return "colocalisation computed on one side only";
    if (!reference.computed)
        return "";
    std::string m = sumsMismatch("colocalisation's first pass", device.first, reference.first);
    if (m.empty() && device.steps.size() != reference.steps.size())
        m = "the stepwise search's candidates: device " + std::to_string(device.steps.size()) +
            ", CPU reference " + std::to_string(reference.steps.size());
    for (std::size_t k = 0; k < device.steps.size() && m.empty(); ++k)
        m = momentsMismatch("from candidate " + std::to_string(k) + " of the stepwise search",
                            device.steps[k], reference.steps[k]);
    if (m.empty() &&
        (device.thresholdA != reference.thresholdA || device.thresholdB != reference.thresholdB) &&
        !(std::isnan(device.thresholdA) && std::isnan(reference.thresholdA))) {
        std::ostringstream s;
        s << "Costes' thresholds: device (" << device.thresholdA << ", " << device.thresholdB
          << "), CPU reference (" << reference.thresholdA << ", " << reference.thresholdB << ")";
        m = s.str();
    }
    if (m.empty())
        m = sumsMismatch("colocalisation at the thresholds", device.sums, reference.sums);
    return m;
}

ColocDevicePass::ColocDevicePass(Device& device, const cl::Buffer& a, const cl::Buffer& b,
                                 const cl::Buffer* mask, std::size_t n, const JointSpec& spec,
                                 std::size_t offset, std::size_t length)
    : m_device(device)
    , m_masked(mask != nullptr)
    , m_spec(spec) {
    const std::string refusal = colocRefusal(spec.a.type);
    if (!refusal.empty())
        throw UnsupportedError("colocalisation: " + refusal);
    length = std::min(length, n - std::min(n, offset));
    m_length = length;
    const std::size_t sample = sampleBytes(spec.a.type);
    auto piece = [&](const cl::Buffer& whole, std::size_t bytesPerPair) {
        if (offset == 0 && length == n)
            return whole;
        const cl_buffer_region region{offset * bytesPerPair,
                                      std::max<std::size_t>(1, length) * bytesPerPair};
        return cl::Buffer(const_cast<cl::Buffer&>(whole).createSubBuffer(
            CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region));
    };
    m_keep.push_back(piece(a, sample));
    m_keep.push_back(piece(b, sample));
    if (mask)
        m_keep.push_back(piece(*mask, 1));
    JointKernel k = jointKernel(device, m_keep[0], m_keep[1], mask ? &m_keep[2] : nullptr, length,
                                spec, "coloc_sums");
    m_keep.push_back(k.ea);
    m_keep.push_back(k.eb);
    m_kernel = k.count;
    m_local = 1;
    while (m_local * 2 <= std::min<std::size_t>(256, device.info().maxWorkGroupSize))
        m_local *= 2; // the reductions halve
    const std::size_t wanted = (length + m_local - 1) / m_local;
    m_groups = std::clamp<std::size_t>(wanted, 1,
                                       std::max<std::uint32_t>(1, device.info().computeUnits) * 8);
    m_partial =
        cl::Buffer(device.context(), CL_MEM_WRITE_ONLY, m_groups * kColocSlots * sizeof(cl_ulong));
    // A CPU device walks each work-item's own run of pairs; others stride (see the kernel).
    const std::size_t items = m_groups * m_local;
    const bool cpu = device.info().type == DeviceType::Cpu;
    m_kernel.setArg(14, cl_uint(cpu ? (length + items - 1) / items : 0));
    m_kernel.setArg(15, m_partial);
    m_kernel.setArg(16, cl::Local(m_local * sizeof(cl_ulong)));
}

ColocSums ColocDevicePass::operator()(const ColocPassArgs& args) {
    m_kernel.setArg(8, cl_uint(args.ta));
    m_kernel.setArg(9, cl_uint(args.tb));
    m_kernel.setArg(10, cl_ulong(args.n));
    m_kernel.setArg(11, cl_ulong(args.sa));
    m_kernel.setArg(12, cl_ulong(args.sb));
    m_kernel.setArg(13, cl_uint(args.belowOnly ? 1 : 0));
    cl::CommandQueue& q = m_device.queue();
    q.enqueueNDRangeKernel(m_kernel, cl::NullRange, cl::NDRange(m_groups * m_local),
                           cl::NDRange(m_local));
    std::vector<std::uint64_t> rows(m_groups * kColocSlots);
    q.enqueueReadBuffer(m_partial, CL_TRUE, 0, rows.size() * sizeof(std::uint64_t), rows.data());
    const ColocSums sums = colocSumsOfSlots(rows.data(), m_groups);
    if (!args.belowOnly)
        return sums;
    ColocSums below; // the other slots were not written this pass
    below.below = sums.below;
    return below;
}

std::vector<ColocMoments> ColocDevicePass::steps(const ColocSteps& steps) {
    if (!hasExtension(m_device.info(), "cl_khr_int64_base_atomics"))
        throw UnsupportedError("Costes' stepwise search adds with 64-bit atomics, which the "
                               "device lacks (cl_khr_int64_base_atomics); --coloc bisection "
                               "runs without them");
    if (!m_steps()) {
        JointKernel k = jointKernel(m_device, m_keep[0], m_keep[1], m_masked ? &m_keep[2] : nullptr,
                                    m_length, m_spec, "coloc_steps");
        m_keep.push_back(k.ea);
        m_keep.push_back(k.eb);
        m_steps = k.count;
    }
    const cl::Context& context = m_device.context();
    auto table = [&](const std::vector<std::uint32_t>& t) {
        return cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          t.size() * sizeof(std::uint32_t), const_cast<std::uint32_t*>(t.data()));
    };
    const cl::Buffer tables[4] = {table(steps.loA), table(steps.hiA), table(steps.loB),
                                  table(steps.hiB)};
    const std::size_t slots = (steps.count() + 1) * 6;
    // A CPU device: a few work-items, one per group, each its own row of slots and a run of
    // pairs of its own (see the kernel). A GPU: one row, added to with atomics, each work-item
    // 64 neighbouring pairs (a run of the background is then added once), their loads a warp's
    // neighbours' lines, met again in L1 at the next pair.
    const bool cpu = m_device.info().type == DeviceType::Cpu;
    const std::size_t rows =
        cpu ? std::clamp<std::size_t>(m_length / 65536, 1,
                                      2 * std::max<std::uint32_t>(1, m_device.info().computeUnits))
            : 1;
    const std::size_t chunk = cpu ? (m_length + rows - 1) / rows : 64;
    const std::size_t local = cpu ? 1 : m_local;
    const std::size_t items = std::max<std::size_t>(1, (m_length + chunk - 1) / chunk);
    cl::Buffer diff(context, CL_MEM_READ_WRITE, rows * slots * sizeof(cl_ulong));
    cl::CommandQueue& q = m_device.queue();
    q.enqueueFillBuffer(diff, cl_ulong(0), 0, rows * slots * sizeof(cl_ulong));
    for (int t = 0; t < 4; ++t)
        m_steps.setArg(8 + t, tables[t]);
    m_steps.setArg(12, cl_uint(steps.count()));
    m_steps.setArg(13, cl_uint(std::max<std::size_t>(1, chunk)));
    m_steps.setArg(14, cl_uint(cpu ? 1 : 0));
    m_steps.setArg(15, diff);
    q.enqueueNDRangeKernel(m_steps, cl::NullRange,
                           cl::NDRange(cpu ? rows : (items + local - 1) / local * local),
                           cl::NDRange(local));
    std::vector<std::uint64_t> out(rows * slots);
    q.enqueueReadBuffer(diff, CL_TRUE, 0, out.size() * sizeof(std::uint64_t), out.data());
    for (std::size_t r = 1; r < rows; ++r)
        for (std::size_t k = 0; k < slots; ++k)
            out[k] += out[r * slots + k];
    std::vector<ColocMoments> moments(steps.count() + 1);
    for (std::size_t k = 0; k < moments.size(); ++k)
        moments[k] = momentsOfSlots(out.data() + 6 * k);
    return moments;
}

ColocPasses ColocDevicePass::passes() {
    return {[this](const ColocPassArgs& args) { return (*this)(args); },
            [this](const ColocSteps& steps) { return this->steps(steps); }};
}

} // namespace histlab
