#include "pipelines/bow/bow.h"

#include "runtime/buildoptions.h"
#include "runtime/errors.h"
#include "runtime/parallel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <sstream>

namespace histlab {

namespace {

// The label bit a kernel sets where its float distances cannot call the order (kernels/bow.cl).
constexpr std::uint32_t kAmbiguous = 0x80000000u;

struct KernelEntry {
    BowKernel kernel;
    const char* name;
};
constexpr KernelEntry kKernels[] = {{BowKernel::Gpu1, "gpu1"},
                                    {BowKernel::Gpu2, "gpu2"},
                                    {BowKernel::Gpu3, "gpu3"},
                                    {BowKernel::Gpu4, "gpu4"},
                                    {BowKernel::Gpu5, "gpu5"},
                                    {BowKernel::Tiled, "tiled"},
                                    {BowKernel::TiledNorm, "tiled-norm"},
                                    {BowKernel::BlockNorm, "block-norm"}};

bool tiled(BowKernel kernel) {
    return kernel == BowKernel::Tiled || kernel == BowKernel::TiledNorm;
}

/// The kernels that rank by ||c||^2 - 2 x.c (centroid norms and the rounding bound's M), and
/// count in a local histogram where K counters fit.
bool normOrTiled(BowKernel kernel) {
    return tiled(kernel) || kernel == BowKernel::BlockNorm;
}

/// The codebook feature-major (feature f of centroid c at f * stride + c), zeros past K.
std::vector<float> featureMajor(const Codebook& codebook, std::size_t stride) {
    std::vector<float> out(stride * codebook.dim, 0.0f);
    for (std::size_t c = 0; c < codebook.k; ++c)
        for (std::size_t f = 0; f < codebook.dim; ++f)
            out[f * stride + c] = codebook.values[c * codebook.dim + f];
    return out;
}

bool usesFloat4(BowKernel kernel) {
    return kernel != BowKernel::Gpu1 && kernel != BowKernel::Gpu2;
}

/// The largest power of two <= limit (at least 1).
std::size_t powerOfTwoAtMost(std::size_t limit) {
    std::size_t p = 1;
    while (p * 2 <= limit)
        p *= 2;
    return p;
}

BowGeometry unsupported(BowGeometry g, std::string why) {
    g.supported = false;
    g.why = std::move(why);
    return g;
}

std::string bowBuildOptions(const BowGeometry& g, std::size_t k, std::size_t dim) {
    BuildOptions o;
    o.define("BOW_KERNEL", int(g.kernel) + 1);
    o.define("DIM", (long long)dim);
    o.define("WG", (long long)g.workGroupSize);
    if (tiled(g.kernel)) {
        o.define("ROWS", (long long)g.rows);
        o.define("TILE", (long long)g.tile);
    }
    if (g.kernel == BowKernel::BlockNorm) {
        o.define("TM", (long long)g.rows);
        o.define("TN", (long long)g.cols);
        o.define("WX", (long long)g.across);
        o.define("WY", (long long)(g.workGroupSize / g.across));
        // A 32-item hardware group covers SX descriptor columns x SY centroid rows of items.
        const std::size_t sx = std::min<std::size_t>(g.across, 4);
        o.define("SX", (long long)sx);
        o.define("SY", (long long)std::min(g.workGroupSize / g.across, 32 / sx));
        // The padded codebook's row length (K rounded up to a tile) as a constant.
        o.define("KPAD", (long long)((k + g.tile - 1) / g.tile * g.tile));
    }
    if (normOrTiled(g.kernel)) {
        o.define("LOCAL_HIST", g.localHistogram);
        o.define("LOCAL_HIST_K", (long long)(g.localHistogram ? k : 1));
    }
    return o.text();
}

/// The descriptors in the layout `kernel` reads: descriptor-major (GPU1), feature-major (GPU2),
/// or feature-major in float4s (the rest: features 4q ... 4q + 3 of descriptor i at float4
/// q * n + i).
std::vector<float> deviceLayout(const Descriptors& d, BowKernel kernel) {
    if (kernel == BowKernel::Gpu1)
        return d.values;
    std::vector<float> out(d.values.size());
    const std::size_t n = d.count, dim = d.dim;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t f = 0; f < dim; ++f) {
            const std::size_t at =
                kernel == BowKernel::Gpu2 ? f * n + i : ((f / 4) * n + i) * 4 + f % 4;
            out[at] = d.values[i * dim + f];
        }
    return out;
}

} // namespace

