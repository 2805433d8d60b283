// Buffer reversal: the host side of kernels/reverse.cl. The metric and the variants are defined
// at the top of reverse.h; this file has one launch path for all of them, driven by kVariants.
#include "pipelines/reverse/reverse.h"

#include "image/image.h"
#include "runtime/buildoptions.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace histlab {
namespace {

const std::vector<ReverseVariantInfo> kVariants = {
    {ReverseVariant::Char1, "char1", "reverse_char1", 1, 1, true},
    {ReverseVariant::Char16, "char16", "reverse_char16", 16, 1, true},
    {ReverseVariant::Char16Swizzle, "char16_swizzle", "reverse_char16_swizzle", 16, 1, true},
    {ReverseVariant::Uint16AsChar4, "uint16_as_char4", "reverse_uint16_as_char4", 64, 1, true},
    {ReverseVariant::Uint4, "uint4", "reverse_uint4", 16, 1, false},
    {ReverseVariant::Uint4x4, "uint4x4", "reverse_uint4x4", 16, 4, false},
    {ReverseVariant::Uint4Serial, "uint4_serial", "reverse_uint4_serial", 16, 0, false},
};

constexpr std::uint8_t kPoison = 0xA5;

std::string variantList() {
    std::string s;
    for (const ReverseVariantInfo& v : kVariants)
        s += (s.empty() ? "" : ", ") + std::string(v.name);
    return s;
}

} // namespace

const std::vector<ReverseVariantInfo>& reverseVariants() {
    return kVariants;
}

const ReverseVariantInfo& reverseVariantInfo(ReverseVariant variant) {
    for (const ReverseVariantInfo& v : kVariants)
        if (v.variant == variant)
            return v;
    return kVariants.front(); // unreachable: every enumerator has a row
}

ReverseVariant parseReverseVariant(const std::string& name) {
    for (const ReverseVariantInfo& v : kVariants)
        if (name == v.name)
            return v.variant;
    throw UsageError("--kernel",
                     "'" + name + "' is not a reversal kernel (" + variantList() + ", or all)");
}

const char* reverseVariantName(ReverseVariant variant) {
    return reverseVariantInfo(variant).name;
}

std::vector<ReverseVariant> allReverseVariants() {
    std::vector<ReverseVariant> all;
    for (const ReverseVariantInfo& v : kVariants)
        all.push_back(v.variant);
    return all;
}

std::vector<std::uint8_t> reverseReference(const std::vector<std::uint8_t>& in) {
    return std::vector<std::uint8_t>(in.rbegin(), in.rend());
}

std::uint64_t countReversedBytes(const std::uint8_t* in, const std::uint8_t* out, std::size_t n) {
    // Eight bytes at a time where all eight are right (the usual case, and a GiB is checked
    // seven times a run): out[j .. j + 7] is in[n - 8 - j .. n - 1 - j] with its bytes
    // swapped, whatever the host's byte order.
    std::uint64_t correct = 0;
    std::size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        std::uint64_t got, want;
        std::memcpy(&got, out + j, 8);
        std::memcpy(&want, in + n - 8 - j, 8);
        if (got == __builtin_bswap64(want)) {
            correct += 8;
            continue;
        }
        for (std::size_t k = j; k < j + 8; ++k)
            correct += out[k] == in[n - 1 - k] ? 1 : 0;
    }
    for (; j < n; ++j)
        correct += out[j] == in[n - 1 - j] ? 1 : 0;
    return correct;
}

std::vector<std::uint8_t> makeReverseInput(std::size_t n, std::uint64_t seed) {
    std::vector<std::uint8_t> bytes(n);
    fillSynthetic(SyntheticKind::Random, bytes.data(), n, seed);
    return bytes;
}

int ReverseRun::best() const {
    int best = -1;
    for (std::size_t i = 0; i < results.size(); ++i)
        if (results[i].status == Status::Verified &&
            (best < 0 || results[i].gbps > results[std::size_t(best)].gbps))
            best = int(i);
    return best;
}

