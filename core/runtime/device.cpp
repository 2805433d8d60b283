#include "runtime/device.h"
#include "runtime/buildoptions.h"

#include "runtime/bytesize.h" // formatByteSize
#include "runtime/errors.h"
#include "runtime/kernelsource.h"
#include "runtime/log.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <regex>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

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

/// PoCL's compiler prints its diagnostic count ("40 errors generated.") on the process's
/// standard error during clBuildProgram, before HistLab can say which file failed, although the
/// diagnostics themselves are in the build log HistLab reports. Standard error is redirected to
/// a temporary file around a PoCL build; what the build printed is written back afterwards,
/// less those count lines. Standard error is one per process, so PoCL builds take turns, and a
/// line another thread writes meanwhile is written back too, a little later.
class StderrDuringBuild {
public:
    explicit StderrDuringBuild(bool capture) {
        if (!capture)
            return;
        m_lock = std::unique_lock(mutex());
        std::fflush(stderr);
        m_file = std::tmpfile();
        m_saved = m_file ? ::dup(STDERR_FILENO) : -1;
        if (m_saved < 0 || ::dup2(::fileno(m_file), STDERR_FILENO) < 0) {
            restore(); // nothing is captured: the lines reach the terminal as before
        }
    }
    StderrDuringBuild(const StderrDuringBuild&) = delete;
    StderrDuringBuild& operator=(const StderrDuringBuild&) = delete;
    ~StderrDuringBuild() {
        if (m_saved < 0) {
            restore();
            return;
        }
        std::fflush(stderr);
        ::dup2(m_saved, STDERR_FILENO);
        std::string text;
        std::rewind(m_file);
        char chunk[4096];
        for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, m_file)) > 0;)
            text.append(chunk, n);
        restore();
        std::string kept;
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);)
            if (!isDiagnosticCount(line))
                kept += line + "\n";
        for (std::size_t at = 0; at < kept.size();) {
            const ssize_t n = ::write(STDERR_FILENO, kept.data() + at, kept.size() - at);
            if (n <= 0)
                break;
            at += std::size_t(n);
        }
    }

    /// clang's closing line: "N error(s) generated.", "N warning(s) generated.", or
    /// "N warning(s) and N error(s) generated.".
    static bool isDiagnosticCount(std::string_view line) {
        static const std::regex count(
            R"(^[0-9]+ (warnings?|errors?)( and [0-9]+ (warnings?|errors?))? generated\.\r?$)");
        return std::regex_match(line.begin(), line.end(), count);
    }

private:
    static std::mutex& mutex() {
        static std::mutex m;
        return m;
    }
    void restore() {
        if (m_saved >= 0)
            ::close(m_saved);
        if (m_file)
            std::fclose(m_file);
        m_saved = -1;
        m_file = nullptr;
    }
    std::unique_lock<std::mutex> m_lock;
    std::FILE* m_file = nullptr;
    int m_saved = -1;
};

