#pragma once
// Numbers as the text reports print them (histlab-cli's stdout), the same in every pipeline.
#include <string>

namespace histlab {

/// `v` with `digits` decimals: fixed(3.14159, 2) == "3.14".
std::string fixed(double v, int digits);

/// GB/s with as many digits as it deserves: "4370", "12.5", "0.31".
std::string gbpsText(double gbps);

} // namespace histlab
