#include "pipelines/register/register.h"

#include "pipelines/largebin/largebin.h"
#include "pipelines/options.h"
#include "pipelines/register/neldermead.h"
#include "report/files.h"
#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/buildoptions.h"
#include "runtime/errors.h"
#include "runtime/log.h"
#include "runtime/parallel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <sstream>

namespace histlab {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kTwo32 = 4294967296.0;
/// Shifts beyond this many pixels are refused: |b| must stay well inside 64-bit fixed point.
constexpr double kMaxShiftPx = 1048576.0;

} // namespace

RegisterTransform parseRegisterTransform(const std::string& name) {
    if (name == "translation")
        return RegisterTransform::Translation;
    if (name == "rigid")
        return RegisterTransform::Rigid;
    throw UsageError("--transform", "'" + name + "' is not translation or rigid");
}

const char* registerTransformName(RegisterTransform t) {
    return t == RegisterTransform::Rigid ? "rigid" : "translation";
}

RegisterMetric parseRegisterMetric(const std::string& name) {
    if (name == "mi")
        return RegisterMetric::Mi;
    if (name == "nmi")
        return RegisterMetric::Nmi;
    throw UsageError("--metric", "'" + name + "' is not mi or nmi");
}

const char* registerMetricName(RegisterMetric m) {
    return m == RegisterMetric::Nmi ? "nmi" : "mi";
}

RigidTransform parseRigidTransform(const std::string& text, const std::string& option) {
    const std::vector<std::string> parts = splitList(text);
    std::vector<double> v;
    for (const std::string& p : parts) {
        const std::optional<double> d = parseFiniteNumber(p);
        if (!d)
            throw UsageError(option, "'" + p + "' is not a number (give TX,TY or TX,TY,ANGLE)");
        v.push_back(*d);
    }
    if (v.size() != 2 && v.size() != 3)
        throw UsageError(option, "'" + text + "' is not TX,TY or TX,TY,ANGLE");
    if (std::fabs(v[0]) > kMaxShiftPx || std::fabs(v[1]) > kMaxShiftPx)
        throw UsageError(option, "a shift of more than 1,048,576 pixels");
    if (v.size() == 3 && std::fabs(v[2]) > 180)
        throw UsageError(option, "an angle beyond -180 ... 180 degrees");
    return {v[0], v[1], v.size() == 3 ? v[2] : 0.0};
}

std::array<double, 6> affineMatrix(const RigidTransform& t, int fixedWidth, int fixedHeight) {
    const double a = t.angleDeg * kPi / 180.0, c = std::cos(a), s = std::sin(a);
    const double cx = (fixedWidth - 1) / 2.0, cy = (fixedHeight - 1) / 2.0;
    // T(p) = R (p - centre) + centre + t, R = [c s; -s c] (counter-clockwise on screen, y down).
    return {c, s, cx + t.tx - (c * cx + s * cy), -s, c, cy + t.ty - (-s * cx + c * cy)};
}

FixedPointAffine fixedPointAffine(const RigidTransform& t, int fixedWidth, int fixedHeight,
                                  int level) {
    const std::array<double, 6> m = affineMatrix(t, fixedWidth, fixedHeight);
    const double s = std::ldexp(1.0, level), o = (s - 1) / 2;
    // Level pixel p' is level 0's s p' + o, in both images: b' = (A o + b - o) / s.
    const double b0 = (m[0] * o + m[1] * o + m[2] - o) / s;
    const double b1 = (m[3] * o + m[4] * o + m[5] - o) / s;
    auto q = [](double v) { return std::int64_t(std::llround(v * kTwo32)); };
    return {q(m[0]), q(m[1]), q(b0), q(m[3]), q(m[4]), q(b1)};
}

int automaticLevels(int width, int height) {
    int levels = 1, side = std::min(width, height);
    while (levels < 8 && side / 2 >= 64) {
        side /= 2;
        ++levels;
    }
    return levels;
}

