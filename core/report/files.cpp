#include "report/files.h"

#include "runtime/bytesize.h"
#include "runtime/errors.h"

#include <atomic>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

namespace histlab {

namespace fs = std::filesystem;

namespace {

bool startsWith(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

bool descriptorName(const std::string& p, int fd) {
    const std::string n = std::to_string(fd);
    return p == "/dev/fd/" + n || p == "/proc/self/fd/" + n;
}

[[noreturn]] void cannotUse(const std::string& path, int err) {
    throw InputError(path + ": " + std::strerror(err));
}

// "<file>.tmp-<pid>" beside the file, the name shortened where it would not fit NAME_MAX.
std::string temporaryFor(const std::string& file) {
    const fs::path p(file);
    // The process and a count: two threads writing files of one name at once (or of names
    // that match up to the cut below) never share a temporary file.
    static std::atomic<unsigned long> next{0};
    const std::string suffix = ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(++next);
    std::string name = p.filename().string();
    if (name.size() + suffix.size() > NAME_MAX)
        name.resize(NAME_MAX - suffix.size());
    return (p.parent_path() / (name + suffix)).string();
}

// Writes into a file that is not a regular one (a device, a FIFO, a descriptor's name) as a
// shell's redirection would. A FIFO nobody reads is refused, not waited on.
void writeThrough(const std::string& path, const std::string& target, const std::string& content) {
    const int fd = ::open(target.c_str(), O_WRONLY | O_TRUNC | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENXIO)
            throw InputError(path + ": cannot be written (a FIFO that no process reads)");
        throw InputError(path + ": cannot be written (" + std::strerror(errno) + ")");
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    for (std::size_t done = 0; done < content.size();) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int err = n < 0 ? errno : EIO;
            ::close(fd);
            throw InputError(path + ": write failed (" + std::strerror(err) + ")");
        }
        done += std::size_t(n);
    }
    if (::close(fd) != 0 && errno != EINTR)
        throw InputError(path + ": write failed (" + std::strerror(errno) + ")");
}

} // namespace

OutputTarget outputTarget(const std::string& path) {
    using Kind = OutputTarget::Kind;
    if (path.empty())
        throw InputError("output path is empty");
    if (path == "-" || path == "/dev/stdout" || descriptorName(path, 1))
        return {Kind::Stdout, path};
    if (path == "/dev/stderr" || descriptorName(path, 2))
        return {Kind::Stderr, path};
    std::string p = path;
    for (int links = 0;; ++links) {
        struct stat st {};
        if (::stat(p.c_str(), &st) == 0) {
            if (S_ISDIR(st.st_mode))
                throw InputError(path + ": is a folder, not a file");
            // A descriptor's name is written through even where it leads to a regular file:
            // the file is the caller's open one (`3>file`), not a path to replace.
            if (!S_ISREG(st.st_mode) || startsWith(p, "/dev/fd/") || startsWith(p, "/proc/"))
                return {Kind::Stream, p};
            // A regular file, perhaps through links: the file itself is replaced, the links
            // stay as they are.
            std::error_code ec;
            const fs::path real = fs::canonical(p, ec);
            if (ec)
                cannotUse(path, ec.value());
            return {Kind::File, real.string()};
        }
        if (errno != ENOENT) // a loop of links, a name too long, a file where a folder should be
            cannotUse(path, errno);
        // Missing: a new file, unless p is a link to a missing file, which is then created.
        struct stat link {};
        if (::lstat(p.c_str(), &link) != 0 || !S_ISLNK(link.st_mode))
            return {Kind::File, p};
        if (links == 40)
            cannotUse(path, ELOOP);
        std::error_code ec;
        fs::path target = fs::read_symlink(p, ec);
        if (ec)
            cannotUse(path, ec.value());
        if (target.is_relative())
            target = fs::path(p).parent_path() / target;
        p = target.string();
    }
}

