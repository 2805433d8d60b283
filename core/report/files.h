#pragma once
// Files a run writes and reads: every output goes through a temporary file and a rename, so a
// failed run never leaves a half-written file; paths are checked before any work is done.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

namespace histlab {

/// Where an output path leads. A regular file (or one reached through symbolic links, which
/// stay links) is replaced through a temporary file beside it and a rename; stdout and stderr
/// ("-", /dev/stdout, /dev/stderr and their /dev/fd and /proc/self/fd names) get the text
/// itself; any other file that exists and is not a regular one (a device such as /dev/null, a
/// FIFO, a pipe of the shell's process substitution) is written through, as a shell's
/// redirection would.
struct OutputTarget {
    enum class Kind { File, Stdout, Stderr, Stream };
    Kind kind = Kind::File;
    std::string path; ///< File: the regular file replaced; Stream: the path opened
};

/// The target of `path`; InputError naming the path when it is empty, a folder, or cannot be
/// looked at (a loop of symbolic links, a name too long, a folder on the way that is missing
/// or unreadable).
OutputTarget outputTarget(const std::string& path);

/// Writes `content` to `path` as outputTarget says: a regular file through
/// "<file>.tmp-<pid>" and a rename, "-" to stdout. Throws InputError naming the path if it
/// cannot be written (the temporary is removed).
void writeFileAtomically(const std::string& path, const std::string& content);

/// writeFileAtomically for text too large to hold as one string: `write` writes it to the stream
/// (the temporary file, stdout, or the text of a device or FIFO). Whatever `write` throws
/// leaves no temporary file behind and is thrown on.
void writeFileStreamed(const std::string& path, const std::function<void(std::ostream&)>& write);
/// Checks up front that `path` can be written (outputTarget's checks, then: a new or regular
/// file's folder exists and is writable; a device or FIFO is writable), so a run fails before
/// its work rather than after. Throws InputError naming the path.
void checkWritable(const std::string& path);

/// The extension of `path` in lower case, with its dot (".png"); "" when it has none.
std::string lowercaseExtension(const std::string& path);

/// True when the two paths name the same file (the same inode, or the same path where
/// neither exists yet): an output that would replace an input, or two outputs into one file.
bool sameFile(const std::string& a, const std::string& b);

/// Where an output path would be written, absolute and normalised (links on the way and at
/// the end resolved, "." and ".." folded), to compare with the files and folders a run reads;
/// "" for stdout, stderr and streams (devices, FIFOs), which replace no file. InputError as
/// outputTarget.
std::string outputLocation(const std::string& path);

/// True when the normalised path `inner` is the folder `outer` or lies under it.
bool pathWithin(const std::string& outer, const std::string& inner);

/// Why `path` is not a regular file to read ("" when it is): "no such file", "is a folder, not
/// <kind>", "is not a regular file (a FIFO, socket or device)" (", not <kind>" added for other
/// kinds than "a file"), or what the system says when it cannot be looked at (a loop of
/// symbolic links, a name too long, a folder on the way without permission). A FIFO or a device
/// would block a reader or never end, so nothing but regular files is opened; nor are the files
/// of /proc and /sys, which call themselves regular but may block (/proc/kmsg), never end or
/// hold other than their size says: "is in /proc or /sys, not a regular file that can be read".
std::string whyNotARegularFile(const std::string& path, const std::string& kind = "a file");

/// The most a text input (a table, a --baseline, a codebook, a descriptor file) may hold: 1 GiB.
/// Its reader keeps at most about its size again (the text and what it becomes), so one such
/// input stays well inside the quarter of memory an image may take on a machine of 8 GiB.
inline constexpr std::uint64_t kTextFileLimit = std::uint64_t(1) << 30;

/// A regular file opened for reading a block at a time: the checks of whyNotARegularFile, then
/// a cap on its size ("FILE: 20.0 GiB; <what> is read up to 1 GiB"), checked on the open file
/// and again while reading (a file that grows). Opened without blocking: a file that would
/// block the reader (a kernel interface such as /proc/kmsg, which reports itself as a regular
/// file) is refused rather than waited on. Every failure is an InputError naming the file.
class InputFile {
public:
    InputFile(const std::string& path, std::uint64_t limit = kTextFileLimit,
              const std::string& what = "a text input");
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    /// Up to `size` bytes into `data`; 0 at the end of the file.
    std::size_t read(char* data, std::size_t size);
    const std::string& path() const { return m_path; }

private:
    std::string m_path, m_what;
    std::uint64_t m_limit = 0, m_done = 0;
    int m_fd = -1;
};

/// A whole file as text (a UTF-8 byte order mark at its start dropped); InputError naming it
/// when it is a folder, not a regular file (a FIFO or a device), in /proc or /sys, larger than
/// `limit` ("<what> is read up to ..."), or cannot be read (missing, no permission).
std::string readTextFile(const std::string& path, std::uint64_t limit = kTextFileLimit,
                         const std::string& what = "a text input");

/// The process's peak resident set size so far, in bytes (getrusage); 0 where unknown.
std::uint64_t peakRssBytes();

/// Today's date and time in UTC as ISO 8601 ("2026-11-22T03:04:05Z").
std::string utcTimestamp();

} // namespace histlab