const std::vector<BowKernel>& allBowKernels() {
    static const std::vector<BowKernel> all = [] {
        std::vector<BowKernel> v;
        for (const KernelEntry& e : kKernels)
            v.push_back(e.kernel);
        return v;
    }();
    return all;
}

const char* bowKernelName(BowKernel kernel) {
    for (const KernelEntry& e : kKernels)
        if (e.kernel == kernel)
            return e.name;
    return "?";
}

BowKernel parseBowKernel(const std::string& name) {
    std::string names;
    for (const KernelEntry& e : kKernels) {
        if (name == e.name)
            return e.kernel;
        names += std::string(names.empty() ? "" : ", ") + e.name;
    }
    throw UsageError("--kernel", "'" + name + "' is not one of " + names);
}

double bowFlopsPerDescriptor(BowKernel kernel, std::size_t k, std::size_t dim) {
    const bool normForm = kernel == BowKernel::TiledNorm || kernel == BowKernel::BlockNorm;
    return (normForm ? 2.0 : 3.0) * double(k) * double(dim);
}

double squaredDistance(const float* a, const float* b, std::size_t dim) {
    double d = 0;
    for (std::size_t f = 0; f < dim; ++f) {
        const double t = double(a[f]) - double(b[f]);
        d += t * t;
    }
    return d;
}

std::string firstMismatch(const Assignment& got, const Assignment& want) {
    for (std::size_t i = 0; i < want.labels.size(); ++i)
        if (got.labels[i] != want.labels[i])
            return "descriptor " + std::to_string(i) + ": centroid " +
                   std::to_string(got.labels[i]) + ", reference " + std::to_string(want.labels[i]);
    for (std::size_t c = 0; c < want.histogram.size(); ++c)
        if (got.histogram[c] != want.histogram[c])
            return "bin " + std::to_string(c) + ": " + std::to_string(got.histogram[c]) +
                   ", reference " + std::to_string(want.histogram[c]);
    return {};
}

std::uint32_t nearestCentroid(const float* x, const Codebook& codebook) {
    std::uint32_t best = 0;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < codebook.k; ++c) {
        const double d =
            squaredDistance(x, codebook.values.data() + c * codebook.dim, codebook.dim);
        if (d < bestDistance) {
            bestDistance = d;
            best = std::uint32_t(c);
        }
    }
    return best;
}

void forEachShare(std::size_t count, std::size_t minShare,
                  const std::function<void(std::size_t lo, std::size_t hi)>& work) {
    parallelFor(
        count,
        std::clamp<std::size_t>(
            hostThreads(), 1, std::max<std::size_t>(1, count / std::max<std::size_t>(1, minShare))),
        work);
}

Assignment assignReference(const Descriptors& descriptors, const Codebook& codebook) {
    Assignment a;
    a.labels.resize(descriptors.count);
    a.histogram.assign(codebook.k, 0);
    // Every core takes a contiguous share of the descriptors: 2 M descriptors against 1,024
    // centroids of 64 floats are 10^11 operations in double precision.
    forEachShare(descriptors.count, 1024, [&](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i)
            a.labels[i] =
                nearestCentroid(descriptors.values.data() + i * descriptors.dim, codebook);
    });
    for (std::uint32_t label : a.labels)
        ++a.histogram[label];
    return a;
}

namespace {

/// `count` points of `dim` floats around `centres` random centres in [0, 1)^dim (spread 0.05).
std::vector<float> clusteredPoints(std::size_t count, std::size_t dim, std::size_t centres,
                                   std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::normal_distribution<float> spread(0.0f, 0.05f);
    std::vector<float> centre(centres * dim);
    for (float& v : centre)
        v = unit(rng);
    std::vector<float> out(count * dim);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t c = rng() % centres;
        for (std::size_t f = 0; f < dim; ++f)
            out[i * dim + f] = centre[c * dim + f] + spread(rng);
    }
    return out;
}

// Both synthetic sets gather around the same 64 centres (the seed's first draws), so the
// descriptors fall near the codebook's centroids as real features fall near their words.
constexpr std::size_t kSyntheticCentres = 64;

} // namespace

Descriptors makeSyntheticDescriptors(std::size_t count, std::size_t dim, std::uint64_t seed) {
    Descriptors d;
    d.count = count;
    d.dim = dim;
    d.values = clusteredPoints(count, dim, kSyntheticCentres, seed);
    return d;
}

