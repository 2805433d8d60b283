#pragma once
// Option values as people write them, read the same way by every pipeline: whole numbers in a
// range, non-negative numbers, comma lists. Each refuses a bad value with UsageError naming the
// option ("--banks: 'four' is not a whole number").
#include <string>
#include <vector>

namespace histlab {

/// A whole number in [lo, hi].
long long parseWholeNumber(const std::string& option, const std::string& text, long long lo,
                           long long hi);

/// A number of 0 or more, fractions allowed ("1.5").
double parseNonNegative(const std::string& option, const std::string& text);

/// "a,b,,c" -> {"a", "b", "c"}.
std::vector<std::string> splitList(const std::string& text);

} // namespace histlab
