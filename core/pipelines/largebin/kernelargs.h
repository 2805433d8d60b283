#pragma once
// What the large-bin family's host files share about kernels/largebin.cl: the bin rule in the
// shape a kernel argument takes, and the build options of one sample type and its bin specs.
#include "pipelines/largebin/joint.h"
#include "pipelines/largebin/largebin.h"

#include <optional>
#include <string>
#include <vector>

namespace histlab {

/// The BinParams kernel argument (kernels/largebin.cl), 48 bytes.
struct LargeBinKernelParams {
    cl_uint bins, lo, span, hiInt;
    cl_float loF, hiF, denom, binsF;
    cl_float invSpan;
    cl_uint pad[3];
};
static_assert(sizeof(LargeBinKernelParams) == 48);

LargeBinKernelParams largeBinKernelParams(const BinSpec& spec);

/// The build options for `specs` (of one sample type): the type's macros, the division option
/// for floats, BIN_SHIFT / SPAN_SHIFT where every spec allows the same one, and JOINT_MASK for a
/// joint count that reads a mask.
std::string largeBinBuildOptions(const std::vector<BinSpec>& specs, bool jointMask = false);

/// Throws UnsupportedError when float samples are asked of a device that cannot divide
/// correctly rounded (NumPy's rule needs it).
void checkFloatBins(Device& device, SampleType type);

/// NumPy's float32 edges (floatEdges) in a device buffer; one unused float for integers.
cl::Buffer edgeBuffer(Device& device, const BinSpec& spec);

/// Kernel `kernelName` of kernels/largebin.cl built for a joint spec (two planes and, where
/// `mask` is not null, the mask), its arguments 0 ... 7 set (JOINT_ARGS: both planes, the mask,
/// `n` pairs, both bin rules and edge tables).
struct JointKernel {
    std::string buildOptions;
    cl::Program program;
    cl::Buffer ea, eb;
    cl::Kernel count;
};
JointKernel jointKernel(Device& device, const cl::Buffer& a, const cl::Buffer& b,
                        const cl::Buffer* mask, std::size_t n, const JointSpec& spec,
                        const std::string& kernelName);

/// The counting kernel of a method: `prefix` ("hist" or "joint") + "_global", "_local" (local
/// and multipass), "_local16", "_runs16", "_private" or "_tagged".
std::string slotKernelName(const std::string& prefix, LargeBinMethod method);

/// One counting launch set up as a geometry says: `count` has its inputs up to argument
/// histArg - 1; argument histArg is the histogram (or the rows of private/tagged, then reduced
/// by reduce_rows), the next ones the slice, passes, copies or samples per item and the local
/// buffer.
class SlotCounter {
public:
    SlotCounter(Device& device, const cl::Program& program, cl::Kernel count, cl_uint histArg,
                const LargeBinGeometry& g, std::size_t slots);
    /// Enqueues one histogram: clear, count (every slice in one launch), reduce; appends their
    /// events.
    void enqueue(std::vector<cl::Event>& events);
    /// The `slots` counters (after enqueue).
    const cl::Buffer& histogram() const { return m_hist; }
    /// Reads the counters back (blocking).
    std::vector<std::uint32_t> read();

private:
    Device& m_device;
    cl::Kernel m_count, m_reduce;
    LargeBinGeometry m_g;
    std::size_t m_slots;
    cl::Buffer m_hist;
    std::optional<cl::Buffer> m_rows;
};

/// Times a SlotCounter: `repeats` histograms after a warm-up (profiled events). Returns the
/// device's `slots` counters of the last one.
std::vector<std::uint32_t> timeSlotCount(Device& device, const cl::Program& program,
                                         cl::Kernel& count, cl_uint histArg,
                                         const LargeBinGeometry& g, std::size_t slots, int repeats,
                                         const CancelToken& cancel, TimingStats& stats);

} // namespace histlab
