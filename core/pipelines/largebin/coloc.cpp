#include "pipelines/largebin/coloc.h"

#include "pipelines/largebin/kernelargs.h"
#include "runtime/errors.h"

#include <algorithm>
#include <cmath>
#include <sstream>

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

/// A fraction of exact sums, NaN for 0 / 0 or x / 0.
double ratio(std::uint64_t num, std::uint64_t den) {
    return den ? double(num) / double(den) : NAN;
}

} // namespace

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
        *sets[k] = {sum[6 * k],     sum[6 * k + 1], sum[6 * k + 2],
                    sum[6 * k + 3], sum[6 * k + 4], sum[6 * k + 5]};
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

ColocSums colocPassReference(const SamplePlane& a, const SamplePlane& b, const JointSpec& spec,
                             const std::vector<std::uint8_t>& mask, const ColocPassArgs& args) {
    ColocSums s;
    const std::vector<float> none;
    for (std::size_t k = 0; k < a.count(); ++k) {
        const double x = sampleValue(a, k), y = sampleValue(b, k);
        if ((!mask.empty() && mask[k] == 0) ||
            referenceSlot(spec.a, none, x) >= std::uint32_t(spec.a.bins) ||
            referenceSlot(spec.b, none, y) >= std::uint32_t(spec.b.bins))
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

Colocalisation colocalise(SampleType type, const ColocPass& pass) {
    Colocalisation c;
    c.why = colocRefusal(type);
    if (!c.why.empty())
        return c;
    c.computed = true;
    c.first = pass({});
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
        const double slope = double(m);
        const double meanA = double(all.a) / double(all.n), meanB = double(all.b) / double(all.n);
        const double intercept = meanB - slope * meanA;
        c.slope = slope;
        c.intercept = intercept;
        const bool onA = slope > -1 && slope < 1;
        const double maxW = onA ? c.first.maxA : c.first.maxB;
        const double minW = onA ? c.first.minA : c.first.minB;
        // Coloc 2's BisectionStepper.
        double t = std::fabs(maxW + minW) * 0.5, step = std::fabs(t - maxW);
        std::uint32_t ta = c.first.maxA, tb = c.first.maxB; // where no candidate is evaluated
        int updates = 0;
        while (!(updates > 100 || step < 1.0)) {
            ta = thresholdOf(onA ? t : (t - intercept) / slope, type);
            tb = thresholdOf(onA ? t * slope + intercept : t, type);
            const double r = pearsonOf(pass({ta, tb, 0, 0, 0, true}).below);
            ++c.passes;
            const double before = t;
            if (r < 0)
                t += step * 0.5;
            else if (r > 0)
                t -= step * 0.5; // r = 0 or NaN: t stays, and the search ends
            step = std::fabs(t - before);
            ++updates;
        }
        last.ta = ta;
        last.tb = tb;
        c.thresholdA = ta;
        c.thresholdB = tb;
    }
    c.sums = pass(last);
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
                                       const JointSpec& spec,
                                       const std::vector<std::uint8_t>& mask) {
    return colocalise(a.type, [&](const ColocPassArgs& args) {
        return colocPassReference(a, b, spec, mask, args);
    });
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
    : m_device(device) {
    const std::string refusal = colocRefusal(spec.a.type);
    if (!refusal.empty())
        throw UnsupportedError("colocalisation: " + refusal);
    length = std::min(length, n - std::min(n, offset));
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

} // namespace histlab