Codebook makeSyntheticCodebook(std::size_t k, std::size_t dim, std::uint64_t seed) {
    Codebook c;
    c.k = k;
    c.dim = dim;
    c.values = clusteredPoints(k, dim, kSyntheticCentres, seed);
    return c;
}

std::string BowGeometry::describe() const {
    if (!supported)
        return "-";
    std::ostringstream s;
    s << "wg " << workGroupSize << " x " << groups << " groups";
    if (tiled(kernel))
        s << ", " << rows << (rows == 1 ? " row" : " rows") << ", tiles of " << tile
          << " centroids, " << (localHistogram ? "local" : "global") << " histogram";
    if (kernel == BowKernel::BlockNorm)
        s << ", " << rows << " x " << cols << " a work-item, " << rows * across
          << " descriptors x tiles of " << tile << " centroids, "
          << (localHistogram ? "local" : "global") << " histogram";
    return s.str();
}

namespace {

/// The smallest power of two >= value (at least 1).
std::size_t powerOfTwoAtLeast(std::size_t value) {
    std::size_t p = 1;
    while (p < value)
        p *= 2;
    return p;
}

/// block-norm's blocks. A GPU item keeps 8 x 8 dot products in registers (64 accumulators:
/// each feature it reads serves 8 multiply-adds), 4 x 16 items a group: 32 descriptors against
/// tiles of 128 centroids (fewer centroid rows where K is small, so that padding does not
/// dominate, and then more descriptor columns). On an H100 at D 64, K 1,024 this was the fastest
/// of the blocks measured (bench/results/gpu-h100-bow-block-2026-11-26): 64 to 256 items, 4 x 8
/// to 16 x 16 a item; groups of 256 were slower (fewer groups an SM at 145 registers an item).
/// Fewer descriptors where DIM is large, so that the group's descriptors fit local memory. On
/// a CPU (PoCL, this project's 2-core machine) an item of 8 x 16 alone in its group was the
/// fastest of 8 x 8, 12 x 8, 4 x 16, 8 x 16 and 4 x 32 (groups of 1; 4 x 4 items 16 to a group
/// were 3 times slower): its compiler turns the item's block into vector multiply-adds.
BowGeometry planBlock(BowGeometry g, const DeviceInfo& device, std::size_t count, std::size_t k,
                      std::size_t dim) {
    const bool cpu = device.type == DeviceType::Cpu;
    const std::size_t maxWg = std::max<std::size_t>(1, device.maxWorkGroupSize);
    const std::size_t tm = 8, tn = cpu ? 16 : 8;
    std::size_t wx = cpu ? 1 : 4, wy = cpu ? 1 : 16;
    if (!cpu) {
        wy = std::min<std::size_t>(wy, powerOfTwoAtLeast((k + tn - 1) / tn));
        wx = std::max<std::size_t>(wx, 64 / wy);
    }
    const std::size_t localBytes = device.localMemBytes;
    const auto scratchBytes = [&] {
        return std::max(dim * tm * wx, 3 * tm * wx * wy) * sizeof(float);
    };
    while ((wx * wy > maxWg || scratchBytes() > localBytes) && wx > 1)
        wx /= 2;
    while (wx * wy > maxWg && wy > 1)
        wy /= 2;
    g.rows = tm;
    g.cols = tn;
    g.across = wx;
    g.workGroupSize = wx * wy;
    g.tile = tn * wy;
    if (scratchBytes() > localBytes)
        return unsupported(g, std::to_string(scratchBytes()) +
                                  " bytes of staged descriptors do not fit the " +
                                  std::to_string(localBytes) + " bytes of local memory");
    g.localHistogram = scratchBytes() + k * sizeof(std::uint32_t) <= localBytes &&
                       k * sizeof(std::uint32_t) <= localBytes / 4;
    g.groups = (count + tm * wx - 1) / (tm * wx);
    return g;
}

} // namespace