/// Why PoCL may have found no device: the folder it keeps its compiled kernels in cannot be
/// made or written (it then offers none, and the ICD loader's answer is only "no device").
/// PoCL takes POCL_CACHE_DIR, else $XDG_CACHE_HOME/pocl, else $HOME/.cache/pocl. "" when the
/// folder can be written, or when none of those variables says where it is.
std::string poclCacheProblem() {
    auto env = [](const char* name) {
        const char* v = std::getenv(name);
        return std::string(v ? v : "");
    };
    std::string folder, because, variable;
    if (!env("POCL_CACHE_DIR").empty()) {
        folder = env("POCL_CACHE_DIR");
        because = "POCL_CACHE_DIR=" + folder;
        variable = "POCL_CACHE_DIR";
    } else if (!env("XDG_CACHE_HOME").empty()) {
        folder = env("XDG_CACHE_HOME") + "/pocl";
        because = "XDG_CACHE_HOME=" + env("XDG_CACHE_HOME");
        variable = "XDG_CACHE_HOME";
    } else if (!env("HOME").empty()) {
        folder = env("HOME") + "/.cache/pocl";
        because = "HOME=" + env("HOME") + ", no XDG_CACHE_HOME";
        variable = "XDG_CACHE_HOME";
    } else {
        return "";
    }
    // The nearest folder that exists on the way, tried by making (and removing) a folder in
    // it: access(W_OK) says yes to root even where the file system refuses (/proc).
    std::string probe = folder;
    struct stat st {};
    while (::stat(probe.c_str(), &st) != 0) {
        const std::size_t slash = probe.find_last_of('/');
        if (slash == std::string::npos) {
            probe = ".";
            break;
        }
        probe = slash == 0 ? "/" : probe.substr(0, slash);
    }
    bool writable = false;
    if (S_ISDIR(st.st_mode)) {
        std::string tmp = probe + (probe.back() == '/' ? "" : "/") + ".histlab-probe-XXXXXX";
        if (::mkdtemp(tmp.data())) {
            ::rmdir(tmp.c_str());
            writable = true;
        }
    }
    if (writable)
        return "";
    return "; PoCL cannot write its kernel cache " + folder + " (" + because + "): set " +
           variable + " to a writable folder";
}

