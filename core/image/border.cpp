#include "image/border.h"

#include "runtime/errors.h"

#include <algorithm>

namespace histlab {

BorderMode parseBorderMode(const std::string& name) {
    if (name == "interior")
        return BorderMode::Interior;
    if (name == "replicate")
        return BorderMode::Replicate;
    if (name == "reflect101")
        return BorderMode::Reflect101;
    throw UsageError("--border", "'" + name +
                                     "' is not a border mode (interior, replicate or "
                                     "reflect101)");
}

const char* borderModeName(BorderMode mode) {
    switch (mode) {
    case BorderMode::Interior:
        return "interior";
    case BorderMode::Replicate:
        return "replicate";
    case BorderMode::Reflect101:
        return "reflect101";
    }
    return "?";
}

int borderIndex(int i, int n, BorderMode mode) {
    if (n == 1)
        return 0;
    if (mode == BorderMode::Reflect101) {
        // Mirror about the first and last pixel until inside (radii larger than the image
        // bounce more than once).
        const int period = 2 * (n - 1);
        i %= period;
        if (i < 0)
            i += period;
        return i < n ? i : period - i;
    }
    return std::clamp(i, 0, n - 1); // replicate (interior never reads outside)
}

} // namespace histlab