namespace {

/// Level 0 of one image's channel: 8-bit and 16-bit as they are, float quantised.
RegisterPlane planeOf(const HostImage& image, const std::string& channel, const std::string& role) {
    const SamplePlane s = imagePlane(image, channel);
    RegisterPlane p;
    p.width = image.width;
    p.height = image.height;
    const std::size_t n = s.count();
    p.v.resize(n);
    if (s.type == SampleType::F32) {
        double lo = INFINITY, hi = -INFINITY;
        for (std::size_t i = 0; i < n; ++i) {
            const double x = sampleValue(s, i);
            if (std::isfinite(x)) {
                lo = std::min(lo, x);
                hi = std::max(hi, x);
            }
        }
        if (!(lo <= hi))
            throw InputError(image.source + ": " + role + " has no finite value to register");
        p.wide = true;
        for (std::size_t i = 0; i < n; ++i) {
            const double x = sampleValue(s, i);
            if (std::isnan(x)) {
                p.v[i] = RegisterPlane::kQuantisedNaN;
                p.hasNaN = true;
            } else {
                const double c = std::clamp(x, lo, hi); // +-inf to the ends
                p.v[i] = hi > lo ? std::uint16_t(std::lround((c - lo) / (hi - lo) * 65534.0)) : 0;
            }
        }
    } else {
        p.wide = s.type == SampleType::U16;
        for (std::size_t i = 0; i < n; ++i)
            p.v[i] = std::uint16_t(sampleValue(s, i));
    }
    std::uint32_t lo = 0xFFFF, hi = 0;
    for (std::uint16_t x : p.v)
        if (!(p.hasNaN && x == RegisterPlane::kQuantisedNaN)) {
            lo = std::min<std::uint32_t>(lo, x);
            hi = std::max<std::uint32_t>(hi, x);
        }
    if (lo > hi)
        throw InputError(image.source + ": " + role + " has no finite value to register");
    if (lo == hi)
        throw InputError(image.source + ": " + role + " is constant (every pixel " +
                         std::to_string(lo) +
                         "): its entropy is 0, so MI is 0 for every transform");
    p.lo = lo;
    p.hi = hi;
    return p;
}

/// 2 x 2 means (rounded half up), an odd last row or column dropped; NaN where any is.
RegisterPlane halve(const RegisterPlane& p) {
    RegisterPlane h = p;
    h.width = p.width / 2;
    h.height = p.height / 2;
    h.v.assign(std::size_t(h.width) * h.height, 0);
    for (int y = 0; y < h.height; ++y)
        for (int x = 0; x < h.width; ++x) {
            const std::size_t i = std::size_t(2 * y) * p.width + 2 * x;
            const std::uint32_t a = p.v[i], b = p.v[i + 1], c = p.v[i + p.width],
                                d = p.v[i + p.width + 1];
            const bool nan =
                p.hasNaN &&
                (a == RegisterPlane::kQuantisedNaN || b == RegisterPlane::kQuantisedNaN ||
                 c == RegisterPlane::kQuantisedNaN || d == RegisterPlane::kQuantisedNaN);
            h.v[std::size_t(y) * h.width + x] =
                nan ? RegisterPlane::kQuantisedNaN : std::uint16_t((a + b + c + d + 2) / 4);
        }
    return h;
}

/// The bilinear value of a plane at (px, py) in units of 1/256 px, times 2^16 (the rule of
/// kernels/register.cl); false where a neighbour is NaN.
bool bilinearQ8(const RegisterPlane& p, std::uint32_t px, std::uint32_t py, std::uint32_t& value) {
    const std::uint32_t ui = px >> 8, vi = py >> 8, fu = px & 255u, fv = py & 255u;
    const std::uint32_t ui1 = std::min<std::uint32_t>(ui + 1, p.width - 1),
                        vi1 = std::min<std::uint32_t>(vi + 1, p.height - 1);
    const std::size_t r0 = std::size_t(vi) * p.width, r1 = std::size_t(vi1) * p.width;
    const std::uint32_t p00 = p.v[r0 + ui], p01 = p.v[r0 + ui1], p10 = p.v[r1 + ui],
                        p11 = p.v[r1 + ui1];
    if (p.hasNaN && (p00 == RegisterPlane::kQuantisedNaN || p01 == RegisterPlane::kQuantisedNaN ||
                     p10 == RegisterPlane::kQuantisedNaN || p11 == RegisterPlane::kQuantisedNaN))
        return false;
    const std::uint32_t top = p00 * (256u - fu) + p01 * fu, bottom = p10 * (256u - fu) + p11 * fu;
    value = top * (256u - fv) + bottom * fv;
    return true;
}

/// floor((v - lo) bins / span), v in units of 2^shift (the rule of kernels/register.cl).
inline std::uint32_t binOf(std::uint64_t v, std::uint64_t lo, std::uint64_t span, int bins,
                           int shift) {
    return std::uint32_t(((v - (lo << shift)) * std::uint64_t(bins)) / (span << shift));
}

} // namespace

std::pair<int, int> registerJitter(int x, int y, int width, int height) {
    std::uint32_t k = std::uint32_t(x) * 0x9E3779B1u ^ std::uint32_t(y) * 0x85EBCA77u;
    k ^= k >> 15;
    k *= 0x2C1B3C6Du;
    k ^= k >> 12;
    k *= 0x297A2D39u;
    k ^= k >> 15;
    const int jx = std::clamp(x * 256 + int(k & 255u) - 128, 0, (width - 1) * 256);
    const int jy = std::clamp(y * 256 + int((k >> 8) & 255u) - 128, 0, (height - 1) * 256);
    return {jx - x * 256, jy - y * 256};
}

std::vector<RegisterLevel> buildRegisterPyramid(const RegisterInput& input,
                                                const RegisterOptions& options) {
    if (input.fixed.pixelCount() >= (std::size_t(1) << 32))
        throw InputError(input.fixed.source +
                         ": FIXED has 2^32 pixels or more, more than a count holds");
    RegisterPlane fixed = planeOf(input.fixed, input.fixedChannel, "FIXED");
    RegisterPlane moving = planeOf(input.moving, input.movingChannel, "MOVING");
    std::vector<std::uint8_t> counted(fixed.pixels(), 1);
    if (!input.mask.empty()) {
        if (input.mask.size() != fixed.pixels())
            throw InputError(input.maskSource + ": a mask is one channel of FIXED's size (" +
                             std::to_string(fixed.width) + " x " + std::to_string(fixed.height) +
                             ")");
        counted = input.mask;
    }
    for (std::size_t i = 0; i < fixed.pixels(); ++i)
        if (fixed.hasNaN && fixed.v[i] == RegisterPlane::kQuantisedNaN)
            counted[i] = 0;
    if (std::count(counted.begin(), counted.end(), std::uint8_t(0)) ==
        std::ptrdiff_t(counted.size()))
        throw InputError((input.maskSource.empty() ? input.fixed.source : input.maskSource) +
                         ": leaves no pixel of FIXED to count");
    const int automatic = automaticLevels(fixed.width, fixed.height);
    const int levels = options.levels > 0 ? options.levels : automatic;
    const int binsA = options.binsFixed;
    const std::uint64_t spanA = fixed.hi - fixed.lo + 1;
    std::vector<RegisterLevel> pyramid;
    for (int k = 0; k < levels; ++k) {
        if (k > 0) {
            if (fixed.width < 32 || fixed.height < 32 || moving.width < 2 || moving.height < 2)
                throw UsageError("--pyramid",
                                 std::to_string(levels) + " levels: level " + std::to_string(k) +
                                     " would be smaller than 16 x 16 pixels (at most " +
                                     std::to_string(k) + " for these images)");
            fixed = halve(fixed);
            moving = halve(moving);
            std::vector<std::uint8_t> c(fixed.pixels());
            // A pixel of this level is counted where all four below it are.
            const int pw = pyramid.back().fixedWidth;
            for (int y = 0; y < fixed.height; ++y)
                for (int x = 0; x < fixed.width; ++x) {
                    const std::size_t i = std::size_t(2 * y) * pw + 2 * x;
                    c[std::size_t(y) * fixed.width + x] =
                        counted[i] && counted[i + 1] && counted[i + pw] && counted[i + pw + 1];
                }
            counted = std::move(c);
        }
        RegisterLevel L;
        L.level = k;
        L.fixedWidth = fixed.width;
        L.fixedHeight = fixed.height;
        L.fixedBins.resize(fixed.pixels());
        // FIXED's bins at its jittered points: they do not move with the transform.
        for (int y = 0; y < fixed.height; ++y)
            for (int x = 0; x < fixed.width; ++x) {
                const std::size_t i = std::size_t(y) * fixed.width + x;
                const auto [jx, jy] = registerJitter(x, y, fixed.width, fixed.height);
                std::uint32_t value = 0;
                if (!counted[i] || !bilinearQ8(fixed, std::uint32_t(x * 256 + jx),
                                               std::uint32_t(y * 256 + jy), value)) {
                    L.fixedBins[i] = RegisterLevel::kOut;
                    continue;
                }
                L.fixedBins[i] = std::uint16_t(binOf(value, fixed.lo, spanA, binsA, 16));
                ++L.fixedCounted;
            }
        if (L.fixedCounted == 0)
            throw UsageError("--pyramid", "level " + std::to_string(k) +
                                              " of the mask leaves no pixel (at most " +
                                              std::to_string(k) + " levels with this mask)");
        L.moving = moving;
        pyramid.push_back(std::move(L));
    }
    return pyramid;
}