BowGeometry planBowKernel(const DeviceInfo& device, BowKernel kernel, std::size_t count,
                          std::size_t k, std::size_t dim) {
    BowGeometry g;
    g.kernel = kernel;
    if (dim == 0 || dim > kBowMaxDim)
        return unsupported(g, "descriptors of " + std::to_string(dim) +
                                  " floats: the kernels are built for 1 to " +
                                  std::to_string(kBowMaxDim));
    if (k == 0 || k >= kAmbiguous)
        return unsupported(g, "a codebook of " + std::to_string(k) + " centroids");
    if (count >= kAmbiguous)
        return unsupported(g, std::to_string(count) + " descriptors: at most 2^31 - 1 a launch");
    if (usesFloat4(kernel) && dim % 4 != 0)
        return unsupported(g, "descriptors of " + std::to_string(dim) +
                                  " floats: the float4 kernels need a multiple of 4");
    const std::uint64_t bytes = std::uint64_t(count) * dim * sizeof(float);
    if (device.maxAllocBytes && bytes > device.maxAllocBytes)
        return unsupported(g, std::to_string(bytes) + " bytes of descriptors exceed the device's " +
                                  std::to_string(device.maxAllocBytes) + "-byte buffers");
    const bool cpu = device.type == DeviceType::Cpu;
    const std::size_t maxWg = std::max<std::size_t>(1, device.maxWorkGroupSize);
    // A CPU runs a work-group's items one after another on one thread: small groups, many of
    // them. A GPU wants enough items a group to hide memory latency.
    g.workGroupSize = std::min<std::size_t>(cpu ? 16 : 256, maxWg);
    const std::size_t localBytes = device.localMemBytes;
    switch (kernel) {
    case BowKernel::Gpu1:
    case BowKernel::Gpu2:
    case BowKernel::Gpu3:
        break;
    case BowKernel::Gpu5: {
        const std::uint64_t codebookBytes = std::uint64_t(k) * dim * sizeof(float);
        if (!device.constantMemBytes)
            return unsupported(g, "the device does not report its constant memory");
        if (codebookBytes > *device.constantMemBytes)
            return unsupported(g, std::to_string(k) + " x " + std::to_string(dim) + " floats (" +
                                      std::to_string(codebookBytes) + " bytes) do not fit the " +
                                      std::to_string(*device.constantMemBytes) +
                                      " bytes of constant memory");
        [[fallthrough]];
    }
    case BowKernel::Gpu4: {
        // The work-group's descriptors in local memory: half of it at most.
        const std::size_t perItem = dim * sizeof(float);
        if (localBytes / 2 < perItem)
            return unsupported(g, "one descriptor does not fit half of the " +
                                      std::to_string(localBytes) + " bytes of local memory");
        g.workGroupSize = powerOfTwoAtMost(std::min(g.workGroupSize, localBytes / 2 / perItem));
        break;
    }
    case BowKernel::Tiled:
    case BowKernel::TiledNorm: {
        if (!cpu)
            g.workGroupSize = std::min<std::size_t>(128, maxWg);
        // Up to 128 floats of descriptors a work-item in registers: 2 rows at DIM 64.
        g.rows = std::clamp<std::size_t>(128 / dim, 1, 4);
        // A quarter of local memory for the histogram where K counters fit it, the rest (up to
        // half of it) for the centroid tile.
        g.localHistogram = k * sizeof(std::uint32_t) <= localBytes / 4;
        // A centroid takes its DIM floats, and its norm in the ||c||^2 - 2 x.c form.
        const std::size_t perCentroid =
            (dim + (kernel == BowKernel::TiledNorm ? 1 : 0)) * sizeof(float);
        g.tile = std::min<std::size_t>(256, localBytes / 2 / perCentroid);
        if (g.tile == 0)
            return unsupported(g, "one centroid does not fit half of the " +
                                      std::to_string(localBytes) + " bytes of local memory");
        g.groups = (count + g.workGroupSize * g.rows - 1) / (g.workGroupSize * g.rows);
        return g;
    }
    case BowKernel::BlockNorm:
        return planBlock(g, device, count, k, dim);
    }
    g.groups = (count + g.workGroupSize - 1) / g.workGroupSize;
    return g;
}

