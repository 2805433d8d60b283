#pragma once
// Errors raised inside the core. Each kind maps to one CLI exit code and one JobError kind:
// usage (a bad parameter), input (a bad file or data), device (OpenCL), build (a kernel that
// does not compile: carries the file, the exact options and the build log).
#include <stdexcept>
#include <string>

namespace histlab {

/// A parameter that is out of range or malformed; `parameter` names it (e.g. "--banks").
class UsageError : public std::runtime_error {
public:
    UsageError(std::string parameter, const std::string& reason)
        : std::runtime_error(parameter + ": " + reason)
        , m_parameter(std::move(parameter)) {}
    const std::string& parameter() const { return m_parameter; }

private:
    std::string m_parameter;
};

/// An input that cannot be used (missing, empty, damaged or unsupported file; empty data).
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// An OpenCL call that failed; the message names the call and the error code by name.
class DeviceError : public std::runtime_error {
public:
    DeviceError(const std::string& message, int code = 0)
        : std::runtime_error(message)
        , m_code(code) {}
    int code() const { return m_code; }

private:
    int m_code;
};

/// A variant the device cannot run (a probed capability is missing); never replaced silently.
class UnsupportedError : public DeviceError {
public:
    explicit UnsupportedError(const std::string& message)
        : DeviceError(message) {}
};

/// A kernel that failed to build, with everything needed to reproduce it.
class BuildError : public DeviceError {
public:
    /// `kernelFile`: "kernels/NAME.cl", or the --kernel-dir file that was compiled.
    BuildError(std::string kernelFile, std::string options, std::string log, int code);
    const std::string& kernelFile() const { return m_kernelFile; }
    const std::string& options() const { return m_options; }
    const std::string& buildLog() const { return m_log; }

private:
    std::string m_kernelFile;
    std::string m_options;
    std::string m_log;
};

/// The OpenCL error code's symbolic name, e.g. "CL_INVALID_WORK_GROUP_SIZE" for -54.
const char* clErrorName(int code);

/// True for the errors with which a device refuses a launch for its work-group size:
/// CL_INVALID_WORK_GROUP_SIZE, and CL_OUT_OF_RESOURCES, NVIDIA's answer when a group's registers
/// do not fit a compute unit. The reported kernel limits do not decide it: NVIDIA's driver 580
/// reports 256 for kernels it runs in groups of 1024.
bool groupSizeRefused(int code);

/// "clEnqueueNDRangeKernel failed: CL_INVALID_WORK_GROUP_SIZE (-54)".
std::string describeClError(const char* call, int code);

/// `message` without a leading "PATH: ": the reason alone, for a row that names the file.
std::string withoutPathPrefix(const std::string& message, const std::string& path);

} // namespace histlab
