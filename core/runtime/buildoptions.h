#pragma once
// The options of one kernel build, put together in one place. Kernel variants are -D defines of
// one .cl family (never copies of host code); Device::program() appends
// HISTLAB_EXTRA_BUILD_OPTIONS, logs the exact string with the build log, keys its program cache
// on it and shows it with any build failure.
#include <string>

namespace histlab {

class BuildOptions {
public:
    /// -cl-std=VERSION ("CL1.2", "CL2.0"): the OpenCL C version, first in the string.
    BuildOptions& standard(const std::string& version);
    /// -D NAME: defined, with no value (for #ifdef).
    BuildOptions& define(const std::string& name);
    /// -D NAME=VALUE; a bool is written 1 or 0.
    BuildOptions& define(const std::string& name, long long value);
    BuildOptions& define(const std::string& name, bool value);
    /// A compiler option of its own ("-cl-fp32-correctly-rounded-divide-sqrt").
    BuildOptions& flag(const std::string& option);
    /// -D NAME=TEXT: a type or an expression ("-D SAMPLE_T=ushort"). A name of its own, so that a
    /// string literal never picks the bool overload.
    BuildOptions& defineText(const std::string& name, const std::string& text);
    BuildOptions& define(const std::string& name, int value) {
        return define(name, (long long)value);
    }
    BuildOptions& define(const std::string& name, unsigned long value) {
        return define(name, (long long)value);
    }
    /// "-cl-std=CL2.0 -D A=1 -D B=0".
    std::string text() const;

private:
    std::string m_standard;
    std::string m_defines;
};

} // namespace histlab