namespace {

bool hasFp64(const DeviceInfo& device) {
    return hasExtension(device, "cl_khr_fp64");
}

/// The descriptor layout of `kernel` as bow_resolve reads it (LAYOUT: 1 descriptor-major, 2
/// feature-major, 3 feature-major in float4s; see deviceLayout).
int layoutOf(BowKernel kernel) {
    return kernel == BowKernel::Gpu1 ? 1 : kernel == BowKernel::Gpu2 ? 2 : 3;
}

/// bow_resolve's work-groups: kResolveItems items deciding kResolveRows listed descriptors (the
/// fastest of 64, 128 and 256 items, 4, 8 and 16 rows on an H100 at D 64, K 1,024; fewer items
/// where the device's work-groups are smaller).
constexpr std::size_t kResolveItems = 256, kResolveRows = 8;

std::size_t resolveItems(const DeviceInfo& device) {
    return powerOfTwoAtMost(
        std::min<std::size_t>(kResolveItems, std::max<std::size_t>(1, device.maxWorkGroupSize)));
}

std::string resolveOptions(const DeviceInfo& device, std::size_t dim, BowKernel kernel) {
    BuildOptions o;
    o.define("BOW_RESOLVE", 1);
    o.define("RESOLVE_WG", (long long)resolveItems(device));
    o.define("RESOLVE_ROWS", (long long)kResolveRows);
    o.define("DIM", (long long)dim);
    o.define("LAYOUT", layoutOf(kernel));
    return o.text();
}

/// The nearest centroids of the descriptors `which` (indices), as nearestCentroid decides, on
/// the host's cores: for devices without cl_khr_fp64.
std::vector<std::uint32_t> resolveOnHost(const Descriptors& d, const Codebook& codebook,
                                         const std::vector<std::uint32_t>& which) {
    Descriptors picked;
    picked.dim = d.dim;
    picked.count = which.size();
    picked.values.resize(which.size() * d.dim);
    for (std::size_t j = 0; j < which.size(); ++j)
        std::copy_n(d.values.begin() + std::ptrdiff_t(std::size_t(which[j]) * d.dim), d.dim,
                    picked.values.begin() + std::ptrdiff_t(j * d.dim));
    return assignReference(picked, codebook).labels;
}

} // namespace

BowAssigner::BowAssigner(Device& device, BowKernel kernel)
    : m_device(device)
    , m_kernel(kernel) {
    m_geometry.kernel = kernel;
    m_geometry.supported = false;
    m_geometry.why = "no descriptors and codebook yet";
}

// Both setters only plan; the buffers are made by the next launch, once the plan says they fit.
void BowAssigner::setDescriptors(const Descriptors& descriptors) {
    m_descriptors = &descriptors;
    m_descriptorsOnDevice = false;
    replan();
}

void BowAssigner::setCodebook(const Codebook& codebook) {
    m_codebook = &codebook;
    m_codebookOnDevice = false;
    replan();
}

void BowAssigner::planAs(const DeviceInfo& device) {
    m_planAs = device;
    replan();
}

void BowAssigner::replan() {
    if (!m_descriptors || !m_codebook)
        return;
    if (m_descriptors->dim != m_codebook->dim) {
        m_geometry.supported = false;
        m_geometry.why = "descriptors of " + std::to_string(m_descriptors->dim) +
                         " floats against a codebook of " + std::to_string(m_codebook->dim);
        return;
    }
    m_geometry = planBowKernel(m_planAs ? *m_planAs : m_device.info(), m_kernel,
                               m_descriptors->count, m_codebook->k, m_codebook->dim);
    if (m_geometry.supported)
        m_options = bowBuildOptions(m_geometry, m_codebook->k, m_codebook->dim);
}

