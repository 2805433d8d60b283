#pragma once
// Memory ceilings of a device, measured in the same run as the pipeline they judge.
// Metric: read_bytes = bytes read / s; copy_bytes = (bytes read + bytes written) / s.
#include "report/ceiling.h"
#include "report/status.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/timing.h"

#include <vector>

namespace histlab {

/// `bytes` random bytes in a new read-only device buffer, made on the host in 16 MiB pieces:
/// data no memory system can compress, so that no ceiling is flattered.
cl::Buffer randomDeviceBuffer(Device& device, std::size_t bytes, const CancelToken& cancel = {});

/// The read-only ceiling on the first `bytes` of `buffer`: each kernel of the device's read
/// family (ceilingFamily) timed `repeats` times after a warm-up; the fastest run wins. A
/// member that cannot run is listed with its reason; throws the last member's error if none
/// ran, CancelledError when cancelled.
CeilingResult measureReadCeiling(Device& device, const cl::Buffer& buffer, std::size_t bytes,
                                 int repeats, const CancelToken& cancel = {});

/// The copy ceiling: `bytes` of `src` copied to a scratch buffer on the device by each kernel of
/// the copy family and by clEnqueueCopyBuffer; the fastest run wins (as measureReadCeiling).
CeilingResult measureCopyCeiling(Device& device, const cl::Buffer& src, std::size_t bytes,
                                 int repeats, const CancelToken& cancel = {});

/// A device's read-only and copy ceilings timed run for run with the work they judge: each
/// family once at the start (its winner chosen), then every member of each family once whenever
/// runOnce() is called, which the dashboard does after each timed run of a pipeline
/// (TimingPartner, runtime/timing.h); a round's ceiling is its fastest member. runs() holds the
/// rounds in order, so that a pipeline's timed call is judged against the ceiling of its own
/// rounds.
class AlternatingCeilings {
public:
    /// Measures both families on `bytes` random bytes (`repeats` runs of each member). Throws
    /// as measureReadCeiling does.
    AlternatingCeilings(Device& device, std::size_t bytes, int repeats,
                        const CancelToken& cancel = {});
    /// One round: each member that ran at the start, once more (no warm-up: it ran before).
    void runOnce(const CancelToken& cancel = {});
    /// The read-only (copy: the copy) ceiling of each round of runOnce, in order: the fastest
    /// member's time on the winner's bytes, in ms (0 for a family none of which ran).
    const std::vector<double>& runs(bool copy) const { return copy ? m_copyRuns : m_readRuns; }
    /// The ceiling chosen at the start: its winner, bytes, the start's runs of it and every
    /// member of the family.
    const CeilingResult& ceiling(bool copy) const { return copy ? m_copy : m_read; }

private:
    Device& m_device;
    std::size_t m_bytes;
    cl::Buffer m_src, m_sink, m_dst;
    CeilingResult m_read, m_copy;
    std::vector<double> m_readRuns, m_copyRuns;
};

/// How a ceiling kernel is launched (kernels/bandwidth.cl).
enum class CeilingShape {
    Strided,    ///< grid-stride loop, compute units x 8 groups of up to 256 work-items
    Serial,     ///< one contiguous run per work-item, compute units x 4 groups of one work-item
    Items,      ///< one element per work-item, groups of up to 256 work-items
    CopyBuffer, ///< clEnqueueCopyBuffer (copy only)
};

/// One member of a ceiling family.
struct CeilingKernel {
    CeilingShape shape = CeilingShape::Strided;
    int width = 4;  ///< uints per element
    int unroll = 1; ///< loads in flight per loop iteration (Strided only)
    std::string label(bool copy) const;
};

/// The family a ceiling on `type` is the best of. A GPU (or accelerator): grid-stride uint4
/// with 4 and 8 loads in flight (copy: 1 and 4), one uint4 or uint2 per work-item. A CPU:
/// contiguous runs of uint4 and uint16, one uint4 or uint16 per work-item. Copies add
/// clEnqueueCopyBuffer.
std::vector<CeilingKernel> ceilingFamily(DeviceType type, bool copy);

/// One kernel of a family timed `repeats` times after a warm-up on the first `bytes` of `src`
/// (whole elements of its width): a copy writes them to `third`, a read may write 4 bytes to
/// `third` (its sink). A member with fewer bytes than one element has an error and no timing.
/// Throws DeviceError (BuildError, UnsupportedError) when it cannot run.
CeilingTiming measureCeilingKernel(Device& device, const CeilingKernel& kernel, bool copy,
                                   const cl::Buffer& src, const cl::Buffer& third,
                                   std::size_t bytes, int repeats, const CancelToken& cancel = {});

// ---------------------------------------------------------------------------------------------
// Ceilings per vector width, as clpeak measures them: the same read-only and copy
// kernels with elements of 1, 2, 4, 8 and 16 uints (uint ... uint16), on random bytes (nothing
// a memory system could compress), each width built with -D WIDTH=w.

/// The widths of a full sweep: uints per element.
inline const std::vector<int> kCeilingWidths = {1, 2, 4, 8, 16};

/// The read-only and copy kernels at one width.
struct WidthCeiling {
    int width = 4; ///< uints per element (4 x width bytes)
    /// verified: both ran and the copy's output equals its input byte for byte; mismatch: it
    /// does not; failed/unsupported: the width could not run (the detail says why)
    Status status = Status::Failed;
    std::string detail;
    CeilingTiming read, copy;
};

struct CeilingSweep {
    std::uint64_t bytes = 0; ///< the buffer each width reads (a multiple of 64)
    std::vector<WidthCeiling> widths;
    int bestReadWidth = 0, bestCopyWidth = 0; ///< 0 when no width ran
    double bestReadGbps = 0, bestCopyGbps = 0;
};

/// Measures the read-only and copy kernels at each of `widths` on `bytes` (rounded down to 64)
/// random bytes and says which width is best for each. One width that cannot run is a result
/// with that status; the sweep goes on. Throws UsageError("--ceiling-size") below 64 bytes or
/// above the device's largest buffer, UsageError("--width") for a width not in
/// kCeilingWidths, CancelledError when cancelled.
CeilingSweep measureCeilingWidths(Device& device, std::size_t bytes, int repeats,
                                  const CancelToken& cancel = {},
                                  const std::vector<int>& widths = kCeilingWidths);

} // namespace histlab
