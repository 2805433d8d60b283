#include "device.h"

#include "errors.h"
#include "kernelsource.h"
#include "log.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <mutex>

namespace histlab {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back()))))
        s.pop_back();
    return s;
}

DeviceType typeOf(cl_device_type t) {
    if (t & CL_DEVICE_TYPE_GPU)
        return DeviceType::Gpu;
    if (t & CL_DEVICE_TYPE_CPU)
        return DeviceType::Cpu;
    if (t & CL_DEVICE_TYPE_ACCELERATOR)
        return DeviceType::Accelerator;
    return DeviceType::Other;
}

std::vector<std::pair<cl::Platform, cl::Device>> allDevices() {
    std::vector<cl::Platform> platforms;
    try {
        cl::Platform::get(&platforms);
    } catch (const cl::Error& e) {
        if (e.err() == CL_PLATFORM_NOT_FOUND_KHR)
            throw DeviceError("no OpenCL platform is installed (install pocl-opencl-icd for the "
                              "CPU device, or a GPU driver's ICD)",
                              e.err());
        rethrowClError(e);
    }
    std::vector<std::pair<cl::Platform, cl::Device>> result;
    for (auto& platform : platforms) {
        std::vector<cl::Device> devices;
        try {
            platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
        } catch (const cl::Error& e) {
            if (e.err() == CL_DEVICE_NOT_FOUND)
                continue; // a platform with no device is not an error
            rethrowClError(e);
        }
        for (auto& d : devices)
            result.emplace_back(platform, d);
    }
    if (result.empty())
        throw DeviceError("no OpenCL device found on any platform", CL_DEVICE_NOT_FOUND);
    return result;
}

DeviceInfo describe(int index, int platformIndex, const cl::Platform& p, const cl::Device& d) {
    DeviceInfo info;
    info.index = index;
    info.platformIndex = platformIndex;
    info.platformName = trimmed(p.getInfo<CL_PLATFORM_NAME>());
    info.platformVersion = trimmed(p.getInfo<CL_PLATFORM_VERSION>());
    info.name = trimmed(d.getInfo<CL_DEVICE_NAME>());
    info.vendor = trimmed(d.getInfo<CL_DEVICE_VENDOR>());
    info.driverVersion = trimmed(d.getInfo<CL_DRIVER_VERSION>());
    info.deviceVersion = trimmed(d.getInfo<CL_DEVICE_VERSION>());
    info.openclCVersion = trimmed(d.getInfo<CL_DEVICE_OPENCL_C_VERSION>());
    info.type = typeOf(d.getInfo<CL_DEVICE_TYPE>());
    info.computeUnits = d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
    info.maxClockMHz = d.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>();
    info.localMemBytes = d.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    info.globalMemBytes = d.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
    info.maxAllocBytes = d.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
    info.maxWorkGroupSize = d.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    info.extensions = trimmed(d.getInfo<CL_DEVICE_EXTENSIONS>());
    return info;
}

} // namespace

const char* deviceTypeName(DeviceType type) {
    switch (type) {
    case DeviceType::Cpu:
        return "cpu";
    case DeviceType::Gpu:
        return "gpu";
    case DeviceType::Accelerator:
        return "accelerator";
    case DeviceType::Other:
        return "other";
    }
    return "other";
}

void rethrowClError(const cl::Error& error) {
    throw DeviceError(describeClError(error.what(), error.err()), error.err());
}

