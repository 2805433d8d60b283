#pragma once
// OpenCL devices: enumeration with a stable index, selection, capability probes, and the
// per-device context, profiling queue and program cache. Everything here runs on the worker
// thread that owns the DeviceSet (see runner.h); nothing here is touched by a UI thread.
#include "opencl.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

enum class DeviceType { Cpu, Gpu, Accelerator, Other };
const char* deviceTypeName(DeviceType type);

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
};

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

private:
    DeviceInfo m_info;
    cl::Device m_device;
    cl::Context m_context;
    cl::CommandQueue m_queue;
    std::map<std::pair<std::string, std::string>, cl::Program> m_programs;
    std::optional<Capabilities> m_caps;
};

/// All devices of the machine, opened lazily. Owned by one thread (the runner's worker).
class DeviceSet {
public:
    const std::vector<DeviceInfo>& infos();
    Device& open(int index);
    Device& select(const std::string& selector) { return open(selectDevice(selector, infos())); }

private:
    std::optional<std::vector<DeviceInfo>> m_infos;
    std::map<int, std::unique_ptr<Device>> m_open;
};

/// Converts the bindings' cl::Error into DeviceError with the call and the code's name.
[[noreturn]] void rethrowClError(const cl::Error& error);

} // namespace histlab
