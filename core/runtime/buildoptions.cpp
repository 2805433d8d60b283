#include "runtime/buildoptions.h"

namespace histlab {

// Appended piece by piece, not with operator+: GCC 12 at -O3 warns wrongly about
// `std::string + std::string` (PR 105329), and warnings are errors here.

BuildOptions& BuildOptions::standard(const std::string& version) {
    m_standard = "-cl-std=";
    m_standard += version;
    return *this;
}

BuildOptions& BuildOptions::define(const std::string& name) {
    if (!m_defines.empty())
        m_defines += ' ';
    m_defines += "-D ";
    m_defines += name;
    return *this;
}

BuildOptions& BuildOptions::define(const std::string& name, long long value) {
    define(name);
    m_defines += '=';
    m_defines += std::to_string(value);
    return *this;
}

BuildOptions& BuildOptions::flag(const std::string& option) {
    if (!m_defines.empty())
        m_defines += ' ';
    m_defines += option;
    return *this;
}

BuildOptions& BuildOptions::defineText(const std::string& name, const std::string& text) {
    define(name);
    m_defines += '=';
    m_defines += text;
    return *this;
}

BuildOptions& BuildOptions::define(const std::string& name, bool value) {
    return define(name, value ? 1LL : 0LL);
}

std::string BuildOptions::text() const {
    std::string text = m_standard;
    if (!text.empty() && !m_defines.empty())
        text += ' ';
    text += m_defines;
    return text;
}

} // namespace histlab
