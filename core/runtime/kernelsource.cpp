#include "runtime/kernelsource.h"

#include "runtime/errors.h"
#include "runtime/log.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string_view>

namespace histlab {
namespace detail {
const std::map<std::string, std::string_view>& embeddedKernels(); // generated
}

namespace {
std::mutex g_mutex;
std::string g_dir;
std::set<std::string> g_warned; // kernels the folder lacks, said once each
} // namespace

void setKernelDir(const std::string& dir) {
    if (!dir.empty() && !std::filesystem::is_directory(dir))
        throw UsageError("--kernel-dir", "'" + dir + "' is not a folder");
    std::lock_guard lock(g_mutex);
    g_dir = dir;
    g_warned.clear();
}

std::string kernelDir() {
    std::lock_guard lock(g_mutex);
    return g_dir;
}

namespace {

KernelSource loadOne(const std::string& name) {
    const std::string dir = kernelDir();
    if (!dir.empty()) {
        const auto path = std::filesystem::path(dir) / (name + ".cl");
        if (std::filesystem::is_regular_file(path)) {
            std::ifstream in(path, std::ios::binary);
            std::ostringstream text;
            text << in.rdbuf();
            if (!in)
                throw InputError(path.string() + ": cannot read kernel file");
            return {name, text.str(), path.string()};
        }
        // A folder of edited kernels may hold only the one being edited: the others come from
        // the build, and the user is told so once, not left to believe the folder was used.
        std::lock_guard lock(g_mutex);
        if (g_warned.insert(name).second)
            logWarning("kernels", "--kernel-dir " + dir + " has no " + name +
                                      ".cl: the copy embedded at build time is used");
    }
    const auto& kernels = detail::embeddedKernels();
    const auto it = kernels.find(name);
    if (it == kernels.end())
        throw InputError("no kernel family '" + name + "' (kernels/" + name + ".cl)");
    return {name, std::string(it->second), "embedded"};
}

/// `text` with each line `#include "NAME.cl"` replaced by kernels/NAME.cl's text (itself
/// resolved), each file once: the OpenCL compiler gets one source, whether the kernels come
/// embedded or from --kernel-dir.
std::string resolveIncludes(const std::string& text, std::set<std::string>& included) {
    if (text.find("#include \"") == std::string::npos)
        return text; // as written, to the byte
    std::istringstream in(text);
    std::string out, line;
    const std::string head = "#include \"", tail = ".cl\"";
    while (std::getline(in, line)) {
        if (line.rfind(head, 0) == 0 && line.size() > head.size() + tail.size() &&
            line.compare(line.size() - tail.size(), tail.size(), tail) == 0) {
            const std::string name =
                line.substr(head.size(), line.size() - head.size() - tail.size());
            if (included.insert(name).second)
                out += resolveIncludes(loadOne(name).text, included);
            continue;
        }
        out += line;
        out += '\n';
    }
    return out;
}

} // namespace

KernelSource loadKernelSource(const std::string& name) {
    KernelSource source = loadOne(name);
    std::set<std::string> included{name};
    source.text = resolveIncludes(source.text, included);
    return source;
}

} // namespace histlab
