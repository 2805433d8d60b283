#pragma once
// Numbers in the text reports people read (histlab-cli's stdout): fixed digits, so that the
// columns of a table line up. Files use report/table.h's exact numbers instead.
#include <string>

namespace histlab {

/// `value` with `digits` digits after the point ("12.3457").
std::string fixedText(double value, int digits);

/// GB/s with as many digits as it deserves: "4370", "12.5", "0.31".
std::string gbpsText(double gbps);

} // namespace histlab