namespace {

/// The joint histogram of one transform over rows [y0, y1) of FIXED, added to `h`.
void countRows(const RegisterLevel& L, const FixedPointAffine& t, int binsMoving, int y0, int y1,
               std::vector<std::uint64_t>& h) {
    const RegisterPlane& m = L.moving;
    const std::int64_t maxU = std::int64_t(m.width - 1) << 40, maxV = std::int64_t(m.height - 1)
                                                                      << 40;
    const std::uint64_t span = m.hi - m.lo + 1;
    for (int y = y0; y < y1; ++y)
        for (int x = 0; x < L.fixedWidth; ++x) {
            const std::uint16_t a = L.fixedBins[std::size_t(y) * L.fixedWidth + x];
            if (a == RegisterLevel::kOut)
                continue;
            const auto [jx, jy] = registerJitter(x, y, L.fixedWidth, L.fixedHeight);
            const std::int64_t u = (t.a00 * x + t.a01 * y + t.b0) * 256 + t.a00 * jx + t.a01 * jy;
            const std::int64_t v = (t.a10 * x + t.a11 * y + t.b1) * 256 + t.a10 * jx + t.a11 * jy;
            if (u < 0 || v < 0 || u > maxU || v > maxV)
                continue;
            std::uint32_t value = 0;
            if (!bilinearQ8(m, std::uint32_t(u >> 32), std::uint32_t(v >> 32), value))
                continue;
            ++h[std::size_t(a) * binsMoving + binOf(value, m.lo, span, binsMoving, 16)];
        }
}

} // namespace

std::vector<std::uint64_t> jointCountsReference(const RegisterLevel& level,
                                                const FixedPointAffine& t, int binsFixed,
                                                int binsMoving) {
    const std::size_t cells = std::size_t(binsFixed) * binsMoving;
    const std::size_t shares =
        std::max<std::size_t>(1, std::min<std::size_t>(hostThreads(), level.fixedHeight / 8));
    std::vector<std::uint64_t> h(cells, 0);
    std::mutex merge;
    parallelFor(std::size_t(level.fixedHeight), shares, [&](std::size_t lo, std::size_t hi) {
        std::vector<std::uint64_t> part(cells, 0); // each share counts alone, then adds
        countRows(level, t, binsMoving, int(lo), int(hi), part);
        std::lock_guard lock(merge);
        for (std::size_t c = 0; c < cells; ++c)
            h[c] += part[c];
    });
    return h;
}

RegisterEntropies evaluationReference(const RegisterLevel& level, const FixedPointAffine& t,
                                      int binsFixed, int binsMoving) {
    JointHistogram h;
    h.binsA = binsFixed;
    h.binsB = binsMoving;
    h.counts = jointCountsReference(level, t, binsFixed, binsMoving);
    RegisterEntropies e;
    e.counted = h.counted();
    e.entropyFixed = entropyBits(h.marginalA());
    e.entropyMoving = entropyBits(h.marginalB());
    e.jointEntropy = entropyBits(h.counts);
    return e;
}

// ---- the device ----