std::vector<std::pair<cl::Platform, cl::Device>> allDevices() {
    std::vector<cl::Platform> platforms;
    try {
        cl::Platform::get(&platforms);
    } catch (const cl::Error& e) {
        if (e.err() == CL_PLATFORM_NOT_FOUND_KHR)
            throw DeviceError("no OpenCL platform is installed (install pocl-opencl-icd for the "
                              "CPU device, or a GPU driver's ICD)" +
                                  poclCacheProblem(),
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
        throw DeviceError("no OpenCL device found on any platform" + poclCacheProblem(),
                          CL_DEVICE_NOT_FOUND);
    return result;
}

/// A query the device may refuse: its value, or nullopt (never an exception).
template <cl_device_info Name>
auto query(const cl::Device& d) -> std::optional<decltype(d.getInfo<Name>())> {
    try {
        return d.getInfo<Name>();
    } catch (const cl::Error&) {
        return std::nullopt;
    }
}

template <typename T> std::optional<std::uint64_t> widened(const std::optional<T>& v) {
    return v ? std::optional<std::uint64_t>(std::uint64_t(*v)) : std::nullopt;
}

std::string yesNo(const std::optional<cl_bool>& v) {
    return !v ? "n/a" : *v ? "yes" : "no";
}

std::string joined(const std::vector<std::string>& parts, const char* separator = ", ") {
    std::string out;
    for (const std::string& p : parts)
        out += (out.empty() ? "" : separator) + p;
    return out;
}

/// The names of the bits of `bits` that are set, from `names` (bit, name) pairs; "none" if none.
std::string bitNames(std::uint64_t bits,
                     std::initializer_list<std::pair<std::uint64_t, const char*>> names) {
    std::vector<std::string> set;
    for (const auto& [bit, name] : names)
        if (bits & bit)
            set.emplace_back(name);
    return set.empty() ? "none" : joined(set);
}

std::string versionText(cl_version v) {
    return std::to_string(CL_VERSION_MAJOR(v)) + "." + std::to_string(CL_VERSION_MINOR(v));
}

/// OpenCL 3.0's optional features, as reported (the caller asks only 3.0 devices).
std::vector<ReportedFeature> optionalFeatures(const cl::Device& d) {
    std::vector<ReportedFeature> f;
    auto flag = [&](const char* name, const std::optional<cl_bool>& v) {
        f.push_back({name, yesNo(v)});
    };
    auto number = [&](const char* name, const std::optional<std::uint64_t>& v) {
        f.push_back({name, v ? std::to_string(*v) : "n/a"});
    };
    auto bits = [&](const char* name, const auto& v,
                    std::initializer_list<std::pair<std::uint64_t, const char*>> names) {
        f.push_back({name, v ? bitNames(std::uint64_t(*v), names) : "n/a"});
    };
    flag("non_uniform_work_group_support", query<CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT>(d));
    flag("work_group_collective_functions_support",
         query<CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT>(d));
    flag("generic_address_space_support", query<CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT>(d));
    flag("pipe_support", query<CL_DEVICE_PIPE_SUPPORT>(d));
    bits("device_enqueue_capabilities", query<CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES>(d),
         {{CL_DEVICE_QUEUE_SUPPORTED, "supported"},
          {CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT, "replaceable default"}});
    bits("svm_capabilities", query<CL_DEVICE_SVM_CAPABILITIES>(d),
         {{CL_DEVICE_SVM_COARSE_GRAIN_BUFFER, "coarse-grained buffer"},
          {CL_DEVICE_SVM_FINE_GRAIN_BUFFER, "fine-grained buffer"},
          {CL_DEVICE_SVM_FINE_GRAIN_SYSTEM, "fine-grained system"},
          {CL_DEVICE_SVM_ATOMICS, "atomics"}});
    bits("atomic_memory_capabilities", query<CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES>(d),
         {{CL_DEVICE_ATOMIC_ORDER_RELAXED, "relaxed"},
          {CL_DEVICE_ATOMIC_ORDER_ACQ_REL, "acquire/release"},
          {CL_DEVICE_ATOMIC_ORDER_SEQ_CST, "sequentially consistent"},
          {CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM, "work-item scope"},
          {CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP, "work-group scope"},
          {CL_DEVICE_ATOMIC_SCOPE_DEVICE, "device scope"},
          {CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES, "all-devices scope"}});
    number("max_num_sub_groups", widened(query<CL_DEVICE_MAX_NUM_SUB_GROUPS>(d)));
    number("max_global_variable_size", widened(query<CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE>(d)));
    number("preferred_work_group_size_multiple",
           widened(query<CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(d)));
    if (const auto features = query<CL_DEVICE_OPENCL_C_FEATURES>(d)) {
        std::vector<std::string> names;
        for (const cl_name_version& nv : *features)
            names.push_back(trimmed(nv.name));
        f.push_back({"opencl_c_features", names.empty() ? "none" : joined(names, " ")});
    } else {
        f.push_back({"opencl_c_features", "n/a"});
    }
    return f;
}

/// Everything of the device query beyond the basics, each query on its own: a device that
/// refuses one leaves that field empty.
void describeDetails(const cl::Device& d, DeviceInfo& info) {
    info.maxWorkItemDimensions = query<CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS>(d);
    if (const auto sizes = query<CL_DEVICE_MAX_WORK_ITEM_SIZES>(d))
        info.maxWorkItemSizes.assign(sizes->begin(), sizes->end());
    info.constantMemBytes = widened(query<CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE>(d));
    info.maxConstantArgs = query<CL_DEVICE_MAX_CONSTANT_ARGS>(d);
    info.globalMemCacheBytes = widened(query<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>(d));
    info.globalMemCacheLineBytes = query<CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE>(d);
    if (const auto t = query<CL_DEVICE_GLOBAL_MEM_CACHE_TYPE>(d))
        info.globalMemCacheType = *t == CL_READ_WRITE_CACHE  ? "read-write"
                                  : *t == CL_READ_ONLY_CACHE ? "read-only"
                                                             : "none";
    if (const auto t = query<CL_DEVICE_LOCAL_MEM_TYPE>(d))
        info.localMemType = *t == CL_LOCAL ? "local" : *t == CL_GLOBAL ? "global" : "none";
    if (const auto v = query<CL_DEVICE_IMAGE_SUPPORT>(d))
        info.imageSupport = *v != CL_FALSE;
    info.addressBits = query<CL_DEVICE_ADDRESS_BITS>(d);
    info.profilingTimerResolutionNs = widened(query<CL_DEVICE_PROFILING_TIMER_RESOLUTION>(d));
    // CL_DEVICE_QUEUE_ON_HOST_PROPERTIES is OpenCL 1.x's CL_DEVICE_QUEUE_PROPERTIES renamed.
    if (const auto q = query<CL_DEVICE_QUEUE_ON_HOST_PROPERTIES>(d))
        info.queueProperties =
            bitNames(*q, {{CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, "out-of-order"},
                          {CL_QUEUE_PROFILING_ENABLE, "profiling"}});
    info.preferredVectorWidths = {query<CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR>(d),
                                  query<CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT>(d),
                                  query<CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT>(d),
                                  query<CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG>(d),
                                  query<CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT>(d),
                                  query<CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE>(d),
                                  query<CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF>(d)};
    info.nativeVectorWidths = {query<CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR>(d),
                               query<CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT>(d),
                               query<CL_DEVICE_NATIVE_VECTOR_WIDTH_INT>(d),
                               query<CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG>(d),
                               query<CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT>(d),
                               query<CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE>(d),
                               query<CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF>(d)};
    const bool v3 = parseOpenClVersion(info.deviceVersion) >= std::make_pair(3, 0);
    if (v3) {
        if (const auto all = query<CL_DEVICE_OPENCL_C_ALL_VERSIONS>(d))
            for (const cl_name_version& nv : *all) {
                const std::string v = versionText(nv.version);
                if (std::find(info.openclCVersions.begin(), info.openclCVersions.end(), v) ==
                    info.openclCVersions.end())
                    info.openclCVersions.push_back(v);
            }
        info.optionalFeatures = optionalFeatures(d);
    }
    if (info.openclCVersions.empty()) {
        // "OpenCL C 1.2 PoCL": the version after "OpenCL C ".
        const std::string prefix = "OpenCL C ";
        if (info.openclCVersion.rfind(prefix, 0) == 0) {
            const std::string rest = info.openclCVersion.substr(prefix.size());
            info.openclCVersions.push_back(rest.substr(0, rest.find(' ')));
        }
    }
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
    describeDetails(d, info);
    return info;
}

} // namespace

std::uint64_t cpuThreadStackBytes() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_STACK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return std::uint64_t(2) << 20;
    return std::uint64_t(limit.rlim_cur);
}

