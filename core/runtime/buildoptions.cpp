#include "runtime/buildoptions.h"

namespace histlab {

BuildOptions& BuildOptions::standard(const std::string& version) {
    m_standard = "-cl-std=" + version;
    return *this;
}

BuildOptions& BuildOptions::define(const std::string& name) {
    m_defines += (m_defines.empty() ? "" : " ") + std::string("-D ") + name;
    return *this;
}

BuildOptions& BuildOptions::define(const std::string& name, long long value) {
    m_defines +=
        (m_defines.empty() ? "" : " ") + std::string("-D ") + name + "=" + std::to_string(value);
    return *this;
}

BuildOptions& BuildOptions::define(const std::string& name, bool value) {
    return define(name, value ? 1LL : 0LL);
}

std::string BuildOptions::text() const {
    if (m_standard.empty())
        return m_defines;
    return m_defines.empty() ? m_standard : m_standard + " " + m_defines;
}

} // namespace histlab