MiEvaluator::MiEvaluator(Device& device, const RegisterLevel& level, int binsFixed, int binsMoving)
    : m_device(device)
    , m_binsFixed(binsFixed)
    , m_binsMoving(binsMoving) {
    if (device.device().getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() == 0)
        throw UnsupportedError("the entropies are summed in double precision, which " +
                               device.info().name + " does not offer");
    const DeviceInfo& info = device.info();
    const bool cpu = info.type == DeviceType::Cpu;
    m_cells = std::size_t(binsFixed) * binsMoving;
    const std::size_t tableBytes = m_cells * sizeof(cl_uint);
    // Leave room for the compiler's own use of local memory.
    const bool local = tableBytes + 1024 <= info.localMemBytes;
    const bool narrowFixed = binsFixed < 255;
    BuildOptions o;
    o.defineText("SAMPLE_T", level.moving.wide ? "ushort" : "uchar");
    if (level.moving.hasNaN)
        o.define("INVALID", int(RegisterPlane::kQuantisedNaN));
    o.defineText("FBIN_T", narrowFixed ? "uchar" : "ushort");
    o.define("FIXED_OUT", narrowFixed ? 255 : 65535);
    o.define("BINS_A", binsFixed);
    o.define("BINS_B", binsMoving);
    o.define("LOCAL_HIST", local);
    o.define("SERIAL", cpu);
    m_program = device.program("register", o.text());
    m_count = cl::Kernel(m_program, "register_count");
    m_entropies = cl::Kernel(m_program, "register_entropies");

    const cl::Context& ctx = device.context();
    cl::CommandQueue& q = device.queue();
    // FIXED's bins in their narrow type.
    const std::size_t n = level.fixedBins.size();
    if (narrowFixed) {
        std::vector<std::uint8_t> b(n);
        for (std::size_t i = 0; i < n; ++i)
            b[i] =
                level.fixedBins[i] == RegisterLevel::kOut ? 255 : std::uint8_t(level.fixedBins[i]);
        m_fixed = cl::Buffer(ctx, CL_MEM_READ_ONLY, n);
        q.enqueueWriteBuffer(m_fixed, CL_TRUE, 0, n, b.data());
    } else {
        m_fixed = cl::Buffer(ctx, CL_MEM_READ_ONLY, n * 2);
        q.enqueueWriteBuffer(m_fixed, CL_TRUE, 0, n * 2, level.fixedBins.data());
    }
    const RegisterPlane& m = level.moving;
    if (m.wide) {
        m_moving = cl::Buffer(ctx, CL_MEM_READ_ONLY, m.pixels() * 2);
        q.enqueueWriteBuffer(m_moving, CL_TRUE, 0, m.pixels() * 2, m.v.data());
    } else {
        std::vector<std::uint8_t> b(m.v.begin(), m.v.end());
        m_moving = cl::Buffer(ctx, CL_MEM_READ_ONLY, b.size());
        q.enqueueWriteBuffer(m_moving, CL_TRUE, 0, b.size(), b.data());
    }
    // A batch's histograms: at most 64 MiB, and 1,024 transforms.
    m_batchLimit = std::clamp<std::size_t>((std::size_t(64) << 20) / tableBytes, 1, 1024);
    m_transforms = cl::Buffer(ctx, CL_MEM_READ_ONLY, m_batchLimit * sizeof(FixedPointAffine));
    m_hist = cl::Buffer(ctx, CL_MEM_READ_WRITE, m_batchLimit * tableBytes);
    q.enqueueFillBuffer(m_hist, cl_uint(0), 0, m_batchLimit * tableBytes);
    m_out = cl::Buffer(ctx, CL_MEM_WRITE_ONLY, m_batchLimit * 4 * sizeof(cl_double));

    m_local = cpu ? 1 : std::min<std::size_t>(256, device.kernelWorkGroupLimit(m_count));
    // Groups per transform: enough pixels per group that adding its local table (every cell)
    // costs little next to its count; with global atomics, as many as the device holds.
    const std::size_t pixels = level.fixedCounted;
    if (cpu)
        m_groups = std::max<std::size_t>(1, info.computeUnits);
    else if (local)
        m_groups = std::clamp<std::size_t>(pixels / (8 * m_cells), 1, 4 * info.computeUnits);
    else
        m_groups = std::clamp<std::size_t>(pixels / (16 * m_local), 1, 4 * info.computeUnits);
    m_groups = std::min<std::size_t>(m_groups, std::size_t(level.fixedHeight));
    std::size_t wg = std::min<std::size_t>(256, device.kernelWorkGroupLimit(m_entropies));
    m_entropyLocal = 1;
    while (m_entropyLocal * 2 <= wg)
        m_entropyLocal *= 2;
    const cl_uint fw = cl_uint(level.fixedWidth), fh = cl_uint(level.fixedHeight);
    const cl_uint mw = cl_uint(m.width), mh = cl_uint(m.height);
    const cl_uint lo16 = cl_uint(m.lo) << 16;
    const cl_ulong den = cl_ulong(m.hi - m.lo + 1) << 16;
    const cl_float invDen = cl_float(1.0 / double(den));
    setKernelArgs(m_count, m_fixed, fw, fh, m_moving, mw, mh, m_transforms, lo16, den, invDen,
                  m_hist);
    if (local)
        m_count.setArg(11, cl::Local(tableBytes));
    setKernelArgs(m_entropies, m_hist, m_out, cl::Local(binsFixed * sizeof(cl_uint)),
                  cl::Local(binsMoving * sizeof(cl_uint)),
                  cl::Local(m_entropyLocal * sizeof(cl_double)));
    // One evaluation now: a CPU device compiles each launch's shape on first use, which would
    // otherwise land in the first timed evaluation.
    evaluate({FixedPointAffine{std::int64_t(1) << 32, 0, 0, 0, std::int64_t(1) << 32, 0}});
    m_geometry = std::string(local ? "local table" : "global atomics") + ", " +
                 std::to_string(m_groups) + " group(s) of " + std::to_string(m_local) +
                 " per transform (fewer per transform in large batches)";
}