bool hasExtension(const DeviceInfo& device, const std::string& name) {
    std::istringstream in(device.extensions);
    std::string word;
    while (in >> word)
        if (word == name)
            return true;
    return false;
}

bool nvidiaOpenCL(const DeviceInfo& device) {
    return device.type == DeviceType::Gpu && device.vendor.find("NVIDIA") != std::string::npos &&
           device.platformName.find("NVIDIA") != std::string::npos;
}

std::string deviceLine(const DeviceInfo& d) {
    return "device " + std::to_string(d.index) + ": " + d.name + " [" + deviceTypeName(d.type) +
           "], " + d.platformName + ", driver " + d.driverVersion + ", " +
           std::to_string(d.computeUnits) + " compute units, " +
           std::to_string(d.localMemBytes / 1024) + " KiB local memory";
}

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
        const StderrDuringBuild quiet(m_info.platformName.find("Portable Computing Language") !=
                                      std::string::npos);
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

void Device::throwGroupRefused(const cl::Kernel& kernel, std::size_t workGroup, int code,
                               bool asked) const {
    std::string name = "the kernel";
    try {
        name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
    } catch (const cl::Error&) {
        // (the name only makes the message clearer)
    }
    std::string limit = "; it does not report its limit for this kernel";
    try {
        limit = "; it reports a limit of " + std::to_string(kernelWorkGroupLimit(kernel)) +
                " for this kernel";
    } catch (const DeviceError&) {
        // (the limit only makes the message clearer)
    }
    const std::string reason = std::to_string(workGroup) + " work-items per group: " + m_info.name +
                               " refused the launch of " + name + " (" + clErrorName(code) + limit +
                               ")";
    if (asked)
        throw UsageError("--wg", reason);
    throw DeviceError(reason, code);
}

