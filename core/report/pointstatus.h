#pragma once
// The status of one measured point (issue 6: the memory lab's reversal, transfers and ceilings
// per width). Kept apart from memorylab.h so that bandwidth.h can say it without bringing the
// memory lab's helpers into every pipeline.

namespace histlab {

/// What became of one measured point. Only Verified and Mismatch carry timings.
///   verified     ran, and its output equals the CPU reference byte for byte
///   mismatch     ran, and its output differs (the detail says where and how much)
///   unsupported  the device cannot run it (the detail says why); never replaced silently
///   failed       an OpenCL call failed (the detail names the call and the code)
enum class PointStatus { Verified, Mismatch, Unsupported, Failed };

/// "verified", "mismatch", "unsupported", "failed".
inline const char* pointStatusName(PointStatus status) {
    switch (status) {
    case PointStatus::Verified:
        return "verified";
    case PointStatus::Mismatch:
        return "mismatch";
    case PointStatus::Unsupported:
        return "unsupported";
    case PointStatus::Failed:
        return "failed";
    }
    return "?";
}

/// True for Verified and Mismatch: the point ran and its timings are real.
inline bool pointRan(PointStatus status) {
    return status == PointStatus::Verified || status == PointStatus::Mismatch;
}

} // namespace histlab