std::vector<RegisterEntropies>
MiEvaluator::evaluate(const std::vector<FixedPointAffine>& transforms) {
    std::vector<RegisterEntropies> result;
    result.reserve(transforms.size());
    cl::CommandQueue& q = m_device.queue();
    const std::size_t units = std::max<std::size_t>(1, m_device.info().computeUnits);
    std::vector<double> out;
    for (std::size_t first = 0; first < transforms.size(); first += m_batchLimit) {
        const std::size_t batch = std::min(m_batchLimit, transforms.size() - first);
        q.enqueueWriteBuffer(m_transforms, CL_FALSE, 0, batch * sizeof(FixedPointAffine),
                             transforms.data() + first);
        // A large batch fills the device with fewer groups per transform (less to add up).
        const std::size_t groups =
            std::max<std::size_t>(1, std::min(m_groups, (4 * units + batch - 1) / batch));
        q.enqueueNDRangeKernel(m_count, cl::NullRange, cl::NDRange(groups * m_local, batch),
                               cl::NDRange(m_local, 1));
        q.enqueueNDRangeKernel(m_entropies, cl::NullRange, cl::NDRange(batch * m_entropyLocal),
                               cl::NDRange(m_entropyLocal));
        out.resize(batch * 4);
        q.enqueueReadBuffer(m_out, CL_TRUE, 0, out.size() * sizeof(double), out.data());
        for (std::size_t k = 0; k < batch; ++k) {
            RegisterEntropies e;
            e.entropyFixed = out[4 * k] + 0.0;
            e.entropyMoving = out[4 * k + 1] + 0.0;
            e.jointEntropy = out[4 * k + 2] + 0.0;
            e.counted = std::uint64_t(out[4 * k + 3]);
            result.push_back(e);
        }
    }
    return result;
}

double registerMetricOf(const RegisterEntropies& e, RegisterMetric metric, std::size_t minCounted) {
    if (e.counted == 0 || e.counted < minCounted)
        return NAN;
    const MutualInformation mi = e.mi();
    return metric == RegisterMetric::Nmi ? mi.nmiStudholme : mi.mi;
}

// ---- the search ----

namespace {

/// The optimiser's coordinates at one level: shifts in that level's pixels and, for rigid, the
/// angle as the arc it moves a point at half FIXED's diagonal (also in that level's pixels), so
/// that one unit of each moves the image about as much.
struct Parameterisation {
    RegisterTransform kind;
    double scale = 1;  ///< 2^level
    double radius = 1; ///< half the level's diagonal
    std::vector<double> toX(const RigidTransform& t) const {
        std::vector<double> x{t.tx / scale, t.ty / scale};
        if (kind == RegisterTransform::Rigid)
            x.push_back(t.angleDeg * kPi / 180.0 * radius);
        return x;
    }
    double angleDeg = 0; ///< translation: the angle it keeps (--initial's)
    RigidTransform fromX(const std::vector<double>& x) const {
        RigidTransform t{x[0] * scale, x[1] * scale, angleDeg};
        if (kind == RegisterTransform::Rigid)
            t.angleDeg = x[2] / radius * 180.0 / kPi;
        return t;
    }
};

bool usable(const RigidTransform& t) {
    return std::isfinite(t.tx) && std::isfinite(t.ty) && std::isfinite(t.angleDeg) &&
           std::fabs(t.tx) <= kMaxShiftPx && std::fabs(t.ty) <= kMaxShiftPx &&
           std::fabs(t.angleDeg) <= 360;
}

std::string transformText(const RigidTransform& t, RegisterTransform kind) {
    std::string s = "shift (" + fixedText(t.tx, 3) + ", " + fixedText(t.ty, 3) + ") px";
    if (kind == RegisterTransform::Rigid)
        s += ", angle " + fixedText(t.angleDeg, 4) + " deg";
    return s;
}

} // namespace

