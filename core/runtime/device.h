#pragma once
// OpenCL devices: enumeration with a stable index, selection, capability probes, and the
// per-device context, profiling queue and program cache. Everything here runs on the worker
// thread that owns the DeviceSet (see runner.h); nothing here is touched by a UI thread.
#include "runtime/opencl.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

/// `v` rounded up to a multiple of `m`: a global size that whole work-groups of `m` cover
/// (OpenCL 1.2 devices need global % local == 0).
inline std::size_t roundUp(std::size_t v, std::size_t m) {
    return (v + m - 1) / m * m;
}

enum class DeviceType { Cpu, Gpu, Accelerator, Other };
const char* deviceTypeName(DeviceType type);

/// The scalar types of the vector-width queries, in DeviceInfo's order.
inline constexpr std::array<const char*, 7> kVectorTypes = {"char",  "short",  "int", "long",
                                                            "float", "double", "half"};

/// One optional feature as the device reports it: `name` is the query without CL_DEVICE_, in
/// lower case ("non_uniform_work_group_support", "opencl_c_features", ...); `value` is "yes" or
/// "no" for flags, the list or number otherwise, and "n/a" where the device refuses the query.
struct ReportedFeature {
    std::string name;
    std::string value;
};

/// What the device reports about itself (a plain value, safe to hand to any thread).
struct DeviceInfo {
    int index = -1; ///< stable: platforms in ICD order, devices in platform order
    int platformIndex = -1;
    std::string platformName;
    std::string platformVersion;
    std::string name;
    std::string vendor;
    std::string driverVersion;
    std::string deviceVersion;  ///< e.g. "OpenCL 3.0 CUDA"
    std::string openclCVersion; ///< e.g. "OpenCL C 1.2 "
    DeviceType type = DeviceType::Other;
    std::uint32_t computeUnits = 0;
    std::uint32_t maxClockMHz = 0;
    std::uint64_t localMemBytes = 0;
    std::uint64_t globalMemBytes = 0;
    std::uint64_t maxAllocBytes = 0;
    std::size_t maxWorkGroupSize = 0;
    std::string extensions;

    // The rest of a device query (what clinfo shows that matters here). Each is left empty
    // (nullopt, "" or no entries) where the device refuses the query.
    std::optional<std::uint32_t> maxWorkItemDimensions;
    std::vector<std::size_t> maxWorkItemSizes; ///< per dimension
    std::optional<std::uint64_t> constantMemBytes;
    std::optional<std::uint32_t> maxConstantArgs;
    std::optional<std::uint64_t> globalMemCacheBytes;
    std::optional<std::uint32_t> globalMemCacheLineBytes;
    std::string globalMemCacheType; ///< "none", "read-only" or "read-write"
    std::string localMemType;       ///< "local" (dedicated) or "global" (emulated in global)
    std::optional<bool> imageSupport;
    std::optional<std::uint32_t> addressBits;
    std::optional<std::uint64_t> profilingTimerResolutionNs;
    std::string queueProperties; ///< the host queue's: "out-of-order, profiling"
    /// Preferred and native vector widths, in the order of kVectorTypes (0: the type is not
    /// supported, e.g. half without cl_khr_fp16).
    std::array<std::optional<std::uint32_t>, 7> preferredVectorWidths;
    std::array<std::optional<std::uint32_t>, 7> nativeVectorWidths;
    /// OpenCL C versions the compiler accepts ("1.0", "1.1", "1.2", "3.0"):
    /// CL_DEVICE_OPENCL_C_ALL_VERSIONS on OpenCL 3.0 devices, else the one of openclCVersion.
    std::vector<std::string> openclCVersions;
    /// OpenCL 3.0's optional features as the device reports them (3.0 devices only): see
    /// ReportedFeature. The reported flags are not what decides a variant: Capabilities does.
    std::vector<ReportedFeature> optionalFeatures;
};

/// "device 0: NAME [gpu], PLATFORM, driver X, 132 compute units, 48 KiB local memory": the line
/// every report starts with.
std::string deviceLine(const DeviceInfo& device);