namespace {

// The device buffers of one run and the host copy the outputs are read into.
struct ReverseBuffers {
    cl::Buffer in, out;
    std::vector<std::uint8_t> readBack;
};

// "byte 17: device 0xa5, CPU reference 0x3c (4096 of 4099 correct)", or "".
std::string firstMismatch(const std::uint8_t* in, const std::uint8_t* out, std::size_t n,
                          std::uint64_t correct) {
    if (correct == n)
        return "";
    for (std::size_t j = 0; j < n; ++j)
        if (out[j] != in[n - 1 - j]) {
            std::ostringstream s;
            s << std::hex << "byte " << std::dec << j << ": device 0x" << std::hex << int(out[j])
              << ", CPU reference 0x" << int(in[n - 1 - j]) << std::dec << " (" << correct << " of "
              << n << " correct)";
            return s.str();
        }
    return "";
}

// Launches one variant (warm-up + repeats), reads its output back and counts the correct
// bytes. Throws (cl::Error through rethrowClError, BuildError, UnsupportedError).
void runVariant(Device& device, const ReverseVariantInfo& v, const std::vector<std::uint8_t>& input,
                ReverseBuffers& b, std::size_t requestedWg, int repeats, const CancelToken& cancel,
                ReverseResult& r) {
    const DeviceInfo& info = device.info();
    const std::size_t n = input.size();
    const std::size_t w = std::size_t(v.vectorBytes);
    const cl_uint nvec = cl_uint(n / w), tail = cl_uint(n % w);
    r.buildOptions = BuildOptions().define("ALIGNED", tail == 0).text();
    cl::Kernel kernel(device.program("reverse", r.buildOptions), v.kernel);
    const bool serial = v.vectorsPerItem == 0;
    const bool cpu = info.type == DeviceType::Cpu;
    std::size_t wg = requestedWg;
    if (wg == 0)
        wg = serial ? (cpu ? 1 : 64) : std::min<std::size_t>(256, info.maxWorkGroupSize);
    const std::size_t items =
        serial ? std::size_t(std::max<cl_uint>(info.computeUnits, 1)) * 4 * wg
               : std::max<std::size_t>(
                     (std::size_t(nvec) + std::size_t(v.vectorsPerItem) - 1) / v.vectorsPerItem, 1);
    r.localSize = wg;
    r.globalSize = roundUp(items, wg);
    kernel.setArg(0, b.in);
    kernel.setArg(1, b.out);
    kernel.setArg(2, nvec);
    kernel.setArg(3, tail);
    cl::CommandQueue& q = device.queue();
    q.enqueueFillBuffer(b.out, kPoison, 0, n);
    const auto once = [&] {
        cl::Event e;
        q.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(r.globalSize),
                               cl::NDRange(r.localSize), nullptr, &e);
        e.wait();
        return profiledMs({e});
    };
    r.stats = timeRepeated(repeats, once, cancel);
    q.enqueueReadBuffer(b.out, CL_TRUE, 0, n, b.readBack.data());
    r.correctBytes = countReversedBytes(input.data(), b.readBack.data(), n);
    r.status = r.correctBytes == n ? Status::Verified : Status::Mismatch;
    r.detail = firstMismatch(input.data(), b.readBack.data(), n, r.correctBytes);
    r.gbps = gbPerSecond(2 * std::uint64_t(n), r.stats.medianMs);
}

// One variant as a result value: what cannot run is "unsupported", an OpenCL failure "failed";
// usage errors and cancellation go up.
ReverseResult measureVariant(Device& device, const ReverseVariantInfo& v,
                             const std::vector<std::uint8_t>& input, ReverseBuffers& b,
                             std::size_t wg, int repeats, const CancelToken& cancel) {
    ReverseResult r;
    r.variant = v.variant;
    r.name = v.name;
    r.kernel = v.kernel;
    try {
        try {
            runVariant(device, v, input, b, wg, repeats, cancel, r);
        } catch (const cl::Error& e) {
            rethrowClError(e);
        }
    } catch (const UnsupportedError& e) {
        r.status = Status::Unsupported;
        r.detail = e.what();
    } catch (const BuildError& e) {
        r.status = Status::Failed;
        r.detail = std::string(e.what()) + " (options \"" + e.options() + "\")";
    } catch (const DeviceError& e) {
        // The launch decides whether a work-group size runs (the reported limits are not
        // trusted: see scan.h).
        const bool refused = groupSizeRefused(e.code());
        r.status = refused ? Status::Unsupported : Status::Failed;
        r.detail = e.what();
        if (refused)
            r.detail += ": " + device.info().name + " does not run " + v.kernel + " with " +
                        std::to_string(r.localSize) + " work-items per group";
    }
    if (!statusRan(r.status))
        r.stats = {};
    logInfo("reverse", r.name + " (" + r.buildOptions + ", " + std::to_string(r.globalSize) +
                           " / " + std::to_string(r.localSize) + "): " + statusName(r.status) +
                           (r.detail.empty() ? "" : " - " + r.detail));
    return r;
}

} // namespace