std::vector<DeviceInfo> enumerateDevices() {
    try {
        std::vector<DeviceInfo> infos;
        std::vector<cl::Platform> seen;
        for (auto& [platform, device] : allDevices()) {
            auto it = std::find(seen.begin(), seen.end(), platform);
            if (it == seen.end())
                it = seen.insert(seen.end(), platform);
            infos.push_back(describe(static_cast<int>(infos.size()),
                                     static_cast<int>(it - seen.begin()), platform, device));
        }
        return infos;
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

void loadOpenClDrivers() noexcept {
    static std::once_flag once;
    std::call_once(once, [] {
        try {
            allDevices();
        } catch (...) {
            // Reported by the next enumerateDevices().
        }
    });
}

int selectDevice(const std::string& selector, const std::vector<DeviceInfo>& devices) {
    if (devices.empty())
        throw DeviceError("no OpenCL device found", CL_DEVICE_NOT_FOUND);
    const std::string sel = lower(selector);
    auto firstOfType = [&](DeviceType t) -> int {
        for (const auto& d : devices)
            if (d.type == t)
                return d.index;
        return -1;
    };
    if (sel.empty() || sel == "auto") {
        if (int i = firstOfType(DeviceType::Gpu); i >= 0)
            return i;
        if (int i = firstOfType(DeviceType::Cpu); i >= 0)
            return i;
        return devices.front().index;
    }
    if (sel == "gpu" || sel == "cpu") {
        int i = firstOfType(sel == "gpu" ? DeviceType::Gpu : DeviceType::Cpu);
        if (i < 0)
            throw UsageError("--device", "no " + sel +
                                             " device on this machine (run "
                                             "'histlab-cli devices' to list them)");
        return i;
    }
    int index = -1;
    auto [end, ec] = std::from_chars(sel.data(), sel.data() + sel.size(), index);
    if (ec == std::errc() && end == sel.data() + sel.size()) {
        if (index < 0 || index >= static_cast<int>(devices.size()))
            throw UsageError("--device", "index " + selector + " is out of range (0.." +
                                             std::to_string(devices.size() - 1) + ")");
        return index;
    }
    for (const auto& d : devices)
        if (lower(d.name).find(sel) != std::string::npos ||
            lower(d.platformName).find(sel) != std::string::npos)
            return d.index;
    throw UsageError("--device", "no device matches '" + selector +
                                     "' (run 'histlab-cli devices' to list them)");
}

Device::Device(DeviceInfo info, cl::Device device)
    : m_info(std::move(info))
    , m_device(std::move(device)) {
    try {
        m_context = cl::Context(m_device);
        m_queue = cl::CommandQueue(m_context, m_device, CL_QUEUE_PROFILING_ENABLE);
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    logInfo("device", "opened device " + std::to_string(m_info.index) + ": " + m_info.name + " (" +
                          m_info.platformName + ", " + m_info.driverVersion + ")");
}

cl::Program Device::program(const std::string& family, const std::string& baseOptions) {
    // HISTLAB_EXTRA_BUILD_OPTIONS is appended to every build: a tuning and debugging aid
    // (e.g. "-cl-nv-verbose" prints NVIDIA's register use into the build log).
    static const std::string extra = [] {
        const char* e = std::getenv("HISTLAB_EXTRA_BUILD_OPTIONS");
        return e ? std::string(e) : std::string();
    }();
    const std::string options = extra.empty() ? baseOptions : baseOptions + " " + extra;
    const KernelSource source = loadKernelSource(family);
    const auto key = std::make_pair(source.text, options);
    if (auto it = m_programs.find(key); it != m_programs.end())
        return it->second;
    cl::Program program;
    try {
        program = cl::Program(m_context, source.text);
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    cl_int code = CL_SUCCESS;
    try {
        program.build(std::vector<cl::Device>{m_device}, options.c_str());
    } catch (const cl::Error& e) { // cl::BuildError too: the log is read below either way
        code = e.err();
    }
    std::string buildLog;
    try {
        buildLog = trimmed(program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(m_device));
    } catch (const cl::Error&) {
        buildLog = "(no build log)";
    }
    if (code != CL_SUCCESS)
        throw BuildError(source.origin == "embedded" ? "kernels/" + family + ".cl" : source.origin,
                         options, buildLog, code);
    logInfo("build", "built " + family + ".cl (" + source.origin + ") for " + m_info.name +
                         " with \"" + options + "\"" +
                         (buildLog.empty() ? std::string() : "\n" + buildLog));
    m_programs.emplace(key, program);
    return program;
}

std::size_t Device::kernelWorkGroupLimit(const cl::Kernel& kernel) const {
    try {
        return kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(m_device);
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

const Capabilities& Device::capabilities() {
    if (m_caps)
        return *m_caps;
    Capabilities caps;
    // Non-uniform work-groups: 17 items in groups of 16 must run, and the last group must be
    // one item wide.
    try {
        cl::Program p = program("probe", "-cl-std=CL2.0");
        cl::Kernel k(p, "probe_local_size");
        cl::Buffer out(m_context, CL_MEM_WRITE_ONLY, 17 * sizeof(cl_uint));
        k.setArg(0, out);
        m_queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(17), cl::NDRange(16));
        std::vector<cl_uint> sizes(17);
        m_queue.enqueueReadBuffer(out, CL_TRUE, 0, 17 * sizeof(cl_uint), sizes.data());
        caps.nonUniformWorkGroups = sizes[0] == 16 && sizes[16] == 1;
        caps.nonUniformDetail =
            caps.nonUniformWorkGroups
                ? "17 items in groups of 16 ran; last group 1 item"
                : "ran, but the last group reported " + std::to_string(sizes[16]) + " items";
    } catch (const BuildError& e) {
        caps.nonUniformDetail = std::string("-cl-std=CL2.0 build failed: ") + clErrorName(e.code());
    } catch (const cl::Error& e) {
        caps.nonUniformDetail = describeClError(e.what(), e.err());
    } catch (const DeviceError& e) {
        caps.nonUniformDetail = e.what();
    }
    // Work-group scan: 64 ones scanned must give 0..63 in every group.
    try {
        cl::Program p = program("probe_scan", "-cl-std=CL2.0");
        cl::Kernel k(p, "probe_scan");
        const std::size_t n = 256, wg = 64;
        cl::Buffer out(m_context, CL_MEM_WRITE_ONLY, n * sizeof(cl_uint));
        k.setArg(0, out);
        m_queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), cl::NDRange(wg));
        std::vector<cl_uint> v(n);
        m_queue.enqueueReadBuffer(out, CL_TRUE, 0, n * sizeof(cl_uint), v.data());
        bool exact = true;
        for (std::size_t i = 0; i < n; ++i)
            exact = exact && v[i] == i % wg;
        caps.workGroupScan = exact;
        caps.workGroupScanDetail = exact ? "compiled with -cl-std=CL2.0; exact on 4 groups of 64"
                                         : "compiled, but results were wrong";
    } catch (const BuildError& e) {
        caps.workGroupScanDetail =
            std::string("-cl-std=CL2.0 build failed: ") + clErrorName(e.code());
    } catch (const cl::Error& e) {
        caps.workGroupScanDetail = describeClError(e.what(), e.err());
    } catch (const DeviceError& e) {
        caps.workGroupScanDetail = e.what();
    }
    logInfo("device", m_info.name + ": non-uniform work-groups " +
                          (caps.nonUniformWorkGroups ? "yes" : "no") + " (" +
                          caps.nonUniformDetail + "); work_group_scan_exclusive_add " +
                          (caps.workGroupScan ? "yes" : "no") + " (" + caps.workGroupScanDetail +
                          ")");
    m_caps = std::move(caps);
    return *m_caps;
}

const std::vector<DeviceInfo>& DeviceSet::infos() {
    if (!m_infos)
        m_infos = enumerateDevices();
    return *m_infos;
}

Device& DeviceSet::open(int index) {
    if (auto it = m_open.find(index); it != m_open.end())
        return *it->second;
    const auto& all = infos();
    if (index < 0 || index >= static_cast<int>(all.size()))
        throw UsageError("--device", "index " + std::to_string(index) + " is out of range");
    auto devices = allDevices();
    auto dev = std::make_unique<Device>(all[index], devices[index].second);
    return *m_open.emplace(index, std::move(dev)).first->second;
}

} // namespace histlab