void BowAssigner::upload() {
    const cl::Context& ctx = m_device.context();
    const Descriptors& d = *m_descriptors;
    const Codebook& codebook = *m_codebook;
    if (!m_descriptorsOnDevice) {
        std::vector<float> layout = deviceLayout(d, m_kernel);
        const std::size_t count = std::max<std::size_t>(d.count, 1); // no empty buffers
        layout.resize(std::max(layout.size(), count * d.dim));
        m_desc = cl::Buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            layout.size() * sizeof(float), layout.data());
        m_labels = cl::Buffer(ctx, CL_MEM_READ_WRITE, count * sizeof(std::uint32_t));
        m_descriptorsOnDevice = true;
    }
    if (!m_codebookOnDevice) {
        m_centsT = cl::Buffer(); // made again by the next resolution that needs it
        // block-norm reads the centroids feature-major, padded to whole tiles (zeros, with
        // norms of +inf: never nearer than a real centroid).
        const bool block = m_kernel == BowKernel::BlockNorm;
        const std::size_t kPad =
            block ? (codebook.k + m_geometry.tile - 1) / m_geometry.tile * m_geometry.tile
                  : codebook.k;
        if (block) {
            std::vector<float> padded = featureMajor(codebook, kPad);
            m_cents = cl::Buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                 padded.size() * sizeof(float), padded.data());
        } else {
            m_cents = cl::Buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                 codebook.values.size() * sizeof(float),
                                 const_cast<float*>(codebook.values.data())); // only read
        }
        m_hist = cl::Buffer(ctx, CL_MEM_READ_WRITE, codebook.k * sizeof(std::uint32_t));
        if (normOrTiled(m_kernel)) {
            // ||c||^2 of every centroid (the norm form ranks by ||c||^2 - 2 x.c), and the
            // largest ||c|| rounded up, for the kernel's rounding bound.
            std::vector<float> squares(kPad, std::numeric_limits<float>::infinity());
            double largest = 0;
            for (std::size_t c = 0; c < codebook.k; ++c) {
                double sum = 0;
                for (std::size_t f = 0; f < codebook.dim; ++f)
                    sum += double(codebook.values[c * codebook.dim + f]) *
                           double(codebook.values[c * codebook.dim + f]);
                squares[c] = float(sum);
                largest = std::max(largest, std::sqrt(sum));
            }
            m_maxNorm = float(largest);
            if (double(m_maxNorm) < largest)
                m_maxNorm = std::nextafter(m_maxNorm, std::numeric_limits<float>::infinity());
            m_norms = cl::Buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                 squares.size() * sizeof(float), squares.data());
        }
        m_codebookOnDevice = true;
    }
    if (m_options != m_kernelOptions) {
        const cl::Program program = m_device.program("bow", m_options);
        std::string name = std::string("bow_") + bowKernelName(m_kernel);
        std::replace(name.begin(), name.end(), '-', '_');
        m_assign = cl::Kernel(program, name.c_str());
        m_kernelOptions = m_options;
    }
    m_assign.setArg(0, m_desc);
    m_assign.setArg(1, cl_uint(d.count));
    m_assign.setArg(2, m_cents);
    m_assign.setArg(3, cl_uint(codebook.k));
    m_assign.setArg(4, m_labels);
    m_assign.setArg(5, m_hist);
    if (normOrTiled(m_kernel)) {
        m_assign.setArg(6, m_norms);
        m_assign.setArg(7, m_maxNorm);
    }
}

double BowAssigner::launch() {
    if (!m_geometry.supported)
        throw UsageError("--kernel", std::string(bowKernelName(m_kernel)) + ": " + m_geometry.why);
    upload();
    const BowGeometry& g = m_geometry;
    std::vector<cl::Event> events(1);
    cl::CommandQueue& queue = m_device.queue();
    queue.enqueueFillBuffer(m_hist, cl_uint(0), 0, m_codebook->k * sizeof(std::uint32_t), nullptr,
                            &events[0]);
    if (m_descriptors->count) {
        events.emplace_back();
        queue.enqueueNDRangeKernel(m_assign, cl::NullRange, cl::NDRange(g.groups * g.workGroupSize),
                                   cl::NDRange(g.workGroupSize), nullptr, &events[1]);
    }
    queue.finish();
    return profiledMs(events);
}

std::size_t BowAssigner::resolveOnDevice() {
    const std::size_t n = m_descriptors->count, k = m_codebook->k;
    const std::string options = resolveOptions(m_device.info(), m_descriptors->dim, m_kernel);
    if (options != m_resolveOptions) { // made once, not every call
        const cl::Program program = m_device.program("bow", options);
        m_listKernel = cl::Kernel(program, "bow_list_ambiguous");
        m_resolveKernel = cl::Kernel(program, "bow_resolve");
        m_resolveOptions = options;
    }
    const cl::Context& ctx = m_device.context();
    cl::CommandQueue& queue = m_device.queue();
    if (!m_found())
        m_found = cl::Buffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_uint));
    if (!m_centsT()) {
        // The codebook feature-major for bow_resolve (a work-item a centroid): made once a
        // codebook.
        std::vector<float> transposed = featureMajor(*m_codebook, k);
        m_centsT = cl::Buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              transposed.size() * sizeof(float), transposed.data());
    }
    // Room for 1 in 64 at first (the norm form marks about 1 in 350 on the synthetic set).
    // bow_resolve reads the count where the list left it, so nothing waits on the host between
    // the two; the count read afterwards says whether the list overflowed, and then a longer
    // list gathers the labels still marked and they are decided in a second pass.
    std::size_t capacity = std::max<std::size_t>(1024, n / 64);
    std::size_t first = 0;
    cl::Kernel& list = m_listKernel;
    cl::Kernel& resolve = m_resolveKernel;
    std::vector<cl::Event> events;
    for (int pass = 0; pass < 2; ++pass) {
        if (m_listCapacity < capacity) {
            m_list = cl::Buffer(ctx, CL_MEM_READ_WRITE, capacity * sizeof(cl_uint));
            m_listCapacity = capacity;
        }
        queue.enqueueFillBuffer(m_found, cl_uint(0), 0, sizeof(cl_uint));
        list.setArg(0, m_labels);
        list.setArg(1, cl_uint(n));
        list.setArg(2, m_list);
        list.setArg(3, cl_uint(m_listCapacity));
        list.setArg(4, m_found);
        events.emplace_back();
        queue.enqueueNDRangeKernel(list, cl::NullRange, cl::NDRange((n + 255) / 256 * 256),
                                   cl::NDRange(256), nullptr, &events.back());
        resolve.setArg(0, m_desc);
        resolve.setArg(1, cl_uint(n));
        resolve.setArg(2, m_list);
        resolve.setArg(3, cl_uint(m_listCapacity));
        resolve.setArg(4, m_found);
        resolve.setArg(5, m_centsT);
        resolve.setArg(6, cl_uint(k));
        resolve.setArg(7, m_labels);
        resolve.setArg(8, m_hist);
        // A group for every kResolveRows entries the list can hold; those past the count
        // return at once.
        const std::size_t groups = (m_listCapacity + kResolveRows - 1) / kResolveRows;
        const std::size_t items = resolveItems(m_device.info());
        events.emplace_back();
        queue.enqueueNDRangeKernel(resolve, cl::NullRange, cl::NDRange(groups * items),
                                   cl::NDRange(items), nullptr, &events.back());
        cl_uint found = 0;
        queue.enqueueReadBuffer(m_found, CL_TRUE, 0, sizeof(cl_uint), &found);
        if (pass == 0)
            first = found;
        if (found <= m_listCapacity)
            break;
        capacity = found;
    }
    m_resolveDeviceMs = profiledMs(events);
    return first;
}