/// Whether the device lists the OpenCL extension `name` (a whole word of its extensions).
bool hasExtension(const DeviceInfo& device, const std::string& name);

/// A GPU of NVIDIA's own OpenCL platform, whose compiler takes inline PTX and NVIDIA's build
/// options. The vendor alone does not say it: PoCL's CUDA and Vulkan drivers name NVIDIA too.
bool nvidiaOpenCL(const DeviceInfo& device);

/// The stack of one thread of a CPU device's runtime, which holds a work-group's private arrays
/// (PoCL runs a work-group on one thread and keeps every work-item's private arrays on its
/// stack): the stack limit (`ulimit -s`, RLIMIT_STACK), or glibc's 2 MiB for threads where that
/// is unlimited. Measured with PoCL 3.1: 8 MiB of private histograms crash at the default 8 MiB,
/// 6 MiB run; at 4 MiB, 6 MiB crash and 3 MiB run.
std::uint64_t cpuThreadStackBytes();

/// Capabilities learned by compiling and running tiny probes (the reported flags lie).
struct Capabilities {
    bool nonUniformWorkGroups = false;
    std::string nonUniformDetail; ///< why not, or what was seen
    bool workGroupScan = false;   ///< work_group_scan_exclusive_add compiles and is exact
    std::string workGroupScanDetail;
};

/// Lists every device of every platform; throws DeviceError if there is no OpenCL platform.
std::vector<DeviceInfo> enumerateDevices();

/// Loads the OpenCL drivers once (clGetPlatformIDs, clGetDeviceIDs on each platform) and
/// swallows any error: a later enumerateDevices() reports it. Call this on the main thread
/// before starting threads that use OpenCL: PoCL's first device query calls setenv(), which
/// races with getenv() on every other thread (glibc frees the old environment array), and
/// crashed the window's tests in CI once.
void loadOpenClDrivers() noexcept;

/// Picks a device: "" or "auto" (first GPU, else first CPU, else the first device), an index,
/// "gpu"/"cpu", or a case-insensitive substring of the device or platform name.
/// Throws UsageError("--device") when nothing matches.
int selectDevice(const std::string& selector, const std::vector<DeviceInfo>& devices);

/// One opened device: its context, in-order profiling queue, programs and probes.
class Device {
public:
    Device(DeviceInfo info, cl::Device device);

    const DeviceInfo& info() const { return m_info; }
    const cl::Device& device() const { return m_device; }
    const cl::Context& context() const { return m_context; }
    cl::CommandQueue& queue() { return m_queue; }

    /// The program of kernels/FAMILY.cl built with OPTIONS, cached per (source, options).
    /// Throws BuildError with the file, the options and the log.
    cl::Program program(const std::string& family, const std::string& options);
    std::size_t cachedPrograms() const { return m_programs.size(); }

    /// Probed on first use, then remembered.
    const Capabilities& capabilities();

    /// The largest work-group size the device accepts for this kernel.
    std::size_t kernelWorkGroupLimit(const cl::Kernel& kernel) const;

    /// The error for a launch of `kernel` in groups of `workGroup` work-items that this device
    /// refused (groupSizeRefused(code)): UsageError("--wg") when the size was asked for, else a
    /// DeviceError with the code; each names the device, the kernel, the error and the limit the
    /// device reports for the kernel.
    [[noreturn]] void throwGroupRefused(const cl::Kernel& kernel, std::size_t workGroup, int code,
                                        bool asked) const;

private:
    DeviceInfo m_info;
    cl::Device m_device;
    cl::Context m_context;
    cl::CommandQueue m_queue;
    std::map<std::pair<std::string, std::string>, cl::Program> m_programs;
    std::optional<Capabilities> m_caps;
};

