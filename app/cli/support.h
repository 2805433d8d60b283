#pragma once
// What histlab-cli's command files share: the exit codes of --help, image files in and out,
// output paths checked before any work, a job's error as an exit code, device selection.
#include "image/image.h"
#include "report/files.h"
#include "report/text.h"
#include "runtime/device.h"
#include "runtime/errors.h"
#include "runtime/runner.h"

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>
#ifdef HISTLAB_HAVE_OPENCV
#include "io/imageio.h"
#endif

namespace histlab::cli {

/// The exit codes of --help.
enum Exit { Ok = 0, Mismatch = 1, Usage = 2, Input = 3, DeviceFailure = 4 };

/// One error line on stderr, "histlab-cli: <message>", its control characters escaped (a file
/// name with a newline cannot split it); returns `code`.
inline int fail(const std::string& message, int code) {
    std::cerr << "histlab-cli: " << printableText(message) << '\n';
    return code;
}

/// An image file (its page `page`, from 1) through the core's loader; InputError in a build
/// without it (-DHISTLAB_OPENCV=OFF), `instead` saying what to use then.
inline HostImage loadImageFile(const std::string& path, int page = 1,
                               const std::string& instead = {}) {
#ifdef HISTLAB_HAVE_OPENCV
    (void)instead;
    return loadImage(path, page);
#else
    (void)page;
    throw InputError(path + ": this build has no image loader (built with -DHISTLAB_OPENCV=OFF)" +
                     instead);
#endif
}

/// --page's value: a whole number from 1; UsageError("--page") otherwise.
inline int parsePage(const std::string& text) {
    std::size_t used = 0;
    long long v = 0;
    try {
        v = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || v < 1 || v > 1 << 30)
        throw UsageError("--page", "'" + text + "' is not a page number (a whole number from 1)");
    return int(v);
}

/// Writes an image through a temporary file and a rename; false (with the reason on stderr)
/// when it cannot. Only reached in builds with the loader (an image had to be read first).
inline bool writeImageOutput(const HostImage& image, const std::string& path) {
#ifdef HISTLAB_HAVE_OPENCV
    try {
        saveImage(image, path);
        return true;
    } catch (const InputError& e) {
        fail(e.what(), Input);
        return false;
    }
#else
    (void)image;
    fail(path + ": this build cannot write images", Input);
    return false;
#endif
}

/// An output path, checked before any work so that a bad one costs nothing: InputError when it
/// is empty or its folder cannot be written.
inline void checkOutput(const char* option, const std::optional<std::string>& path) {
    if (!path)
        return;
    if (path->empty())
        throw InputError(std::string(option) + ": the output path is empty");
    checkWritable(*path);
}

inline int exitFor(const JobError& e) {
    switch (e.kind) {
    case JobError::Kind::Usage:
        return Usage;
    case JobError::Kind::Input:
        return Input;
    default:
        return DeviceFailure;
    }
}

/// The job's error on stderr; its exit code.
inline int report(const JobError& e) {
    if (e.kind == JobError::Kind::Build) { // the build log's lines are meant as lines
        std::cerr << "histlab-cli: " << e.message << '\n';
        return exitFor(e);
    }
    return fail(e.message, exitFor(e));
}

/// Device selectors ("auto", an index, "gpu", "cpu", a name, or "all") as device indices, each
/// once, in the order given; UsageError("--device") for one that matches nothing.
inline std::vector<int> selectDevices(const std::vector<std::string>& selectors,
                                      const std::vector<DeviceInfo>& infos) {
    std::vector<int> indices;
    auto add = [&](int i) {
        if (std::find(indices.begin(), indices.end(), i) == indices.end())
            indices.push_back(i);
    };
    for (const std::string& sel : selectors.empty() ? std::vector<std::string>{"auto"} : selectors)
        if (sel == "all")
            for (const DeviceInfo& d : infos)
                add(d.index);
        else
            add(selectDevice(sel, infos));
    return indices;
}

} // namespace histlab::cli