Assignment BowAssigner::result() {
    const Descriptors& descriptors = *m_descriptors;
    const Codebook& codebook = *m_codebook;
    Assignment got;
    got.labels.resize(descriptors.count);
    std::vector<std::uint32_t> counts(codebook.k);
    cl::CommandQueue& queue = m_device.queue();
    m_where.clear();
    m_ambiguous = 0;
    m_resolveDeviceMs = 0;
    const bool onDevice = hasFp64(m_device.info()) && descriptors.count;
    if (onDevice) // built before the clock starts, as the kernels are
        m_device.program("bow", resolveOptions(m_device.info(), descriptors.dim, m_kernel));
    auto start = std::chrono::steady_clock::now();
    if (onDevice) {
        // The device counted each ambiguous descriptor under its float label; bow_resolve
        // moves it where the exact order puts it, and nothing but a counter leaves the device.
        m_ambiguous = resolveOnDevice();
        m_where = m_ambiguous ? "device" : "";
        m_resolveMs = msSince(start);
    }
    if (descriptors.count)
        queue.enqueueReadBuffer(m_labels, CL_TRUE, 0, got.labels.size() * sizeof(std::uint32_t),
                                got.labels.data());
    queue.enqueueReadBuffer(m_hist, CL_TRUE, 0, counts.size() * sizeof(std::uint32_t),
                            counts.data());
    got.histogram.assign(counts.begin(), counts.end());
    if (onDevice)
        return got;
    start = std::chrono::steady_clock::now();
    std::vector<std::uint32_t> which;
    for (std::size_t i = 0; i < got.labels.size(); ++i)
        if (got.labels[i] & kAmbiguous)
            which.push_back(std::uint32_t(i));
    m_ambiguous = which.size();
    if (!which.empty()) {
        m_where = "host";
        const std::vector<std::uint32_t> exact = resolveOnHost(descriptors, codebook, which);
        for (std::size_t j = 0; j < which.size(); ++j) {
            const std::uint32_t i = which[j], floatLabel = got.labels[i] & ~kAmbiguous;
            got.labels[i] = exact[j];
            if (floatLabel < codebook.k && got.histogram[floatLabel] > 0) {
                --got.histogram[floatLabel];
                ++got.histogram[exact[j]];
            }
        }
    }
    m_resolveMs = msSince(start);
    return got;
}

