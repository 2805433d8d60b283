// The bandwidth family: the ceilings every other pipeline is judged against, as dashboard
// entries of their own ("read-only" and "copy"); no command (histlab-cli memory --ceilings
// measures them per vector width).
// Metric (bandwidth.h): read-only = bytes read / kernel time; copy = (bytes read + bytes
// written) / kernel time; random bytes. Each ceiling is the fastest run of its family of
// kernels; its dashboard row gives the winner's median, like every other row.
#include "pipelines/bandwidth/bandwidth.h"
#include "pipelines/pipeline.h"

namespace histlab {

namespace {

/// A ceiling as a dashboard result: timed (a reference kernel has nothing to verify), judged
/// against itself. Its GB/s is the winner's median, as every other result's, so its bar and
/// whisker read like theirs; the ceiling is the winner's fastest run, a little above it.
DashboardResult ceilingResult(const std::string& pipeline, const char* kind,
                              const CeilingResult& c) {
    DashboardResult r;
    r.pipeline = pipeline;
    r.variant = c.kernel;
    r.bytes = c.bytes;
    r.stats = c.stats;
    r.gbps = gbPerSecond(c.bytes, c.stats.medianMs);
    r.judgeAgainst(kind, c);
    r.status = Status::Timed;
    r.reason = "a reference kernel: nothing to verify";
    return r;
}

using MeasureCeiling = CeilingResult (*)(Device&, const cl::Buffer&, std::size_t, int,
                                         const CancelToken&);

DashboardPipeline ceilingEntry(const char* name, std::string description, MeasureCeiling measure) {
    return {name, std::move(description),
            [name, measure](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
                const cl::Buffer buffer = randomDeviceBuffer(device, o.bytes, cancel);
                return std::vector<DashboardResult>{
                    ceilingResult(name, name, measure(device, buffer, o.bytes, o.repeats, cancel))};
            }};
}

} // namespace

Pipeline bandwidthPipeline() {
    Pipeline p;
    p.name = "bandwidth";
    p.summary = "the read-only and copy ceilings of a device";
    p.description = "The memory ceilings every pipeline is judged against, measured on the same "
                    "device in the same run, each the fastest run of a small family of kernels "
                    "(grid-stride loops with several loads in flight, one vector per work-item, "
                    "contiguous runs on a CPU; clEnqueueCopyBuffer for the copy): read-only = "
                    "bytes read / kernel time, copy = (bytes read + bytes written) / kernel time, "
                    "on random bytes. The variant names the kernel that won; its GB/s is that "
                    "kernel's median.";
    p.reference = "none: a reference kernel has nothing to verify (its status is timed)";
    p.dashboard = {
        ceilingEntry(
            "read-only",
            "the read-only ceiling: the fastest run of its family of load kernels on random bytes "
            "(kernels/bandwidth.cl); bytes read",
            measureReadCeiling),
        ceilingEntry("copy",
                     "the copy ceiling: the fastest run of its family of copy kernels and "
                     "clEnqueueCopyBuffer on random bytes (kernels/bandwidth.cl); bytes read + "
                     "written",
                     measureCopyCeiling),
    };
    return p;
}

} // namespace histlab