const Capabilities& Device::capabilities() {
    if (m_caps)
        return *m_caps;
    Capabilities caps;
    // Non-uniform work-groups: 17 items in groups of 16 must run, and the last group must be
    // one item wide.
    try {
        cl::Program p = program("probe", BuildOptions().standard("CL2.0").text());
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
        cl::Program p = program("probe_scan", BuildOptions().standard("CL2.0").text());
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

namespace {
void checkDeviceIndex(int index, const std::vector<DeviceInfo>& all) {
    if (index < 0 || index >= static_cast<int>(all.size()))
        throw UsageError("--device", "index " + std::to_string(index) + " is out of range");
}
} // namespace

std::vector<DeviceInfo> DeviceSet::infosAt(const std::vector<int>& indices) {
    std::vector<DeviceInfo> chosen;
    for (int index : indices) {
        checkDeviceIndex(index, infos());
        chosen.push_back(infos()[std::size_t(index)]);
    }
    return chosen;
}

Device& DeviceSet::open(int index) {
    if (auto it = m_open.find(index); it != m_open.end())
        return *it->second;
    const auto& all = infos();
    checkDeviceIndex(index, all);
    auto devices = allDevices();
    auto dev = std::make_unique<Device>(all[index], devices[index].second);
    return *m_open.emplace(index, std::move(dev)).first->second;
}

std::pair<int, int> parseOpenClVersion(const std::string& deviceVersion) {
    const std::string prefix = "OpenCL ";
    if (deviceVersion.rfind(prefix, 0) != 0)
        return {0, 0};
    const char* p = deviceVersion.data() + prefix.size();
    const char* end = deviceVersion.data() + deviceVersion.size();
    int major = 0, minor = 0;
    auto [dot, ec] = std::from_chars(p, end, major);
    if (ec != std::errc() || dot == end || *dot != '.')
        return {0, 0};
    if (std::from_chars(dot + 1, end, minor).ec != std::errc())
        return {0, 0};
    return {major, minor};
}

std::vector<DeviceListing> listDevices(DeviceSet& devices) {
    std::vector<DeviceListing> listing;
    for (const DeviceInfo& info : devices.infos()) {
        DeviceListing entry;
        entry.info = info;
        // One device whose probes fail is still listed; the reason says why.
        try {
            entry.capabilities = devices.open(info.index).capabilities();
        } catch (const cl::Error& e) {
            entry.probeError = describeClError(e.what(), e.err());
        } catch (const std::exception& e) {
            entry.probeError = e.what();
        }
        listing.push_back(std::move(entry));
    }
    return listing;
}

namespace {
/// `text` on one line of a tab-separated file: tabs, line ends and other control characters
/// become spaces.
std::string oneField(std::string text) {
    for (char& c : text)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = ' ';
    return text;
}

std::vector<std::string> splitTabs(const std::string& line) {
    std::vector<std::string> fields;
    std::size_t pos = 0;
    for (;;) {
        const std::size_t tab = line.find('\t', pos);
        fields.push_back(
            line.substr(pos, tab == std::string::npos ? std::string::npos : tab - pos));
        if (tab == std::string::npos)
            return fields;
        pos = tab + 1;
    }
}

constexpr const char* kProbesHeader = "# HistLab's device probe results, kept between runs: "
                                      "key, non-uniform work-groups, detail, "
                                      "work_group_scan_exclusive_add, detail";
} // namespace

std::string probeKey(const DeviceInfo& info) {
    return oneField(info.platformName + " | " + info.platformVersion + " | " + info.name + " | " +
                    info.vendor + " | " + info.driverVersion + " | " + info.deviceVersion);
}

std::vector<DeviceListing> listDevicesRemembered(DeviceSet& devices,
                                                 const RememberedProbes& remembered) {
    std::vector<DeviceListing> listing;
    for (const DeviceInfo& info : devices.infos()) {
        DeviceListing entry;
        entry.info = info;
        if (auto it = remembered.find(probeKey(info)); it != remembered.end()) {
            entry.capabilities = it->second;
            entry.probes = ProbeState::Remembered;
        } else {
            entry.probes = ProbeState::Pending;
        }
        listing.push_back(std::move(entry));
    }
    return listing;
}

std::string rememberedProbesText(RememberedProbes remembered,
                                 const std::vector<DeviceListing>& listing) {
    for (const DeviceListing& device : listing)
        if (device.probes == ProbeState::Run && device.capabilities)
            remembered[probeKey(device.info)] = *device.capabilities;
    std::string text = std::string(kProbesHeader) + "\n";
    for (const auto& [key, c] : remembered)
        text += oneField(key) + "\t" + (c.nonUniformWorkGroups ? "1" : "0") + "\t" +
                oneField(c.nonUniformDetail) + "\t" + (c.workGroupScan ? "1" : "0") + "\t" +
                oneField(c.workGroupScanDetail) + "\n";
    return text;
}

RememberedProbes rememberedProbes(const std::string& text) {
    RememberedProbes remembered;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        const std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        if (line.empty() || line[0] == '#')
            continue;
        const std::vector<std::string> f = splitTabs(line);
        const auto flag = [](const std::string& v) { return v == "1" || v == "0"; };
        if (f.size() != 5 || f[0].empty() || !flag(f[1]) || !flag(f[3]))
            continue;
        Capabilities c;
        c.nonUniformWorkGroups = f[1] == "1";
        c.nonUniformDetail = f[2];
        c.workGroupScan = f[3] == "1";
        c.workGroupScanDetail = f[4];
        remembered[f[0]] = c;
    }
    return remembered;
}

namespace {

/// "1310720 (1.25 MiB)", as clinfo writes sizes.
std::string bytesText(std::uint64_t bytes) {
    return std::to_string(bytes) + " (" + formatByteSize(bytes) + ")";
}

template <typename T> std::string orNa(const std::optional<T>& v, const std::string& suffix = {}) {
    return v ? std::to_string(*v) + suffix : "n/a";
}

std::string orNa(const std::string& v) {
    return v.empty() ? "n/a" : v;
}

} // namespace

std::vector<DeviceProperty> deviceProperties(const DeviceListing& device) {
    const DeviceInfo& d = device.info;
    std::vector<DeviceProperty> rows;
    std::string group;
    auto row = [&](std::string name, std::string value) {
        rows.push_back({group, std::move(name), std::move(value)});
    };

    group = "Device";
    row("Name", d.name);
    row("Index", std::to_string(d.index));
    row("Type", deviceTypeName(d.type));
    row("Vendor", d.vendor);
    row("Platform",
        d.platformName + (d.platformVersion.empty() ? "" : " (" + d.platformVersion + ")"));
    row("Driver version", d.driverVersion);
    row("Device version", d.deviceVersion);
    row("OpenCL C version", d.openclCVersion);
    row("OpenCL C versions", d.openclCVersions.empty() ? "n/a" : joined(d.openclCVersions));
    row("Address bits", orNa(d.addressBits));
    row("Profiling timer resolution", orNa(d.profilingTimerResolutionNs, " ns"));
    row("Queue properties (host)", orNa(d.queueProperties));

    group = "Compute";
    row("Compute units", std::to_string(d.computeUnits));
    row("Max clock", std::to_string(d.maxClockMHz) + " MHz");
    row("Max work-group size", std::to_string(d.maxWorkGroupSize));
    row("Max work-item dimensions", orNa(d.maxWorkItemDimensions));
    std::vector<std::string> sizes;
    for (std::size_t s : d.maxWorkItemSizes)
        sizes.push_back(std::to_string(s));
    row("Max work-item sizes", sizes.empty() ? "n/a" : joined(sizes, " x "));

    group = "Memory";
    row("Global memory", bytesText(d.globalMemBytes));
    row("Max allocation", bytesText(d.maxAllocBytes));
    row("Global memory cache",
        d.globalMemCacheBytes ? bytesText(*d.globalMemCacheBytes) : std::string("n/a"));
    row("Global memory cache type", orNa(d.globalMemCacheType));
    row("Global memory cache line", orNa(d.globalMemCacheLineBytes, " bytes"));
    row("Local memory", bytesText(d.localMemBytes));
    row("Local memory type", orNa(d.localMemType));
    row("Constant memory",
        d.constantMemBytes ? bytesText(*d.constantMemBytes) : std::string("n/a"));
    row("Max constant arguments", orNa(d.maxConstantArgs));
    row("Image support", !d.imageSupport ? "n/a" : *d.imageSupport ? "yes" : "no");

    group = "Vector widths (preferred / native)";
    for (std::size_t i = 0; i < kVectorTypes.size(); ++i)
        row(kVectorTypes[i],
            orNa(d.preferredVectorWidths[i]) + " / " + orNa(d.nativeVectorWidths[i]));

    group = "Optional features (OpenCL 3.0, as reported)";
    if (d.optionalFeatures.empty())
        row("(none queried)", "the device reports " + orNa(d.deviceVersion) +
                                  ": optional features are queried on OpenCL 3.0 devices");
    for (const ReportedFeature& f : d.optionalFeatures)
        row(f.name, f.value);

    group = "Extensions";
    std::vector<std::string> extensions;
    for (std::size_t pos = 0; pos < d.extensions.size();) {
        const std::size_t end = std::min(d.extensions.find(' ', pos), d.extensions.size());
        if (end > pos)
            extensions.push_back(d.extensions.substr(pos, end - pos));
        pos = end + 1;
    }
    row(std::to_string(extensions.size()) + " extensions",
        extensions.empty() ? "none" : joined(extensions, " "));

    group = "HistLab probes (compiled and run on the device)";
    if (const std::optional<Capabilities>& c = device.capabilities) {
        row("Non-uniform work-groups",
            std::string(c->nonUniformWorkGroups ? "yes" : "no") + " (" + c->nonUniformDetail + ")");
        row("work_group_scan_exclusive_add",
            std::string(c->workGroupScan ? "yes" : "no") + " (" + c->workGroupScanDetail + ")");
        if (device.probes == ProbeState::Remembered)
            row("Probed", "on an earlier run, with the same driver (run again in the background)");
    } else if (device.probes == ProbeState::Pending) {
        row("Probes", "not run yet (they run once the image shown has its histograms)");
    } else {
        row("Probes", "could not run: " + orNa(device.probeError));
    }
    return rows;
}

std::string devicesText(const std::vector<DeviceListing>& devices) {
    std::string out;
    for (const DeviceListing& device : devices) {
        out += "device " + std::to_string(device.info.index) + ": " + device.info.name + "\n";
        std::string group;
        for (const DeviceProperty& p : deviceProperties(device)) {
            if (p.group != group) {
                group = p.group;
                out += "  " + group + "\n";
            }
            out += "    " + p.name + ": " + p.value + "\n";
        }
    }
    return out;
}

PinnedHost::PinnedHost(Device& device, std::size_t bytes)
    : m_queue(device.queue()) {
    m_buffer = cl::Buffer(device.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
    m_ptr = static_cast<std::uint8_t*>(
        m_queue.enqueueMapBuffer(m_buffer, CL_TRUE, CL_MAP_WRITE | CL_MAP_READ, 0, bytes));
}

PinnedHost::~PinnedHost() {
    try {
        m_queue.enqueueUnmapMemObject(m_buffer, m_ptr);
        m_queue.finish();
    } catch (...) {
    }
}

} // namespace histlab
