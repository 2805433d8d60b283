#include "image/border.h"

#include "runtime/enumtable.h"
#include "runtime/errors.h"

#include <algorithm>

namespace histlab {

namespace {

const EnumTable<BorderMode>& borderModes() {
    static const EnumTable<BorderMode> table("--border", "a border mode",
                                             {{BorderMode::Interior, "interior"},
                                              {BorderMode::Replicate, "replicate"},
                                              {BorderMode::Reflect101, "reflect101"}});
    return table;
}

} // namespace

BorderMode parseBorderMode(const std::string& name) {
    return borderModes().parse(name);
}

const char* borderModeName(BorderMode value) {
    return borderModes().name(value);
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
