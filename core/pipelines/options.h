#pragma once
// Option values as people write them, read the same way by every pipeline: whole numbers in a
// range, non-negative numbers, comma lists. Each refuses a bad value with UsageError naming the
// option ("--banks: 'four' is not a whole number").
#include <algorithm>
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

/// "all" -> all(); else a comma list, each name through `parse` (which throws UsageError naming
/// its option for a name it does not know, an empty one included).
template <typename T, typename All, typename Parse>
std::vector<T> parseNameList(const std::string& text, All all, Parse parse) {
    if (text == "all")
        return all();
    std::vector<T> items;
    for (std::size_t b = 0; b <= text.size();) {
        const std::size_t e = std::min(text.find(',', b), text.size());
        items.push_back(parse(text.substr(b, e - b)));
        b = e + 1;
    }
    return items;
}

} // namespace histlab
