#include "report/text.h"

#include <iomanip>
#include <sstream>

namespace histlab {

std::string fixedText(double value, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << value;
    return s.str();
}

} // namespace histlab
