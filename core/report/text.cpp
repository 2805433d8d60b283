#include "report/text.h"

#include <iomanip>
#include <sstream>

namespace histlab {

std::string fixed(double v, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

std::string gbpsText(double gbps) {
    return fixed(gbps, gbps >= 100 ? 0 : gbps >= 10 ? 1 : 2);
}

} // namespace histlab