void checkReverseSpec(const DeviceInfo& info, const ReverseSpec& spec) {
    if (spec.variants.empty())
        throw UsageError("--kernel", "no reversal kernel to run");
    if (spec.repeats < 1)
        throw UsageError("--repeat", "must be at least 1");
    if (spec.workGroupSize > info.maxWorkGroupSize)
        throw UsageError("--wg", std::to_string(spec.workGroupSize) + " is more than " + info.name +
                                     " allows (1.." + std::to_string(info.maxWorkGroupSize) + ")");
    const std::uint64_t n = spec.input ? spec.input->size() : spec.bytes;
    if (n == 0 && !spec.input) // a size of 0 asked for: the option's error, as every command's
        throw UsageError("--size", "0 bytes: nothing to reverse");
    if (n == 0)
        throw InputError((spec.source.empty() ? std::string("reverse") : spec.source) +
                         ": the input is empty (nothing to reverse)");
    if (n > kReverseMaxBytes || n > info.maxAllocBytes)
        throw UsageError("--size",
                         std::to_string(n) + " bytes are more than the reversal takes on " +
                             info.name + " (at most " +
                             std::to_string(std::min(kReverseMaxBytes, info.maxAllocBytes)) +
                             " bytes: 32-bit indices and one buffer)");
    // The input, the device's result and the CPU reference on the host; on a CPU device its
    // two buffers too (PoCL measured 4.6 bytes a byte at 200 MB).
    checkRunMemory(spec.input ? "--input" : "--size", std::to_string(n) + " bytes",
                   (info.type == DeviceType::Cpu ? 5.0 : 3.0) * double(n));
}

ReverseRun runReverse(Device& device, const ReverseSpec& spec, const CancelToken& cancel,
                      const std::function<void(const ReverseResult&)>& progress) {
    const DeviceInfo& info = device.info();
    checkReverseSpec(info, spec);
    const std::uint64_t n = spec.input ? spec.input->size() : spec.bytes;
    const std::shared_ptr<const std::vector<std::uint8_t>> input =
        spec.input ? spec.input
                   : std::make_shared<const std::vector<std::uint8_t>>(
                         makeReverseInput(std::size_t(n), spec.seed));

    ReverseRun run;
    run.device = info;
    run.bytes = n;
    run.source = !spec.source.empty() ? spec.source
                                      : "random bytes (seed " + std::to_string(spec.seed) + ")";
    ReverseBuffers b;
    try {
        b.in = cl::Buffer(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n,
                          const_cast<std::uint8_t*>(input->data()));
        b.out = cl::Buffer(device.context(), CL_MEM_READ_WRITE, n);
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    b.readBack.resize(n);
    if (n >= 16)
        run.copy = measureCopyCeiling(device, b.in, n, spec.repeats, cancel);
    for (ReverseVariant variant : spec.variants) {
        cancel.throwIfCancelled();
        ReverseResult r = measureVariant(device, reverseVariantInfo(variant), *input, b,
                                         spec.workGroupSize, spec.repeats, cancel);
        if (statusRan(r.status) && run.copy.gbps > 0)
            r.percentOfCopy = 100.0 * r.gbps / run.copy.gbps;
        if (progress)
            progress(r);
        run.results.push_back(std::move(r));
    }
    return run;
}

} // namespace histlab
