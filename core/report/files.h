#pragma once
// Files a run writes and reads: every output goes through a temporary file and a rename, so a
// failed run never leaves a half-written file; paths are checked before any work is done.
#include <cstdint>
#include <string>

namespace histlab {

/// Writes `content` to `path` through "<path>.tmp-<pid>" and a rename; "-" writes to stdout.
/// Throws InputError naming the path if it cannot be written (the temporary is removed).
void writeFileAtomically(const std::string& path, const std::string& content);

/// Checks up front that `path` can be created (its folder exists and is writable), so a run
/// fails before its work rather than after. Throws InputError naming the path.
void checkWritable(const std::string& path);

/// A whole file as text; InputError naming it when it is a folder, not a regular file (a FIFO
/// or a device), or cannot be read (missing, no permission).
std::string readTextFile(const std::string& path);

/// The process's peak resident set size so far, in bytes (getrusage); 0 where unknown.
std::uint64_t peakRssBytes();

/// Today's date and time in UTC as ISO 8601 ("2026-11-22T03:04:05Z").
std::string utcTimestamp();

} // namespace histlab
