#include "report/files.h"

#include "runtime/errors.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

namespace histlab {

namespace fs = std::filesystem;

void checkWritable(const std::string& path) {
    if (path == "-")
        return;
    if (path.empty())
        throw InputError("output path is empty");
    const fs::path p(path);
    if (fs::is_directory(p))
        throw InputError(path + ": is a folder, not a file");
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(dir))
        throw InputError(path + ": folder '" + dir.string() + "' does not exist");
    if (::access(dir.c_str(), W_OK) != 0)
        throw InputError(path + ": folder '" + dir.string() + "' is not writable");
}

void writeFileAtomically(const std::string& path, const std::string& content) {
    if (path == "-") {
        std::cout << content << std::flush;
        return;
    }
    checkWritable(path);
    const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw InputError(path + ": cannot create (" + std::strerror(errno) + ")");
        out << content;
        out.flush();
        if (!out) {
            std::error_code ignored;
            fs::remove(tmp, ignored);
            throw InputError(path + ": write failed (" + std::strerror(errno) + ")");
        }
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        throw InputError(path + ": cannot replace (" + ec.message() + ")");
    }
}

std::string readTextFile(const std::string& path) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (fs::is_directory(st))
        throw InputError(path + ": is a folder, not a file");
    // A FIFO or a device would block or never end: only regular files are read.
    if (fs::exists(st) && !fs::is_regular_file(st))
        throw InputError(path + ": not a regular file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path + ": cannot be read");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::uint64_t peakRssBytes() {
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return 0;
    return std::uint64_t(usage.ru_maxrss) * 1024; // Linux reports KiB
}

std::string utcTimestamp() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace histlab