RegistrationResult registerImages(Device& device, const std::vector<RegisterLevel>& pyramid,
                                  const RegisterOptions& options,
                                  const std::function<void(const RegisterStep&)>& onStep,
                                  const CancelToken& cancel) {
    RegistrationResult r;
    r.device = device.info();
    r.options = options;
    r.levels = int(pyramid.size());
    const int W = pyramid.front().fixedWidth, H = pyramid.front().fixedHeight;
    const double maxShift = options.maxShift >= 0 ? options.maxShift : std::min(W, H) / 4.0;
    RigidTransform current = options.initial;
    r.status = Status::Verified;

    for (int k = int(pyramid.size()) - 1; k >= 0; --k) {
        const RegisterLevel& L = pyramid[std::size_t(k)];
        MiEvaluator evaluator(device, L, options.binsFixed, options.binsMoving);
        if (r.geometry.empty() || k == 0)
            r.geometry = evaluator.geometry();
        const std::size_t minCounted =
            std::size_t(std::ceil(options.minOverlap * double(L.fixedCounted)));
        Parameterisation P{options.transform, std::ldexp(1.0, k),
                           0.5 * std::hypot(double(L.fixedWidth), double(L.fixedHeight)),
                           options.initial.angleDeg};
        RegisterLevelResult lr;
        lr.level = k;
        lr.width = L.fixedWidth;
        lr.height = L.fixedHeight;
        lr.start = current;
        if (k == 0) { // MI at the start, at level 0, outside the timed search
            const RegisterEntropies e =
                evaluator.evaluate({fixedPointAffine(options.initial, W, H, 0)}).front();
            r.start = e.mi();
            r.countedStart = e.counted;
        }
        const auto levelStart = std::chrono::steady_clock::now();
        double best = -INFINITY;
        RigidTransform bestT = current;
        RegisterEntropies bestE;
        auto record = [&](const RigidTransform& t, double metric, const RegisterEntropies& e,
                          std::size_t evaluation) {
            if (std::isfinite(metric) && metric > best) {
                best = metric;
                bestT = t;
                bestE = e;
                RegisterStep s{k, evaluation, metric, t};
                r.steps.push_back(s);
                if (onStep)
                    onStep(s);
            }
        };
        auto evaluateAll = [&](const std::vector<RigidTransform>& ts) {
            std::vector<FixedPointAffine> fp;
            fp.reserve(ts.size());
            for (const RigidTransform& t : ts)
                fp.push_back(fixedPointAffine(t, W, H, k));
            std::vector<RegisterEntropies> es = evaluator.evaluate(fp);
            std::vector<double> metrics(ts.size());
            for (std::size_t i = 0; i < ts.size(); ++i) {
                metrics[i] = registerMetricOf(es[i], options.metric, minCounted);
                lr.undefinedEvaluations += std::isnan(metrics[i]) ? 1 : 0;
                record(ts[i], metrics[i], es[i], r.evaluations + i + 1);
            }
            r.evaluations += ts.size();
            return std::make_pair(metrics, es);
        };
        {
            const auto first = evaluateAll({current});
            lr.metricStart = first.first[0];
        }
        std::vector<RigidTransform> starts{current};
        if (k == int(pyramid.size()) - 1 &&
            (maxShift > 0 ||
             (options.transform == RegisterTransform::Rigid && options.maxAngleDeg > 0))) {
            // The grid: shifts a tenth of the range apart (at least one level pixel), angles
            // 1.5 px of arc at half the diagonal apart (at most 41 of them).
            const double s = P.scale, range = maxShift / s;
            const int ns = range > 0 ? int(std::min(10.0, std::floor(range))) : 0;
            const double step = ns > 0 ? range / ns : 0;
            int na = 0;
            double astep = 0;
            if (options.transform == RegisterTransform::Rigid && options.maxAngleDeg > 0) {
                const double arc = options.maxAngleDeg * kPi / 180.0 * P.radius;
                na = int(std::min(20.0, std::ceil(arc / 1.5)));
                astep = na > 0 ? options.maxAngleDeg / na : 0;
            }
            std::vector<RigidTransform> grid;
            for (int ia = -na; ia <= na; ++ia)
                for (int iy = -ns; iy <= ns; ++iy)
                    for (int ix = -ns; ix <= ns; ++ix)
                        grid.push_back({current.tx + ix * step * s, current.ty + iy * step * s,
                                        current.angleDeg + ia * astep});
            cancel.throwIfCancelled();
            // Not a structured binding: clang (the sanitizer build) cannot capture one below.
            const auto evaluated = evaluateAll(grid);
            const std::vector<double>& metrics = evaluated.first;
            lr.gridEvaluations = grid.size();
            // Nelder-Mead from the best three grid points at least two steps apart.
            std::vector<std::size_t> order(grid.size());
            for (std::size_t i = 0; i < order.size(); ++i)
                order[i] = i;
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                const double ma = std::isnan(metrics[a]) ? -INFINITY : metrics[a];
                const double mb = std::isnan(metrics[b]) ? -INFINITY : metrics[b];
                return ma > mb;
            });
            starts.clear();
            for (std::size_t i : order) {
                if (std::isnan(metrics[i]) || starts.size() == 3)
                    break;
                const RigidTransform& g = grid[i];
                bool near = false;
                for (const RigidTransform& o : starts)
                    near = near || (std::fabs(o.tx - g.tx) < 2 * step * s + 1e-9 &&
                                    std::fabs(o.ty - g.ty) < 2 * step * s + 1e-9 &&
                                    std::fabs(o.angleDeg - g.angleDeg) < 2 * astep + 1e-9);
                if (!near)
                    starts.push_back(g);
            }
            if (starts.empty())
                starts.push_back(current);
        }
        const bool finest = k == 0;
        const double tolerance = finest ? 0.004 : 0.02;
        const double first = k == int(pyramid.size()) - 1 ? 1.0 : 1.5;
        for (const RigidTransform& s0 : starts) {
            const std::vector<double> x0 = P.toX(s0);
            const std::vector<double> steps(x0.size(), first);
            auto f = [&](const std::vector<double>& x) -> double {
                const RigidTransform t = P.fromX(x);
                if (!usable(t))
                    return INFINITY;
                const double m = evaluateAll({t}).first[0];
                return std::isnan(m) ? INFINITY : -m;
            };
            const NelderMeadResult nm =
                nelderMead(f, x0, steps, tolerance, options.maxEvaluationsPerLevel, {}, cancel);
            lr.optimiserEvaluations += std::size_t(nm.evaluations);
        }
        lr.end = bestT;
        lr.metricEnd = best;
        lr.ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - levelStart)
                .count();
        if (!std::isfinite(best)) {
            lr.status = Status::Failed;
            lr.detail = "no transform left " + fixedText(100 * options.minOverlap, 0) +
                        " % of FIXED's pixels inside MOVING";
            r.levelResults.push_back(lr);
            r.status = Status::Failed;
            r.detail = "level " + std::to_string(k) + ": " + lr.detail;
            r.transform = options.initial; // nothing better was found
            r.matrix = affineMatrix(r.transform, W, H);
            for (const RegisterLevelResult& l : r.levelResults)
                r.seconds += l.ms / 1000.0;
            return r;
        }
        // The device's entropies of the level's best against the CPU reference's.
        const RegisterEntropies ref = evaluationReference(L, fixedPointAffine(bestT, W, H, k),
                                                          options.binsFixed, options.binsMoving);
        const double dmi = std::fabs(ref.mi().mi - bestE.mi().mi);
        if (ref.counted != bestE.counted)
            lr.detail = "pairs counted: device " + std::to_string(bestE.counted) +
                        ", CPU reference " + std::to_string(ref.counted);
        else if (!(dmi <= 1e-9))
            lr.detail = "MI: device " + std::to_string(bestE.mi().mi) + ", CPU reference " +
                        std::to_string(ref.mi().mi);
        lr.status = lr.detail.empty() ? Status::Verified : Status::Mismatch;
        if (lr.status != Status::Verified && r.status == Status::Verified) {
            r.status = lr.status;
            r.detail = "level " + std::to_string(k) + ": " + lr.detail;
        }
        r.levelResults.push_back(lr);
        current = bestT;
        if (finest) {
            r.end = bestE.mi();
            r.countedEnd = bestE.counted;
        }
    }
    for (const RegisterLevelResult& l : r.levelResults)
        r.seconds += l.ms / 1000.0;
    r.evaluationsPerSecond = r.seconds > 0 ? double(r.evaluations) / r.seconds : 0;
    r.transform = current;
    r.matrix = affineMatrix(current, W, H);
    logInfo("register", std::string(statusName(r.status)) + ": " +
                            transformText(r.transform, options.transform));
    return r;
}