/// All devices of the machine, opened lazily. Owned by one thread (the runner's worker).
/// A host buffer the OpenCL driver has pinned (CL_MEM_ALLOC_HOST_PTR, mapped once for reading
/// and writing): what transfers are timed from, end to end.
class PinnedHost {
public:
    PinnedHost(Device& device, std::size_t bytes);
    ~PinnedHost();
    PinnedHost(const PinnedHost&) = delete;
    PinnedHost& operator=(const PinnedHost&) = delete;
    std::uint8_t* data() const { return m_ptr; }

private:
    cl::CommandQueue& m_queue;
    cl::Buffer m_buffer;
    std::uint8_t* m_ptr = nullptr;
};

class DeviceSet {
public:
    const std::vector<DeviceInfo>& infos();
    /// The devices at `indices`, in that order; UsageError("--device") for one out of range.
    std::vector<DeviceInfo> infosAt(const std::vector<int>& indices);
    Device& open(int index);
    Device& select(const std::string& selector) { return open(selectDevice(selector, infos())); }

private:
    std::optional<std::vector<DeviceInfo>> m_infos;
    std::map<int, std::unique_ptr<Device>> m_open;
};

/// Where a listing's probe results come from.
enum class ProbeState {
    Run,        ///< run on the device for this listing (or found unable to run: probeError)
    Remembered, ///< kept from an earlier run on the same device and driver (rememberedProbes)
    Pending,    ///< not run yet, and none remembered: capabilities empty, probeError empty
};

/// One device as listed: what it reports and what its probes found (or why they could not run).
struct DeviceListing {
    DeviceInfo info;
    std::optional<Capabilities> capabilities; ///< empty when the probes could not run (or not yet)
    std::string probeError;                   ///< why, if they could not
    ProbeState probes = ProbeState::Run;
};

/// Every device of the set with its probes; a device that cannot be opened or probed is still
/// listed, with the reason. Throws DeviceError when there is no device at all.
std::vector<DeviceListing> listDevices(DeviceSet& devices);

/// Probe results kept between runs of a program, by probeKey().
using RememberedProbes = std::map<std::string, Capabilities>;

/// What a device's probe results stay true for: its platform (name, version), its name, vendor,
/// driver version and OpenCL version. A new driver is probed again.
std::string probeKey(const DeviceInfo& info);

/// Every device of the set without running a probe (no device is opened): the results
/// `remembered` holds for a device's probeKey() (ProbeState::Remembered), else none yet
/// (ProbeState::Pending). What a window lists at once at launch, where the probes (a second or
/// more of kernel builds on a CPU device) would hold back the image; listDevices() runs them
/// after. Throws DeviceError when there is no device at all.
std::vector<DeviceListing> listDevicesRemembered(DeviceSet& devices,
                                                 const RememberedProbes& remembered);

/// The probe results of `listing` that were run (ProbeState::Run, not failed) added to
/// `remembered`, as the text rememberedProbes() reads: one line per device, tab-separated.
std::string rememberedProbesText(RememberedProbes remembered,
                                 const std::vector<DeviceListing>& listing);

/// The probe results in `text` (rememberedProbesText()'s). A line that does not read as one is
/// skipped (a damaged or foreign file forgets what it cannot say, and the probes run again).
RememberedProbes rememberedProbes(const std::string& text);

/// "OpenCL 3.0 CUDA" -> {3, 0}; {0, 0} when the text does not start with "OpenCL M.N".
std::pair<int, int> parseOpenClVersion(const std::string& deviceVersion);

/// A device's properties as labelled rows, grouped as a device query shows them (identity,
/// compute, memory, vectors, features, extensions, then HistLab's probes): what the Devices tab
/// shows and copies as text. Values a device refused read "n/a".
struct DeviceProperty {
    std::string group; ///< "Device", "Compute", "Memory", "Vector widths", ...
    std::string name;
    std::string value;
};
std::vector<DeviceProperty> deviceProperties(const DeviceListing& device);

/// Every device as plain text: one "name: value" line per property, a heading per group.
std::string devicesText(const std::vector<DeviceListing>& devices);

/// Converts the bindings' cl::Error into DeviceError with the call and the code's name.
[[noreturn]] void rethrowClError(const cl::Error& error);

} // namespace histlab
