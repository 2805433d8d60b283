#include "pipelines/histogram256/histogram256.h"

#include "runtime/buildoptions.h"
#include "runtime/bytesize.h"
#include "runtime/enumtable.h"
#include "runtime/errors.h"
#include "runtime/log.h"
#include "runtime/parallel.h"

#include <algorithm>
#include <future>
#include <iomanip>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>

namespace histlab {
namespace {

bool isPowerOfTwo(int v) {
    return v > 0 && (v & (v - 1)) == 0;
}

std::string kib(std::uint64_t bytes) {
    return std::to_string(bytes / 1024) + " KiB";
}

/// The bytes a work-item loads at once: a uint4 or a uint, three of them for RGB (whole pixels).
std::size_t elemBytes(const HistogramConfig& c, const HistogramLayout& layout) {
    return (c.load == LoadWidth::Uint4 ? 16 : 4) * (layout.channels == 3 ? 3 : 1);
}

// Largest power of two <= v (v >= 1).
int floorPow2(std::uint64_t v) {
    int p = 1;
    while (std::uint64_t(p) * 2 <= v && p < (1 << 20))
        p *= 2;
    return p;
}

int maxLocalBanks(const DeviceInfo& info, const HistogramLayout& layout) {
    const std::uint64_t perCopy = std::uint64_t(layout.bins()) * 4;
    return info.localMemBytes >= perCopy ? floorPow2(info.localMemBytes / perCopy) : 0;
}

bool usesLocal(HistogramVariant v) {
    return v == HistogramVariant::Local || v == HistogramVariant::Banked;
}

} // namespace

int maxLocalCopies(const DeviceInfo& info, const HistogramLayout& layout) {
    return maxLocalBanks(info, layout);
}

std::string HistogramLayout::names() const {
    static const char* names[] = {"r", "g", "b", "a"};
    if (channels == 1)
        return "gray";
    std::string s;
    for (int c = 0; countChannels && c < channels; ++c)
        s += std::string(c ? "," : "") + names[c];
    return luma ? s + (s.empty() ? "gray" : ",gray") : s;
}

namespace {

const EnumTable<HistogramVariant>& histogramVariants() {
    static const EnumTable<HistogramVariant> table("--variant", "a variant",
                                                   {{HistogramVariant::Auto, "auto"},
                                                    {HistogramVariant::Naive, "naive"},
                                                    {HistogramVariant::Local, "local"},
                                                    {HistogramVariant::Banked, "banked"},
                                                    {HistogramVariant::Private, "cpu"},
                                                    {HistogramVariant::Private, "private", true}});
    return table;
}

} // namespace

HistogramVariant parseVariant(const std::string& name) {
    return histogramVariants().parse(name);
}

const char* variantName(HistogramVariant value) {
    return histogramVariants().name(value);
}

namespace {

const EnumTable<ReadPattern>& readPatterns() {
    static const EnumTable<ReadPattern> table(
        "--read", "a read pattern",
        {{ReadPattern::Coalesced, "coalesced"}, {ReadPattern::Serial, "serial"}});
    return table;
}

} // namespace

ReadPattern parseReadPattern(const std::string& name) {
    return readPatterns().parse(name);
}

const char* readPatternName(ReadPattern value) {
    return readPatterns().name(value);
}

namespace {

const EnumTable<LoadWidth>& loadWidths() {
    static const EnumTable<LoadWidth> table("--load", "a load width",
                                            {{LoadWidth::Scalar, "scalar"},
                                             {LoadWidth::Scalar, "uint", true},
                                             {LoadWidth::Uint4, "uint4"},
                                             {LoadWidth::Uint4, "vector", true}});
    return table;
}

} // namespace

LoadWidth parseLoadWidth(const std::string& name) {
    return loadWidths().parse(name);
}

const char* loadWidthName(LoadWidth value) {
    return loadWidths().name(value);
}

namespace {

const EnumTable<MergeMode>& mergeModes() {
    static const EnumTable<MergeMode> table(
        "--merge", "a merge", {{MergeMode::Kernel, "kernel"}, {MergeMode::Atomic, "atomic"}});
    return table;
}

} // namespace

MergeMode parseMergeMode(const std::string& name) {
    return mergeModes().parse(name);
}

const char* mergeModeName(MergeMode value) {
    return mergeModes().name(value);
}

namespace {

const std::map<std::string, ChannelSelection>& channelNames() {
    static const std::map<std::string, ChannelSelection> names{
        {"gray", ChannelSelection::Gray}, {"r", ChannelSelection::R},
        {"g", ChannelSelection::G},       {"b", ChannelSelection::B},
        {"a", ChannelSelection::A},       {"all", ChannelSelection::All}};
    return names;
}

} // namespace

ChannelSelection parseChannel(const std::string& name) {
    auto it = channelNames().find(name);
    if (it == channelNames().end())
        throw UsageError("--channel", "unknown channel '" + name + "' (gray, r, g, b, a, all)");
    return it->second;
}

std::string channelSelectionName(ChannelSelection selection) {
    for (const auto& [name, s] : channelNames())
        if (s == selection)
            return name;
    return "all";
}

std::string HistogramConfig::describe() const {
    std::ostringstream s;
    s << variantName(variant);
    if (usesLocal(variant))
        s << " banks=" << banks;
    if (variant == HistogramVariant::Private)
        s << " copies=" << banks;
    s << " wg=" << workGroupSize << " groups/CU=" << groupsPerCu << ' ' << readPatternName(read)
      << ' ' << loadWidthName(load);
    if (read == ReadPattern::Coalesced && usesLocal(variant))
        s << " unroll=" << unroll;
    if (variant != HistogramVariant::Naive)
        s << " merge=" << mergeModeName(merge);
    return s.str();
}

std::string histogramBuildOptions(const HistogramConfig& c, const HistogramLayout& layout,
                                  int stage) {
    HistogramVariant v = c.variant;
    if (v == HistogramVariant::Naive && stage < 3)
        v = HistogramVariant::Local; // the naive kernel has no stages: its reads are the same
    return BuildOptions()
        .define(v == HistogramVariant::Naive     ? "NAIVE"
                : v == HistogramVariant::Private ? "PRIVATE"
                                                 : "LOCAL")
        .define("NCHAN", layout.channels)
        .define("COUNT_CHANNELS", layout.countChannels)
        .define("LUMA", layout.luma)
        .define("LOAD_VEC", c.load == LoadWidth::Uint4)
        .define("READ_SERIAL", c.read == ReadPattern::Serial)
        .define("UNROLL", c.unroll)
        .define("NBANKS", usesLocal(v) ? c.banks : 1)
        .define("PCOPIES", v == HistogramVariant::Private ? c.banks : 1)
        .define("MERGE_ATOMIC", c.merge == MergeMode::Atomic)
        .define("STAGE", stage)
        .text();
}

// ---------------------------------------------------------------------------------------------

HistogramKernel::HistogramKernel(Device& device, const HistogramConfig& config,
                                 const HistogramLayout& layout, int stage)
    : m_device(device)
    , m_config(config)
    , m_layout(layout)
    , m_stage(stage) {
    try {
        cl::Program program =
            device.program("histogram256", histogramBuildOptions(config, layout, stage));
        m_accumulate = cl::Kernel(program, "accumulate_histogram");
        m_merge = cl::Kernel(program, "merge_partials");
        m_wg = static_cast<std::size_t>(config.workGroupSize);
        // The reported limit is logged, not trusted: NVIDIA's driver 580 reports 256 for these
        // kernels yet runs them in groups of 1024. A size the device really refuses fails at
        // the first launch and becomes a --wg error there (see enqueue()).
        m_reportedLimit = device.kernelWorkGroupLimit(m_accumulate);
        logDebug("kernel",
                 "accumulate_histogram on " + device.info().name + ": reported work-group limit " +
                     std::to_string(m_reportedLimit) + ", local memory " +
                     std::to_string(
                         m_accumulate.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device.device())) +
                     " B (" + config.describe() + ")");
        m_groups = std::size_t(device.info().computeUnits) * config.groupsPerCu;
        const std::size_t rows =
            config.variant == HistogramVariant::Private ? m_groups * m_wg : m_groups;
        m_partial = cl::Buffer(device.context(), CL_MEM_READ_WRITE,
                               rows * std::size_t(bins()) * sizeof(cl_uint));
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

std::vector<cl::Event> HistogramKernel::enqueuePieces(cl::CommandQueue& queue,
                                                      const cl::Buffer& input, std::size_t bytes,
                                                      const cl::Buffer& hist,
                                                      std::size_t pieceBytes) {
    if (pieceBytes == 0)
        pieceBytes = (std::size_t(1) << 29) * std::size_t(m_layout.channels);
    if (bytes <= pieceBytes)
        return enqueue(queue, input, bytes, hist);
    std::vector<cl::Event> events;
    cl::Buffer whole = input; // a handle: createSubBuffer is not const in the bindings
    try {
        for (std::size_t at = 0; at < bytes; at += pieceBytes) {
            const cl_buffer_region region{at, std::min(pieceBytes, bytes - at)};
            const cl::Buffer piece =
                whole.createSubBuffer(CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region);
            for (cl::Event& e : enqueue(queue, piece, region.size, hist))
                events.push_back(std::move(e));
        }
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    return events;
}

std::vector<cl::Event> HistogramKernel::enqueue(cl::CommandQueue& queue, const cl::Buffer& input,
                                                std::size_t bytes, const cl::Buffer& hist,
                                                const std::vector<cl::Event>* waitFor) {
    std::vector<cl::Event> events(1);
    try {
        const cl_uint nelem = static_cast<cl_uint>(bytes / elemBytes(m_config, m_layout));
        m_accumulate.setArg(0, input);
        m_accumulate.setArg(1, nelem);
        m_accumulate.setArg(2, static_cast<cl_uint>(bytes));
        m_accumulate.setArg(3, m_partial);
        m_accumulate.setArg(4, hist);
        try {
            queue.enqueueNDRangeKernel(m_accumulate, cl::NullRange, cl::NDRange(m_groups * m_wg),
                                       cl::NDRange(m_wg), waitFor, &events[0]);
        } catch (const cl::Error& e) {
            if (groupSizeRefused(e.err()))
                m_device.throwGroupRefused(m_accumulate, m_wg, e.err(), true);
            throw;
        }
        const bool mergeKernel = m_stage == 3 && m_config.variant != HistogramVariant::Naive &&
                                 m_config.merge == MergeMode::Kernel;
        if (mergeKernel) {
            const std::size_t rows =
                m_config.variant == HistogramVariant::Private ? m_groups * m_wg : m_groups;
            const std::size_t split = std::min<std::size_t>(rows, 16);
            const std::size_t local = std::min<std::size_t>(64, m_device.info().maxWorkGroupSize);
            const std::size_t global = (std::size_t(bins()) + local - 1) / local * local;
            m_merge.setArg(0, m_partial);
            m_merge.setArg(1, static_cast<cl_uint>(rows));
            m_merge.setArg(2, hist);
            events.emplace_back();
            queue.enqueueNDRangeKernel(m_merge, cl::NullRange, cl::NDRange(global, split),
                                       cl::NDRange(local, 1), nullptr, &events.back());
        }
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    return events;
}

namespace {
/// The reference's loop for N interleaved channels. Two tables per channel, for alternate
/// pixels: in a flat area of a photo (the same value again and again) an increment does not
/// wait for the previous pixel's store. No division per byte: the channel is the loop's.
template <int N>
std::vector<std::uint64_t> countInterleaved(const std::uint8_t* data, std::size_t bytes) {
    std::vector<std::uint64_t> h(2 * 256 * N, 0);
    std::uint64_t* even = h.data();
    std::uint64_t* odd = even + 256 * N;
    std::size_t i = 0;
    for (; i + 2 * N <= bytes; i += 2 * N)
        for (int c = 0; c < N; ++c) {
            ++even[c * 256 + data[i + c]];
            ++odd[c * 256 + data[i + N + c]];
        }
    for (; i < bytes; ++i) // an odd pixel out, or a partial one
        ++even[(i % N) * 256 + data[i]];
    for (int b = 0; b < 256 * N; ++b)
        even[b] += odd[b];
    h.resize(256 * N);
    return h;
}

/// Each of the N channels' counts and the luma's, added to `channels` (256 * N) and `gray`, in
/// one read of the pixels: a colour image's reference for both of its passes. Four pixels in a
/// row go to four copies of 32-bit counts (flushed every 2^24 pixels), so that repeated values
/// do not wait on each other's increments: 16 % faster than two copies of 64-bit counts on the
/// 2-core machine (31 against 37 ms for 24 megapixels), which keeps it within a JPEG's decoding.
template <int N>
void addCountsWithLuma(const std::uint8_t* data, std::size_t pixels, std::uint64_t* channels,
                       std::uint64_t* gray) {
    constexpr int kCopies = 4;
    std::array<std::array<std::uint32_t, 256 * 4>, kCopies> h; // r, g, b, luma per copy
    auto count = [&h](int k, const std::uint8_t* p) {
        ++h[k][p[0]];
        ++h[k][256 + p[1]];
        ++h[k][512 + p[2]];
        ++h[k][768 + lumaOf(p[0], p[1], p[2])];
    };
    constexpr std::size_t kBlock = std::size_t(1) << 24;
    for (std::size_t done = 0; done < pixels;) {
        for (auto& copy : h)
            copy.fill(0);
        const std::size_t n = std::min(kBlock, pixels - done);
        std::size_t i = 0;
        for (; i + kCopies <= n; i += kCopies, data += kCopies * N)
            for (int k = 0; k < kCopies; ++k)
                count(k, data + k * N);
        for (; i < n; ++i, data += N)
            count(0, data);
        for (int b = 0; b < 768; ++b)
            for (const auto& copy : h)
                channels[b] += copy[b];
        for (int b = 0; b < 256; ++b)
            for (const auto& copy : h)
                gray[b] += copy[768 + b];
        if constexpr (N == 4) { // alpha, counted apart: the copies hold r, g, b and luma
            const std::uint8_t* block = data - n * N;
            for (std::size_t a = 0; a < n; ++a)
                ++channels[768 + block[a * N + 3]];
        }
        done += n;
    }
}
} // namespace

void addReferenceWithLuma(const std::uint8_t* data, std::size_t pixels, int channels,
                          std::uint64_t* channelCounts, std::uint64_t* grayCounts) {
    if (channels == 3)
        return addCountsWithLuma<3>(data, pixels, channelCounts, grayCounts);
    if (channels == 4)
        return addCountsWithLuma<4>(data, pixels, channelCounts, grayCounts);
    throw std::logic_error("addReferenceWithLuma: 3 or 4 channels, not " +
                           std::to_string(channels));
}

std::vector<std::uint64_t> referenceHistogram(const std::uint8_t* data, std::size_t bytes,
                                              int nchan) {
    switch (nchan) {
    case 1:
        return countInterleaved<1>(data, bytes);
    case 2:
        return countInterleaved<2>(data, bytes);
    case 3:
        return countInterleaved<3>(data, bytes);
    case 4:
        return countInterleaved<4>(data, bytes);
    }
    std::vector<std::uint64_t> h(256 * std::size_t(nchan), 0);
    for (std::size_t i = 0; i < bytes; ++i)
        ++h[(i % nchan) * 256 + data[i]];
    return h;
}

namespace {
/// A reference of `width` x `height` pixels of `channels` channels, all counts 0.
HistogramReference emptyReference(int width, int height, int channels) {
    HistogramReference r{width, height, channels, {}, {}};
    r.channelCounts.assign(256 * std::size_t(channels), 0);
    r.grayCounts.assign(256, 0);
    return r;
}

/// Adds `pixels` pixels at `data` to `r` (a gray image's own values go to its channel counts;
/// finished() copies them to the gray counts).
void addPixels(HistogramReference& r, const std::uint8_t* data, std::size_t pixels) {
    if (r.channels == 1) {
        const auto h = referenceHistogram(data, pixels, 1);
        for (std::size_t b = 0; b < h.size(); ++b)
            r.channelCounts[b] += h[b];
    } else {
        addReferenceWithLuma(data, pixels, r.channels, r.channelCounts.data(), r.grayCounts.data());
    }
}

std::shared_ptr<const HistogramReference> finished(HistogramReference r) {
    if (r.channels == 1)
        r.grayCounts = r.channelCounts;
    return std::make_shared<const HistogramReference>(std::move(r));
}
} // namespace

std::vector<std::uint64_t> referenceCounts(const HistogramReference& reference,
                                           const HistogramLayout& layout) {
    std::vector<std::uint64_t> want;
    if (layout.countChannels)
        want = layout.channels == 1 ? reference.grayCounts : reference.channelCounts;
    if (layout.luma)
        want.insert(want.end(), reference.grayCounts.begin(), reference.grayCounts.end());
    return want;
}

std::shared_ptr<const HistogramReference> countReference(const HostImage& image) {
    HistogramReference r = emptyReference(image.width, image.height, image.channels);
    addPixels(r, image.data.data(), image.pixelCount());
    return finished(std::move(r));
}

RowPipe::Consumer ReferenceCounter::consumer() {
    return {[this](const RowsShape& shape) {
                m_counts = emptyReference(shape.width, shape.height, shape.channels);
                m_rows = 0;
            },
            [this](const std::uint8_t* image, int first, int end) {
                const std::size_t rowBytes = std::size_t(m_counts.width) * m_counts.channels;
                addPixels(m_counts, image + rowBytes * std::size_t(first),
                          std::size_t(m_counts.width) * std::size_t(end - first));
                m_rows = end;
            }};
}

std::shared_ptr<const HistogramReference> ReferenceCounter::result(bool complete) const {
    if (!complete || m_rows != m_counts.height || m_counts.channels < 1)
        return nullptr;
    return finished(m_counts);
}

namespace {
/// The first bin where two sets of counts differ, or none.
std::optional<std::size_t> firstDifferentBin(const std::vector<std::uint64_t>& a,
                                             const std::vector<std::uint64_t>& b) {
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i)
        if ((i < a.size() ? a[i] : 0) != (i < b.size() ? b[i] : 0))
            return i;
    return std::nullopt;
}

std::uint64_t countAt(const std::vector<std::uint64_t>& counts, std::size_t bin) {
    return bin < counts.size() ? counts[bin] : 0;
}

/// "bin 17: 1234 against 1233", or empty when `later` equals `first`.
std::string firstDifference(const std::vector<std::uint64_t>& later,
                            const std::vector<std::uint64_t>& first) {
    const std::optional<std::size_t> b = firstDifferentBin(later, first);
    if (!b)
        return {};
    return "bin " + std::to_string(*b) + ": " + std::to_string(countAt(later, *b)) + " against " +
           std::to_string(countAt(first, *b));
}
} // namespace

std::string firstMismatch(const std::string& what, const std::vector<std::uint64_t>& device,
                          const std::vector<std::uint64_t>& reference) {
    const std::optional<std::size_t> b = firstDifferentBin(device, reference);
    if (!b)
        return {};
    return what + " bin " + std::to_string(*b) + ": device " + std::to_string(countAt(device, *b)) +
           ", CPU reference " + std::to_string(countAt(reference, *b));
}

// ---------------------------------------------------------------------------------------------
// Configuration: validation, defaults and the autotune.
namespace {

struct TuneKey {
    std::string device;
    HistogramLayout layout;
    std::size_t bytes;
    std::string request;
    bool operator<(const TuneKey& o) const {
        return std::tie(device, layout.channels, layout.luma, layout.countChannels, bytes,
                        request) < std::tie(o.device, o.layout.channels, o.layout.luma,
                                            o.layout.countChannels, o.bytes, o.request);
    }
};
std::mutex g_tuneMutex;
std::map<TuneKey, HistogramConfig> g_tuned;

std::string requestSignature(const HistogramRequest& r) {
    std::ostringstream s;
    s << r.banks << '/' << r.groupsPerCu << '/' << r.workGroupSize << '/' << r.unroll << '/'
      << (r.read ? int(*r.read) : -1) << '/' << (r.load ? int(*r.load) : -1) << '/'
      << (r.merge ? int(*r.merge) : -1);
    return s.str();
}

// The size class an input is tuned at: the power of two at or above it, 1 MiB .. 256 MiB, at
// most a quarter of the largest buffer, in whole 48-byte units (uint4 loads, 3 or 4 channels).
std::size_t tuneBytesFor(const DeviceInfo& info, std::size_t inputBytes) {
    std::size_t b = std::size_t(1) << 20;
    while (b < inputBytes && b < (std::size_t(256) << 20))
        b *= 2;
    b = std::min<std::size_t>(b, info.maxAllocBytes / 4);
    return std::max<std::size_t>(b / 48 * 48, 48);
}

/// The values the tune tries for each knob: the request's where it fixes one, else those the
/// device allows.
struct TuneGrid {
    std::vector<int> banks, wgs, gpcs, unrolls;
};

TuneGrid tuneGrid(const DeviceInfo& info, const HistogramRequest& req,
                  const HistogramLayout& layout) {
    TuneGrid grid;
    std::vector<int>& banks = grid.banks;
    std::vector<int>& wgs = grid.wgs;
    if (req.banks)
        banks = {req.banks};
    else
        for (int b : {8, 16, 32})
            if (b <= maxLocalBanks(info, layout))
                banks.push_back(b);
    if (banks.empty())
        banks = {maxLocalBanks(info, layout)};
    if (req.workGroupSize)
        wgs = {req.workGroupSize};
    else
        for (int w : {256, 512, 1024})
            if (std::size_t(w) <= info.maxWorkGroupSize)
                wgs.push_back(w);
    if (wgs.empty())
        wgs = {static_cast<int>(info.maxWorkGroupSize)};
    grid.gpcs = req.groupsPerCu ? std::vector<int>{req.groupsPerCu} : std::vector<int>{1, 2, 4, 8};
    grid.unrolls = req.unroll ? std::vector<int>{req.unroll} : std::vector<int>{1, 2, 4, 8};
    return grid;
}

/// The tune's random and uniform inputs of `bytes` on the device, made in 16 MiB pieces and
/// sent straight there, so that the tune adds 16 MiB to the host memory of a run, not two
/// buffers of its size.
std::vector<cl::Buffer> uploadTuneInputs(Device& device, std::size_t bytes) {
    std::vector<cl::Buffer> inputs;
    std::vector<std::uint8_t> piece(std::min<std::size_t>(bytes, std::size_t(16) << 20));
    for (SyntheticKind k : {SyntheticKind::Random, SyntheticKind::Uniform}) {
        inputs.emplace_back(device.context(), CL_MEM_READ_ONLY, bytes);
        for (std::size_t off = 0; off < bytes; off += piece.size()) {
            const std::size_t n = std::min(piece.size(), bytes - off);
            fillSynthetic(k, piece.data(), n, 7 + off);
            device.queue().enqueueWriteBuffer(inputs.back(), CL_TRUE, off, n, piece.data());
        }
    }
    return inputs;
}

} // namespace

HistogramConfig autotuneHistogram(Device& device, const HistogramRequest& req,
                                  const HistogramLayout& layout, std::size_t inputBytes,
                                  const CancelToken& cancel) {
    const DeviceInfo& info = device.info();
    const std::size_t bytes = tuneBytesFor(info, inputBytes);
    const TuneKey key{info.name + "|" + info.driverVersion, layout, bytes, requestSignature(req)};
    {
        std::lock_guard lock(g_tuneMutex);
        if (auto it = g_tuned.find(key); it != g_tuned.end())
            return it->second;
    }
    const TuneGrid grid = tuneGrid(info, req, layout);

    // Scores: the worse of random and uniform bytes (the aim is the ceiling on every
    // distribution), at the input's size class.
    std::vector<cl::Buffer> inputs = uploadTuneInputs(device, bytes);
    cl::Buffer hist(device.context(), CL_MEM_READ_WRITE, layout.bins() * sizeof(cl_uint));
    // A candidate's score: the worse of its GB/s on the two inputs, each the median of `runs`.
    auto scoreOf = [&](HistogramKernel& kernel, int runs) {
        double score = 1e300;
        for (auto& in : inputs) {
            auto once = [&] {
                device.queue().enqueueFillBuffer(hist, cl_uint(0), 0,
                                                 layout.bins() * sizeof(cl_uint));
                auto ev = kernel.enqueue(device.queue(), in, bytes, hist);
                cl::Event::waitForEvents(ev);
                return profiledMs(ev);
            };
            score = std::min(score, gbPerSecond(bytes, timeRepeated(runs, once, cancel).medianMs));
        }
        return score;
    };
    std::vector<std::pair<double, HistogramConfig>> scored;
    int tried = 0;
    std::map<std::pair<int, int>, std::string> rejected; // (banks, wg) -> why
    for (int b : grid.banks)
        for (int u : grid.unrolls)
            for (int w : grid.wgs)
                for (int g : grid.gpcs) {
                    cancel.throwIfCancelled();
                    if (rejected.count({b, w}))
                        continue;
                    HistogramConfig c;
                    c.variant = HistogramVariant::Banked;
                    c.banks = b;
                    c.workGroupSize = w;
                    c.groupsPerCu = g;
                    c.read = req.read.value_or(ReadPattern::Coalesced);
                    c.load = req.load.value_or(LoadWidth::Uint4);
                    c.merge = req.merge.value_or(MergeMode::Atomic);
                    c.unroll = u;
                    try {
                        HistogramKernel kernel(device, c, layout);
                        scored.emplace_back(scoreOf(kernel, 3), c);
                        ++tried;
                    } catch (const UsageError& e) {
                        // this work-group size is beyond the kernel's limit here: not a candidate
                        rejected[{b, w}] = e.what();
                        logInfo("tune", "skipped: " + std::string(e.what()));
                    } catch (const cl::Error& e) {
                        logWarning("tune",
                                   c.describe() + ": " + describeClError(e.what(), e.err()));
                    }
                }
    if (scored.empty())
        throw DeviceError("autotune: no histogram configuration ran on " + info.name);
    // Three runs a candidate rank close candidates by chance where kernels are short: at 16 MiB
    // an H200 kernel lasts about 12 us and its profiling clock counts whole microseconds: 2 of
    // 14 frontier runs chose 16 copies (52 and 59 % of the read-only kernel) where the runs that
    // chose 32 measured 64-70 %. So the best few are timed again, 15 runs each, and the best of
    // those wins (insurance: in six runs alternated with the version without it, both chose 32
    // copies every time; bench/results/gpu-h200-tune-2026-11-28).
    constexpr std::size_t kFinalists = 4;
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    scored.resize(std::min(scored.size(), kFinalists));
    HistogramConfig best = scored.front().second;
    double bestScore = -1;
    for (const auto& [gridScore, c] : scored) {
        cancel.throwIfCancelled();
        HistogramKernel kernel(device, c, layout);
        const double score = scoreOf(kernel, 15);
        logInfo("tune", c.describe() + ": " + std::to_string(gridScore) + " GB/s in the grid, " +
                            std::to_string(score) + " over 15 runs");
        if (score > bestScore) {
            bestScore = score;
            best = c;
        }
    }
    std::ostringstream why;
    // Sizes are whole 48-byte units just under a power of two: rounded to the nearest MiB.
    why << "autotune: best of " << tried << " (the best " << scored.size() << " timed again) on "
        << ((bytes + (1u << 19)) >> 20) << " MiB random+uniform, worst case " << std::fixed
        << std::setprecision(bestScore >= 100 ? 0 : 2) << bestScore << " GB/s";
    best.chosenBy = why.str();
    logInfo("tune", info.name + ": " + best.describe() + " (" + best.chosenBy + ")");
    std::lock_guard lock(g_tuneMutex);
    g_tuned[key] = best;
    return best;
}

HistogramConfig resolveHistogramConfig(Device& device, const HistogramRequest& req,
                                       const HistogramLayout& layout, const CancelToken& cancel,
                                       std::size_t inputBytes) {
    if (const std::optional<HistogramConfig> c = histogramConfigFor(device.info(), req, layout))
        return *c;
    return autotuneHistogram(device, req, layout, inputBytes, cancel);
}

std::string histogramParameterUnused(HistogramVariant variant, std::string_view parameter) {
    if (parameter == "--banks" && variant == HistogramVariant::Naive)
        return "the naive variant has no sub-histogram copies";
    if (parameter == "--banks" && variant == HistogramVariant::Local)
        return "the local variant has one copy per work-group (banked has more)";
    if (parameter == "--read" && variant == HistogramVariant::Private)
        return "the cpu variant reads serially (one contiguous run per work-item)";
    return {};
}

std::optional<HistogramConfig> histogramConfigFor(const DeviceInfo& info,
                                                  const HistogramRequest& req,
                                                  const HistogramLayout& layout) {
    if (req.banks < 0 || (req.banks > 0 && !isPowerOfTwo(req.banks)))
        throw UsageError("--banks", std::to_string(req.banks) + " is not a power of two");
    if (req.workGroupSize < 0 || std::size_t(req.workGroupSize) > info.maxWorkGroupSize)
        throw UsageError("--wg", std::to_string(req.workGroupSize) +
                                     " work-items per group: " + info.name + " allows 1.." +
                                     std::to_string(info.maxWorkGroupSize));
    if (req.groupsPerCu < 0 || req.groupsPerCu > 1024)
        throw UsageError("--groups-per-cu", "must be between 1 and 1024");
    if (req.unroll < 0 || req.unroll > 8 || (req.unroll & (req.unroll - 1)) != 0)
        throw UsageError("--unroll", "must be 1, 2, 4 or 8");

    HistogramVariant variant = req.variant;
    if (variant == HistogramVariant::Auto && info.type == DeviceType::Cpu)
        variant = HistogramVariant::Private;
    if (usesLocal(variant) || variant == HistogramVariant::Auto) {
        const int fit = maxLocalBanks(info, layout);
        if (req.banks > fit)
            throw UsageError("--banks", std::to_string(req.banks) + " copies of " +
                                            std::to_string(layout.bins()) + " bins need " +
                                            kib(std::uint64_t(req.banks) * 4 * layout.bins()) +
                                            " of local memory; " + info.name + " has " +
                                            kib(info.localMemBytes) + " (at most " +
                                            std::to_string(fit) + " copies)");
    }
    if (variant == HistogramVariant::Auto)
        return std::nullopt; // the autotune decides, on the device

    HistogramConfig c;
    c.variant = variant;
    c.chosenBy = req.variant == HistogramVariant::Auto ? "cpu heuristic" : "request";
    switch (variant) {
    case HistogramVariant::Naive:
        if (req.banks > 1)
            throw UsageError("--banks", histogramParameterUnused(variant, "--banks"));
        c.banks = 1;
        break;
    case HistogramVariant::Local:
        if (req.banks > 1)
            throw UsageError("--banks", histogramParameterUnused(variant, "--banks"));
        c.banks = 1;
        break;
    case HistogramVariant::Banked:
        // The reference text's kernel: 16 copies where they fit.
        c.banks = req.banks ? req.banks : std::min(16, maxLocalBanks(info, layout));
        break;
    case HistogramVariant::Private:
        if (req.banks > 4)
            throw UsageError("--banks", "the cpu variant keeps 1, 2 or 4 private copies");
        c.banks = req.banks ? req.banks : 4;
        break;
    case HistogramVariant::Auto:
        break;
    }
    if (usesLocal(variant) && c.banks < 1)
        throw UsageError("--variant", std::string(variantName(variant)) + " needs " +
                                          kib(4ull * layout.bins()) + " of local memory; " +
                                          info.name + " has " + kib(info.localMemBytes));
    const bool cpuStyle = variant == HistogramVariant::Private;
    c.workGroupSize =
        req.workGroupSize
            ? req.workGroupSize
            : (cpuStyle ? 1 : static_cast<int>(std::min<std::size_t>(256, info.maxWorkGroupSize)));
    c.groupsPerCu = req.groupsPerCu ? req.groupsPerCu : (cpuStyle ? 2 : 4);
    c.read = req.read.value_or(cpuStyle ? ReadPattern::Serial : ReadPattern::Coalesced);
    c.load = req.load.value_or(LoadWidth::Uint4);
    c.merge = req.merge.value_or(MergeMode::Kernel);
    c.unroll = req.unroll ? req.unroll : 1;
    if (cpuStyle && info.type == DeviceType::Cpu) {
        // A CPU runtime keeps the whole work-group's private copies on one thread's stack:
        // past it, the run crashes inside the runtime. Three quarters of it, for the rest of
        // the frame.
        const std::uint64_t perItem = std::uint64_t(c.banks) * layout.bins() * sizeof(cl_uint);
        const std::uint64_t stack = cpuThreadStackBytes();
        const std::uint64_t most = std::max<std::uint64_t>(1, stack / 4 * 3 / perItem);
        if (std::uint64_t(c.workGroupSize) > most)
            throw UsageError(
                "--wg", std::to_string(c.workGroupSize) + " work-items of the cpu variant keep " +
                            formatByteSize(perItem * std::uint64_t(c.workGroupSize)) +
                            " of private histograms (" + std::to_string(c.banks) + " x " +
                            std::to_string(layout.bins()) +
                            " bins each) on one thread's stack of " + info.name + ", which has " +
                            formatByteSize(stack) + " (ulimit -s): at most " +
                            std::to_string(most) + " work-items, or fewer --banks");
    }
    if (cpuStyle && c.read == ReadPattern::Coalesced)
        throw UsageError("--read", "the cpu variant reads serially (one contiguous run per "
                                   "work-item); use --read serial");
    return c;
}

// ---------------------------------------------------------------------------------------------
// A run: upload, passes, ceiling, stages, verification.
namespace {

constexpr std::size_t kChunkAlign = 48; // multiple of 16 (uint4) and of 3 and 4 (channels)

/// The histograms counted in one read of the image, and their timing.
struct Pass {
    HistogramLayout layout;
    std::vector<std::uint64_t> counts;
    TimingStats stats;
};

std::size_t chunkLimit(const DeviceInfo& info, std::size_t requested) {
    // Bins are 32-bit and kernel indices are 32-bit: a chunk stays under 2^31 bytes and under
    // the device's largest buffer.
    std::size_t limit = std::min<std::uint64_t>(info.maxAllocBytes, std::uint64_t(1) << 31);
    if (requested)
        limit = std::min(limit, requested);
    return std::max(limit / kChunkAlign * kChunkAlign, kChunkAlign);
}

class PassRunner {
public:
    PassRunner(Device& device, const HostImage& img, const HistogramConfig& cfg,
               const CancelToken& cancel, std::size_t maxChunkBytes)
        : m_device(device)
        , m_img(img)
        , m_cfg(cfg)
        , m_cancel(cancel) {
        const std::size_t limit = chunkLimit(device.info(), maxChunkBytes);
        const std::size_t pixelBytes = std::size_t(img.channels);
        m_chunkPixels = std::max<std::size_t>(1, limit / pixelBytes / 16 * 16);
        m_pixels = img.pixelCount();
        const std::size_t chunkBytes = std::min(m_pixels, m_chunkPixels) * pixelBytes;
        if (chunks() == 1 && device.info().type == DeviceType::Cpu && chunkBytes >= 16) {
            // A CPU device reads host memory: the kernels read the image where it is. A copy
            // into a new buffer costs more than the histogram (a 72 MB photo: every page of
            // the buffer faulted in, then written, about 200 ms against 20 ms of counting on
            // this 2-core machine's PoCL). The kernels only read it (CL_MEM_READ_ONLY).
            m_input = cl::Buffer(device.context(), CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
                                 chunkBytes, const_cast<std::uint8_t*>(img.data.data()));
            return;
        }
        m_input =
            cl::Buffer(device.context(), CL_MEM_READ_ONLY, std::max<std::size_t>(chunkBytes, 16));
        if (chunks() == 1)
            upload(0);
    }

    std::size_t chunks() const { return (m_pixels + m_chunkPixels - 1) / m_chunkPixels; }
    const cl::Buffer& input() const { return m_input; }
    std::size_t firstChunkBytes() const {
        return std::min(m_pixels, m_chunkPixels) * std::size_t(m_img.channels);
    }

    /// One pass's device objects, kept from its first launch to its timed ones.
    struct Launcher {
        HistogramKernel kernel;
        cl::Buffer hist;
    };

    std::unique_ptr<Launcher> prepare(const Pass& pass, const HistogramConfig& cfg, int stage) {
        return std::unique_ptr<Launcher>(
            new Launcher{HistogramKernel(m_device, cfg, pass.layout, stage),
                         cl::Buffer(m_device.context(), CL_MEM_READ_WRITE,
                                    pass.layout.bins() * sizeof(cl_uint))});
    }

    /// One launch of the pass over every piece of the input: its milliseconds.
    double launch(const Pass& pass, Launcher& l) {
        cl::CommandQueue& q = m_device.queue();
        q.enqueueFillBuffer(l.hist, cl_uint(0), 0, pass.layout.bins() * sizeof(cl_uint));
        double ms = 0;
        for (std::size_t c = 0; c < chunks(); ++c) {
            m_cancel.throwIfCancelled();
            if (chunks() > 1)
                upload(c);
            const std::size_t px = std::min(m_chunkPixels, m_pixels - c * m_chunkPixels);
            const std::vector<cl::Event> ev =
                l.kernel.enqueue(q, m_input, px * std::size_t(m_img.channels), l.hist);
            cl::Event::waitForEvents(ev);
            ms += profiledMs(ev);
        }
        return ms;
    }

    /// The counts of the launcher's last launch.
    std::vector<std::uint64_t> counts(const Pass& pass, Launcher& l) {
        std::vector<cl_uint> counts(pass.layout.bins());
        m_device.queue().enqueueReadBuffer(l.hist, CL_TRUE, 0, counts.size() * sizeof(cl_uint),
                                           counts.data());
        return {counts.begin(), counts.end()};
    }

    /// `repeats` timed launches; the first launch (warm-up: JIT, page faults) came before.
    void time(Pass& pass, Launcher& l, int repeats) {
        pass.stats = timeRuns(
            repeats, [&] { return launch(pass, l); }, m_cancel);
    }

    // Runs one pass `repeats` times after a warm-up (the stage table's partial kernels).
    void run(Pass& pass, int repeats, int stage) {
        const std::unique_ptr<Launcher> l = prepare(pass, m_cfg, stage);
        m_cancel.throwIfCancelled();
        launch(pass, *l);
        time(pass, *l, repeats);
    }

private:
    void upload(std::size_t chunk) {
        const std::size_t px = std::min(m_chunkPixels, m_pixels - chunk * m_chunkPixels);
        const std::size_t offset = chunk * m_chunkPixels * m_img.channels;
        m_device.queue().enqueueWriteBuffer(m_input, CL_TRUE, 0, px * m_img.channels,
                                            m_img.data.data() + offset);
    }

    Device& m_device;
    const HostImage& m_img;
    const HistogramConfig& m_cfg;
    const CancelToken& m_cancel;
    std::size_t m_pixels = 0, m_chunkPixels = 0;
    cl::Buffer m_input;
};

} // namespace

std::vector<ChannelHistogram> splitChannelCounts(const std::vector<std::uint64_t>& counts,
                                                 int nchan) {
    static const char* names[] = {"r", "g", "b", "a"};
    std::vector<ChannelHistogram> out;
    for (int c = 0; c < nchan; ++c) {
        ChannelHistogram h;
        h.name = nchan == 1 ? "gray" : names[c];
        std::copy_n(counts.begin() + 256 * c, 256, h.counts.begin());
        out.push_back(h);
    }
    return out;
}

std::vector<ChannelHistogram> splitLayoutCounts(const std::vector<std::uint64_t>& counts,
                                                const HistogramLayout& layout) {
    std::vector<ChannelHistogram> out;
    if (layout.countChannels)
        out = splitChannelCounts(counts, layout.channels);
    if (layout.luma) {
        const std::vector<std::uint64_t> luma(counts.end() - 256, counts.end());
        out.push_back(splitChannelCounts(luma, 1).front());
    }
    return out;
}

HistogramLayout histogramLayout(const HostImage& image, ChannelSelection selection) {
    const int nch = image.channels;
    if (nch == 1 && selection != ChannelSelection::Gray && selection != ChannelSelection::All)
        throw UsageError("--channel",
                         image.source + " is a gray image: only 'gray' or 'all' apply");
    if (nch == 3 && selection == ChannelSelection::A)
        throw UsageError("--channel", image.source + " has no alpha channel");
    if (nch == 1)
        return {1};
    const bool gray = selection == ChannelSelection::Gray || selection == ChannelSelection::All;
    return {nch, gray, selection != ChannelSelection::Gray};
}

namespace {

/// The device's counts against the CPU reference, histogram by histogram, so that a mismatch
/// names its histogram and bin: into run.verified and run.verifyDetail.
void verifyCounts(HistogramRun& run, const HistogramReference& ref, const Pass& pass) {
    const std::vector<std::uint64_t> want = referenceCounts(ref, pass.layout);
    const auto device = splitLayoutCounts(pass.counts, pass.layout);
    const auto cpu = splitLayoutCounts(want, pass.layout);
    for (std::size_t h = 0; h < device.size() && run.verifyDetail.empty(); ++h)
        run.verifyDetail = firstMismatch("histogram (" + device[h].name + ")",
                                         {device[h].counts.begin(), device[h].counts.end()},
                                         {cpu[h].counts.begin(), cpu[h].counts.end()});
    run.verified = run.verifyDetail.empty();
}

/// Every launch counts the same: the last timed one (`last`) against the first. A difference
/// fails a verified run, or is a note of one that was not verified.
void checkLastLaunch(HistogramRun& run, const std::vector<std::uint64_t>& last, const Pass& pass,
                     const std::string& what) {
    const std::string changed = firstDifference(last, pass.counts);
    if (!changed.empty()) {
        const std::string detail =
            what + ": the last timed launch counted otherwise than the first (" + changed + ")";
        if (run.verified.value_or(false)) {
            run.verified = false;
            run.verifyDetail = detail;
        } else {
            run.notes.push_back(detail);
        }
    }
}

/// The stage table: the read-only, scatter and local-reduce partial kernels timed on their own
/// (the naive kernel has no scatter or local reduce), and the whole pass as its last stage.
void timeStages(HistogramRun& run, PassRunner& runner, const Pass& pass, std::size_t bytes,
                int repeats) {
    static const char* names[] = {"read-only", "+scatter", "+local reduce", "+global merge"};
    for (int s = 0; s < 4; ++s) {
        StageTiming st;
        st.stage = names[s];
        const bool naive = run.config.variant == HistogramVariant::Naive;
        if (naive && (s == 1 || s == 2)) {
            st.applicable = false;
            run.stages.push_back(st);
            continue;
        }
        if (s == 3) {
            st.stats = pass.stats;
        } else {
            Pass scratch{pass.layout, {}, {}};
            runner.run(scratch, repeats, s);
            st.stats = scratch.stats;
        }
        st.gbps = gbPerSecond(bytes, st.stats.medianMs);
        st.percentOfCeiling = run.ceiling.gbps > 0 ? 100.0 * st.gbps / run.ceiling.gbps : 0;
        run.stages.push_back(st);
    }
}

} // namespace

HistogramRun runHistogram(Device& device, const HostImage& source, const HistogramRequest& request,
                          const HistogramRunOptions& options, const CancelToken& cancel,
                          const ProgressFn& progress) {
    auto report = [&](double f, const std::string& what) {
        if (progress)
            progress(f, what);
    };
    validateImage(source);
    if (options.repeats < 1)
        throw UsageError("--repeat", "must be at least 1");
    HistogramRun run;
    run.device = device.info();
    run.input = source.source;
    run.width = source.width;
    run.height = source.height;
    run.channels = source.channels;
    run.sourceDepth = source.depth;
    // 16-bit images are reduced to their high bytes; 8-bit ones are used in place (no copy:
    // host memory stays the input plus O(bins x work-groups)).
    requireIntegerImage(source, "the 256-bin histogram");
    HostImage converted;
    if (source.depth == 16)
        converted = toHighByte(source);
    const HostImage& img = source.depth == 16 ? converted : source;
    if (source.depth == 16)
        run.notes.push_back("16-bit image: the 256-bin pipeline counts each value's high byte "
                            "(v >> 8); the exact histogram is the large-bin one");
    run.bytes = img.byteCount();
    if (img.pixelCount() >= (std::uint64_t(1) << 32))
        throw InputError(img.source + ": more than 2^32 - 1 pixels; 32-bit bins could overflow");

    const int nch = img.channels;
    const ChannelSelection sel = options.channel;
    // One read of the image counts everything asked for: a colour image's channels and luma
    // come from the same bytes, with no gray plane written and read back.
    Pass pass{histogramLayout(img, sel), {}, {}};
    if (pass.layout.luma)
        run.notes.push_back("gray is luma as OpenCV's cvtColor(COLOR_BGR2GRAY) computes it for "
                            "8-bit data (alpha ignored)");

    // The CPU reference: counted beforehand (while the image was decoded), or on another
    // thread while the device counts (on a GPU it costs no wall time; a CPU device shares the
    // cores either way).
    std::shared_ptr<const HistogramReference> ref = options.reference;
    if (ref && (source.depth != 8 || ref->width != img.width || ref->height != img.height ||
                ref->channels != nch))
        ref = nullptr; // another image's, or a 16-bit one's (its high bytes are counted)
    std::future<std::shared_ptr<const HistogramReference>> counting;
    if (options.verify && ref)
        run.notes.push_back("CPU reference counted while the image was decoded");
    else if (options.verify)
        counting = inBackground([&img] { return countReference(img); });

    try {
        report(0.05, "configuring");
        run.config = resolveHistogramConfig(device, request, pass.layout, cancel, img.byteCount());
        report(0.1, "uploading");
        PassRunner runner(device, img, run.config, cancel, options.maxChunkBytes);
        if (runner.chunks() > 1)
            run.notes.push_back("input larger than one device buffer: processed in " +
                                std::to_string(runner.chunks()) + " pieces");
        // The counts first: one launch, which is also the warm-up of the timed launches (JIT,
        // page faults), then the verification; a viewer can draw them while the timing runs.
        const std::string what = "histogram (" + pass.layout.names() + ")";
        report(0.15, what);
        const std::unique_ptr<PassRunner::Launcher> launcher = runner.prepare(pass, run.config, 3);
        runner.launch(pass, *launcher);
        pass.counts = runner.counts(pass, *launcher);
        run.histograms = splitLayoutCounts(pass.counts, pass.layout);
        // Keep only what was asked for, in the order r, g, b, a, gray.
        if (sel != ChannelSelection::All) {
            static const char* names[] = {"gray", "r", "g", "b", "a"};
            const std::string want = names[int(sel)];
            std::erase_if(run.histograms,
                          [&](const ChannelHistogram& h) { return h.name != want; });
        }
        if (options.verify) {
            report(0.35, "verifying");
            if (!ref)
                ref = counting.get();
            verifyCounts(run, *ref, pass);
        }
        cancel.throwIfCancelled();
        if (options.countsReady)
            options.countsReady(run);

        report(0.4, "timing " + pass.layout.names());
        runner.time(pass, *launcher, options.repeats);
        checkLastLaunch(run, runner.counts(pass, *launcher), pass, what);
        PassTiming t;
        t.what = what;
        t.bytes = img.byteCount();
        t.stats = pass.stats;
        t.gbps = gbPerSecond(t.bytes, t.stats.medianMs);
        run.passes.push_back(t);

        report(0.75, "read-only ceiling");
        run.ceiling = measureReadCeiling(device, runner.input(), runner.firstChunkBytes(),
                                         options.repeats, cancel);
        for (auto& p : run.passes)
            p.percentOfCeiling = run.ceiling.gbps > 0 ? 100.0 * p.gbps / run.ceiling.gbps : 0;

        if (options.stages) {
            report(0.8, "stage table");
            timeStages(run, runner, pass, img.byteCount(), options.repeats);
        }
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    report(1.0, "done");
    return run;
}

} // namespace histlab