// ---- the registered image ----

HostImage resampleRegistered(const HostImage& moving, const RigidTransform& t, int fixedWidth,
                             int fixedHeight) {
    validateImage(moving);
    const std::array<double, 6> m = affineMatrix(t, fixedWidth, fixedHeight);
    HostImage out;
    out.width = fixedWidth;
    out.height = fixedHeight;
    out.channels = moving.channels;
    out.depth = moving.depth;
    out.source = moving.source + ", registered";
    const int bytes = moving.depth / 8, ch = moving.channels;
    out.data.assign(out.pixelCount() * std::size_t(ch) * std::size_t(bytes), 0);
    auto get = [&](int x, int y, int c) -> double {
        const std::size_t i = (std::size_t(y) * moving.width + x) * ch + c;
        if (bytes == 1)
            return moving.data[i];
        if (bytes == 2) {
            std::uint16_t v;
            std::memcpy(&v, moving.data.data() + 2 * i, 2);
            return v;
        }
        float v;
        std::memcpy(&v, moving.data.data() + 4 * i, 4);
        return v;
    };
    const double maxValue = bytes == 1 ? 255 : 65535;
    parallelFor(std::size_t(fixedHeight), hostThreads(), [&](std::size_t y0, std::size_t y1) {
        for (std::size_t y = y0; y < y1; ++y)
            for (int x = 0; x < fixedWidth; ++x) {
                const double u = m[0] * x + m[1] * double(y) + m[2];
                const double v = m[3] * x + m[4] * double(y) + m[5];
                if (!(u >= 0 && v >= 0 && u <= moving.width - 1 && v <= moving.height - 1))
                    continue;
                const int ui = int(u), vi = int(v);
                const int ui1 = std::min(ui + 1, moving.width - 1),
                          vi1 = std::min(vi + 1, moving.height - 1);
                const double fu = u - ui, fv = v - vi;
                for (int c = 0; c < ch; ++c) {
                    const double value =
                        (get(ui, vi, c) * (1 - fu) + get(ui1, vi, c) * fu) * (1 - fv) +
                        (get(ui, vi1, c) * (1 - fu) + get(ui1, vi1, c) * fu) * fv;
                    const std::size_t o = (y * std::size_t(fixedWidth) + x) * ch + c;
                    if (bytes == 4) {
                        const float f = float(value);
                        std::memcpy(out.data.data() + 4 * o, &f, 4);
                    } else {
                        const double rounded = std::clamp(std::round(value), 0.0, maxValue);
                        if (bytes == 1)
                            out.data[o] = std::uint8_t(rounded);
                        else {
                            const std::uint16_t w = std::uint16_t(rounded);
                            std::memcpy(out.data.data() + 2 * o, &w, 2);
                        }
                    }
                }
            }
    });
    return out;
}

// ---- reports ----

std::string registrationText(const RegistrationResult& r) {
    std::ostringstream out;
    const RegisterOptions& o = r.options;
    out << "register: " << r.fixedSource << " (FIXED) and " << r.movingSource << " (MOVING)";
    if (!r.maskSource.empty())
        out << ", mask " << r.maskSource;
    out << "\n  device " << r.device.name << "; " << registerTransformName(o.transform) << ", "
        << registerMetricName(o.metric) << ", " << o.binsFixed << " x " << o.binsMoving << " bins, "
        << r.levels << " level(s); " << r.geometry << "\n";
    if (r.status == Status::Failed) {
        out << "  no transform found: " << r.detail << "\n";
    } else {
        out << "  transform: " << transformText(r.transform, o.transform) << "\n";
        if (r.truth)
            out << "  against the truth (" << transformText(*r.truth, RegisterTransform::Rigid)
                << "): "
                << fixedText(std::hypot(r.transform.tx - r.truth->tx, r.transform.ty - r.truth->ty),
                             4)
                << " px, " << fixedText(std::fabs(r.transform.angleDeg - r.truth->angleDeg), 4)
                << " deg\n";
        out << "  MI " << fixedText(r.start.mi, 4) << " -> " << fixedText(r.end.mi, 4)
            << " bits, NMI " << fixedText(r.start.nmiStudholme, 4) << " -> "
            << fixedText(r.end.nmiStudholme, 4) << " (pairs counted " << r.countedStart << " -> "
            << r.countedEnd << ")\n";
    }
    out << "  " << r.evaluations << " evaluations in " << fixedText(r.seconds, 3)
        << " s: " << fixedText(r.evaluationsPerSecond, 0) << " a second\n";
    TextTable t({{"level", TextTable::Align::Right},
                 {"size", TextTable::Align::Left},
                 {"grid", TextTable::Align::Right},
                 {"optimiser", TextTable::Align::Right},
                 {"no MI", TextTable::Align::Right},
                 {"ms", TextTable::Align::Right},
                 {registerMetricName(o.metric), TextTable::Align::Right},
                 {"transform", TextTable::Align::Left},
                 {"status", TextTable::Align::Left}},
                "  ");
    for (const RegisterLevelResult& l : r.levelResults)
        t.add({std::to_string(l.level), std::to_string(l.width) + " x " + std::to_string(l.height),
               std::to_string(l.gridEvaluations), std::to_string(l.optimiserEvaluations),
               std::to_string(l.undefinedEvaluations), fixedText(l.ms, 1),
               std::isfinite(l.metricEnd) ? fixedText(l.metricEnd, 4) : std::string("-"),
               std::isfinite(l.metricEnd) ? transformText(l.end, o.transform) : std::string("-"),
               std::string(statusName(l.status)) + (l.detail.empty() ? "" : ": " + l.detail)});
    out << t.text();
    if (!r.benchmark.empty()) {
        out << "  MI evaluations a second on level 0, timed in turns:\n";
        TextTable b({{"", TextTable::Align::Left},
                     {"per second", TextTable::Align::Right},
                     {"median ms", TextTable::Align::Right},
                     {"min ms", TextTable::Align::Right},
                     {"max ms", TextTable::Align::Right},
                     {"status", TextTable::Align::Left}},
                    "    ");
        for (const RegisterBenchmarkRow& row : r.benchmark)
            b.add({row.what, fixedText(row.perSecond, 0), fixedText(row.ms.medianMs, 3),
                   fixedText(row.ms.minMs, 3), fixedText(row.ms.maxMs, 3),
                   std::string(statusName(row.status)) +
                       (row.detail.empty() ? "" : ": " + row.detail)});
        out << b.text();
    }
    return out.str();
}