BowRun runBowKernel(Device& device, const Descriptors& descriptors, const Codebook& codebook,
                    BowKernel kernel, const Assignment& reference, int repeats,
                    const CancelToken& cancel) {
    BowRun run;
    run.kernel = kernel;
    run.geometry =
        planBowKernel(device.info(), kernel, descriptors.count, codebook.k, descriptors.dim);
    if (!run.geometry.supported) {
        run.detail = run.geometry.why;
        return run;
    }
    if (descriptors.count == 0) {
        run.status = Status::NotApplicable;
        run.detail = "no descriptors";
        return run;
    }
    try {
        BowAssigner assigner(device, kernel);
        assigner.setDescriptors(descriptors);
        assigner.setCodebook(codebook);
        run.geometry = assigner.geometry();
        run.buildOptions = assigner.buildOptions();
        // Every launch's labels decided too, so that the decisions are timed warm, as the
        // kernel is (the warm-up's, which builds and loads their kernels, is left out): the
        // median of the timed runs.
        std::vector<double> resolves, onDevice;
        run.stats = timeRepeated(
            repeats,
            [&] {
                const double ms = assigner.launch();
                run.result = assigner.result();
                resolves.push_back(assigner.resolveMs());
                onDevice.push_back(assigner.resolveDeviceMs());
                return ms;
            },
            cancel);
        if (!resolves.empty()) { // the warm-up's
            resolves.erase(resolves.begin());
            onDevice.erase(onDevice.begin());
        }
        run.ambiguous = assigner.ambiguous();
        run.resolveMs = summarize(std::move(resolves)).medianMs;
        run.resolveDeviceMs = summarize(std::move(onDevice)).medianMs;
        run.resolvedOn = assigner.resolvedOn();
        run.detail = firstMismatch(run.result, reference);
        run.status = run.detail.empty() ? Status::Verified : Status::Mismatch;
        const double ms = run.stats.medianMs;
        if (ms > 0) {
            run.descriptorsPerSecond = double(descriptors.count) / (ms * 1e-3);
            run.gflops = bowFlopsPerDescriptor(kernel, codebook.k, descriptors.dim) *
                         double(descriptors.count) / (ms * 1e6);
        }
    } catch (...) {
        const RowError e = rowErrorOf(std::current_exception()); // rethrows cancellation
        run.status = e.status;
        run.detail = e.detail;
    }
    return run;
}

Fp32Peak measureFp32Peak(Device& device, int repeats, const CancelToken& cancel) {
    Fp32Peak peak;
    try {
        const DeviceInfo& info = device.info();
        const bool cpu = info.type == DeviceType::Cpu;
        // Enough work-items to fill every unit several times over, and enough iterations for
        // milliseconds of work. A CPU runs a work-group's items as one loop, which its compiler
        // may vectorize across the items or within each one: both are tried.
        const std::size_t items = std::size_t(std::max(1u, info.computeUnits)) * (cpu ? 64 : 2048);
        const cl_uint iterations = cpu ? 512 : 4096;
        std::vector<std::size_t> groups = {std::min<std::size_t>(256, info.maxWorkGroupSize)};
        if (cpu)
            groups = {1, std::min<std::size_t>(16, info.maxWorkGroupSize)};
        const int chains = cpu ? 16 : 8;
        cl::Buffer out(device.context(), CL_MEM_WRITE_ONLY, items * sizeof(float));
        for (int width : {4, 8, 16}) {
            BuildOptions o;
            o.define("BOW_PEAK", 1);
            o.define("PEAK_WIDTH", width);
            o.define("PEAK_CHAINS", chains);
            o.define("DIM", 4); // the file's shared helpers are written for a dimension
            cl::Kernel kernel(device.program("bow", o.text()), "bow_fma_peak");
            kernel.setArg(0, out);
            kernel.setArg(1, 0.999f);
            kernel.setArg(2, 0.001f);
            kernel.setArg(3, iterations);
            for (std::size_t wg : groups) {
                const TimingStats stats = timeRepeated(
                    repeats,
                    [&] {
                        std::vector<cl::Event> events(1);
                        device.queue().enqueueNDRangeKernel(kernel, cl::NullRange,
                                                            cl::NDRange(items), cl::NDRange(wg),
                                                            nullptr, &events[0]);
                        device.queue().finish();
                        return profiledMs(events);
                    },
                    cancel);
                const double flops = 2.0 * width * chains * 4 * double(iterations) * double(items);
                const double gflops = stats.medianMs > 0 ? flops / (stats.medianMs * 1e6) : 0.0;
                if (gflops > peak.gflops) {
                    peak.gflops = gflops;
                    peak.stats = stats;
                    peak.variant = "float" + std::to_string(width) + " chains, work-groups of " +
                                   std::to_string(wg);
                }
            }
        }
    } catch (...) {
        peak.detail = rowErrorOf(std::current_exception()).detail; // rethrows cancellation
    }
    return peak;
}

} // namespace histlab