namespace {

// checkWritable's checks of a target already resolved.
void checkWritableTarget(const std::string& path, const OutputTarget& t) {
    if (t.kind == OutputTarget::Kind::Stream) {
        if (::access(t.path.c_str(), W_OK) != 0)
            throw InputError(path + ": cannot be written (" + std::strerror(errno) + ")");
        return;
    }
    if (t.kind != OutputTarget::Kind::File)
        return;
    const fs::path p(t.path);
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw InputError(path + ": folder '" + dir.string() + "' does not exist");
    if (::access(dir.c_str(), W_OK) != 0)
        throw InputError(path + ": folder '" + dir.string() + "' is not writable");
}

} // namespace

void checkWritable(const std::string& path) {
    checkWritableTarget(path, outputTarget(path));
}

std::string lowercaseExtension(const std::string& path) {
    std::string e = fs::path(path).extension().string();
    for (char& c : e)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return e;
}

bool sameFile(const std::string& a, const std::string& b) {
    if (a == "-" || b == "-")
        return false;
    struct stat sa {
    }, sb{};
    const bool hasA = ::stat(a.c_str(), &sa) == 0, hasB = ::stat(b.c_str(), &sb) == 0;
    if (hasA && hasB) // two outputs into /dev/null or a pipe are no loss
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && S_ISREG(sa.st_mode);
    if (hasA || hasB)
        return false;
    // Neither exists yet: the files they would create, through dangling links and from the
    // same folder ("a.out" and "./a.out", or a link to "made.csv" and "made.csv").
    const auto created = [](const std::string& path, std::error_code& ec) {
        fs::path target;
        try {
            target = outputTarget(path).path;
        } catch (const InputError&) {
            ec = std::make_error_code(std::errc::invalid_argument); // reported by checkWritable
            return fs::path();
        }
        const fs::path absolute = fs::absolute(target, ec);
        return ec ? fs::path() : fs::weakly_canonical(absolute, ec);
    };
    std::error_code ea, eb;
    const fs::path ca = created(a, ea), cb = created(b, eb);
    return !ea && !eb && ca == cb;
}

std::string outputLocation(const std::string& path) {
    const OutputTarget t = outputTarget(path);
    if (t.kind != OutputTarget::Kind::File)
        return "";
    std::error_code ec;
    const fs::path absolute = fs::absolute(t.path, ec);
    if (ec)
        cannotUse(path, ec.value());
    const fs::path normal = fs::weakly_canonical(absolute, ec);
    if (ec)
        cannotUse(path, ec.value());
    return normal.string();
}

bool pathWithin(const std::string& outer, const std::string& inner) {
    const fs::path o = fs::path(outer).lexically_normal(), i = fs::path(inner).lexically_normal();
    auto at = i.begin();
    for (const fs::path& part : o) {
        if (part.empty()) // a trailing separator
            continue;
        if (at == i.end() || *at != part)
            return false;
        ++at;
    }
    return true;
}

void writeFileAtomically(const std::string& path, const std::string& content) {
    writeFileStreamed(path, [&content](std::ostream& out) { out << content; });
}

void writeFileStreamed(const std::string& path, const std::function<void(std::ostream&)>& write) {
    const OutputTarget t = outputTarget(path);
    switch (t.kind) {
    case OutputTarget::Kind::Stdout:
        write(std::cout);
        std::cout << std::flush;
        return;
    case OutputTarget::Kind::Stderr:
        write(std::cerr);
        std::cerr << std::flush;
        return;
    case OutputTarget::Kind::Stream: {
        // A device or FIFO: rare enough to go through writeThrough's checks as one text.
        std::ostringstream text;
        write(text);
        writeThrough(path, t.path, text.str());
        return;
    }
    case OutputTarget::Kind::File:
        break;
    }
    checkWritableTarget(path, t);
    const std::string tmp = temporaryFor(t.path);
    auto removeTemporary = [&tmp] {
        std::error_code ignored;
        fs::remove(tmp, ignored);
    };
    try {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw InputError(path + ": cannot create (" + std::strerror(errno) + ")");
        write(out);
        out.flush();
        if (!out)
            throw InputError(path + ": write failed (" + std::strerror(errno) + ")");
    } catch (...) {
        removeTemporary();
        throw;
    }
    std::error_code ec;
    fs::rename(tmp, t.path, ec);
    if (ec) {
        removeTemporary();
        throw InputError(path + ": cannot replace (" + ec.message() + ")");
    }
}