namespace {

std::string numberOrEmpty(double v) {
    return std::isfinite(v) ? numberText(v) : std::string();
}

Json numberOrNull(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

Json miJson(const MutualInformation& m) {
    return Json{{"entropy_fixed", m.entropyA},
                {"entropy_moving", m.entropyB},
                {"joint_entropy", m.jointEntropy},
                {"mi", m.mi},
                {"nmi_studholme", numberOrNull(m.nmiStudholme)}};
}

Json transformJson(const RigidTransform& t) {
    return Json{{"tx", t.tx}, {"ty", t.ty}, {"angle_deg", t.angleDeg}};
}

} // namespace

std::string registrationCsv(const RegistrationResult& r) {
    Table t({"fixed",     "moving",    "transform",   "metric",   "tx",
             "ty",        "angle_deg", "m00",         "m01",      "m02",
             "m10",       "m11",       "m12",         "mi_start", "mi_end",
             "nmi_start", "nmi_end",   "evaluations", "seconds",  "evaluations_per_second",
             "status",    "detail"});
    auto row = t.row();
    row.add(r.fixedSource)
        .add(r.movingSource)
        .add(registerTransformName(r.options.transform))
        .add(registerMetricName(r.options.metric))
        .add(r.transform.tx)
        .add(r.transform.ty)
        .add(r.transform.angleDeg);
    for (double v : r.matrix)
        row.add(v);
    row.add(r.start.mi)
        .add(r.end.mi)
        .add(numberOrEmpty(r.start.nmiStudholme))
        .add(numberOrEmpty(r.end.nmiStudholme))
        .add(r.evaluations)
        .add(r.seconds)
        .add(r.evaluationsPerSecond)
        .add(statusName(r.status))
        .add(r.detail);
    return t.csv();
}

std::string registrationStepsCsv(const RegistrationResult& r) {
    Table t({"level", "evaluation", "metric", "tx", "ty", "angle_deg"});
    for (const RegisterStep& s : r.steps)
        t.row()
            .add(s.level)
            .add(s.evaluation)
            .add(s.metric)
            .add(s.transform.tx)
            .add(s.transform.ty)
            .add(s.transform.angleDeg);
    return t.csv();
}

std::string registrationJson(const RegistrationResult& r) {
    const RegisterOptions& o = r.options;
    Json levels = Json::array();
    for (const RegisterLevelResult& l : r.levelResults)
        levels.push_back({{"level", l.level},
                          {"width", l.width},
                          {"height", l.height},
                          {"grid_evaluations", l.gridEvaluations},
                          {"optimiser_evaluations", l.optimiserEvaluations},
                          {"evaluations_without_mi", l.undefinedEvaluations},
                          {"ms", l.ms},
                          {"start", transformJson(l.start)},
                          {"end", transformJson(l.end)},
                          {"metric_start", numberOrNull(l.metricStart)},
                          {"metric_end", numberOrNull(l.metricEnd)},
                          {"status", statusName(l.status)},
                          {"detail", l.detail}});
    Json steps = Json::array();
    for (const RegisterStep& s : r.steps)
        steps.push_back({{"level", s.level},
                         {"evaluation", s.evaluation},
                         {"metric", s.metric},
                         {"transform", transformJson(s.transform)}});
    Json bench = Json::array();
    for (const RegisterBenchmarkRow& row : r.benchmark)
        bench.push_back({{"what", row.what},
                         {"transforms", row.transforms},
                         {"per_second", row.perSecond},
                         {"timing", timingJson(row.ms)},
                         {"status", statusName(row.status)},
                         {"detail", row.detail}});
    Json j{{"tool", "histlab-cli register"},
           {"date", utcTimestamp()},
           {"device", deviceJson(r.device)},
           {"fixed", r.fixedSource},
           {"moving", r.movingSource},
           {"mask", r.maskSource.empty() ? Json(nullptr) : Json(r.maskSource)},
           {"transform_kind", registerTransformName(o.transform)},
           {"metric", registerMetricName(o.metric)},
           {"bins", {o.binsFixed, o.binsMoving}},
           {"levels", r.levels},
           {"min_overlap", o.minOverlap},
           {"initial", transformJson(o.initial)},
           {"transform", transformJson(r.transform)},
           {"matrix",
            {{r.matrix[0], r.matrix[1], r.matrix[2]}, {r.matrix[3], r.matrix[4], r.matrix[5]}}},
           {"start", miJson(r.start)},
           {"end", miJson(r.end)},
           {"pairs_start", r.countedStart},
           {"pairs_end", r.countedEnd},
           {"evaluations", r.evaluations},
           {"seconds", r.seconds},
           {"evaluations_per_second", r.evaluationsPerSecond},
           {"geometry", r.geometry},
           {"per_level", levels},
           {"steps", steps},
           {"benchmark", bench},
           {"truth", r.truth ? transformJson(*r.truth) : Json(nullptr)},
           {"status", statusName(r.status)},
           {"detail", r.detail}};
    return jsonText(j);
}

} // namespace histlab
