#pragma once
// Which HistLab this is: CMake's project version and the git commit the build was made from.
// Defined in a source generated at every build (cmake/Version.cmake, the histlab_version
// library), so that a new commit relinks only the programs that print it, not the core.
#include <string>

namespace histlab {

/// CMake's project version, e.g. "0.1.0".
const char* version();

/// The commit the build was made from: 12 hex digits, "-dirty" when tracked files differed from
/// it, or "unknown" outside a git checkout (HISTLAB_GIT_COMMIT sets it for such builds).
const char* gitCommit();

/// "0.1.0 (git 0123456789ab)": what --version and the About box print after the program's name.
std::string versionLine();

} // namespace histlab