namespace {

// statfs's f_type of the kernel's interfaces (linux/magic.h).
constexpr long kProcSuperMagic = 0x9fa0, kSysfsMagic = 0x62656572;

std::string whyNotARegularStat(const struct stat& st, const std::string& kind) {
    if (S_ISDIR(st.st_mode))
        return "is a folder, not " + kind;
    if (!S_ISREG(st.st_mode))
        return std::string("is not a regular file (a FIFO, socket or device)") +
               (kind == "a file" ? "" : ", not " + kind);
    return {};
}

std::string whyKernelInterface(long type) {
    if (type == kProcSuperMagic || type == kSysfsMagic)
        return "is in /proc or /sys, not a regular file that can be read (a read may block "
               "or never end)";
    return {};
}

} // namespace

std::string whyNotARegularFile(const std::string& path, const std::string& kind) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return errno == ENOENT ? "no such file" : std::strerror(errno);
    if (std::string why = whyNotARegularStat(st, kind); !why.empty())
        return why;
    struct statfs sf {};
    if (::statfs(path.c_str(), &sf) == 0)
        return whyKernelInterface(long(sf.f_type));
    return {};
}

InputFile::InputFile(const std::string& path, std::uint64_t limit, const std::string& what)
    : m_path(path)
    , m_what(what)
    , m_limit(limit) {
    if (const std::string why = whyNotARegularFile(path); !why.empty())
        throw InputError(path + ": " + why);
    m_fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (m_fd < 0)
        throw InputError(path + ": cannot be read (" + std::strerror(errno) + ")");
    // The checks again on what was opened: the name may lead elsewhere by now.
    struct stat st {};
    struct statfs sf {};
    std::string why;
    if (::fstat(m_fd, &st) != 0)
        why = std::string("cannot be read (") + std::strerror(errno) + ")";
    else if (why = whyNotARegularStat(st, "a file"); why.empty() && ::fstatfs(m_fd, &sf) == 0)
        why = whyKernelInterface(long(sf.f_type));
    if (why.empty() && std::uint64_t(st.st_size) > m_limit)
        why = roundedByteSize(std::uint64_t(st.st_size)) + "; " + m_what + " is read up to " +
              formatByteSize(m_limit);
    if (!why.empty()) {
        ::close(m_fd);
        throw InputError(path + ": " + why);
    }
}

InputFile::~InputFile() {
    if (m_fd >= 0)
        ::close(m_fd);
}

std::size_t InputFile::read(char* data, std::size_t size) {
    for (;;) {
        const ssize_t n = ::read(m_fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            throw InputError(m_path + ": not a regular file that can be read (it blocks)");
        if (n < 0)
            throw InputError(m_path + ": cannot be read (" + std::strerror(errno) + ")");
        m_done += std::uint64_t(n);
        if (m_done > m_limit)
            throw InputError(m_path + ": more than " + formatByteSize(m_limit) + "; " + m_what +
                             " is read up to " + formatByteSize(m_limit));
        return std::size_t(n);
    }
}

std::string readTextFile(const std::string& path, std::uint64_t limit, const std::string& what) {
    InputFile in(path, limit, what);
    std::string text;
    char block[65536];
    while (const std::size_t n = in.read(block, sizeof block))
        text.append(block, n);
    // A UTF-8 byte order mark (Windows editors write one) is no part of the text.
    if (text.rfind("\xEF\xBB\xBF", 0) == 0)
        text.erase(0, 3);
    return text;
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
