#include "report/text.h"

#include <iomanip>
#include <sstream>

namespace histlab {

std::string fixedText(double value, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << value;
    return s.str();
}

std::string gbpsText(double gbps) {
    return fixedText(gbps, gbps >= 100 ? 0 : gbps >= 10 ? 1 : 2);
}

} // namespace histlab
