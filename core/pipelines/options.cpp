#include "pipelines/options.h"

#include "report/text.h"
#include "runtime/errors.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace histlab {

long long parseWholeNumber(const std::string& option, const std::string& text, long long lo,
                           long long hi) {
    long long v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
        throw UsageError(option, "'" + cappedText(text) + "' is not a whole number");
    if (v < lo || v > hi)
        throw UsageError(option, cappedText(text) + " is out of range (" + std::to_string(lo) +
                                     ".." + std::to_string(hi) + ")");
    return v;
}

double parseNonNegative(const std::string& option, const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v))
        throw UsageError(option, "'" + cappedText(text) + "' is not a number");
    if (v < 0)
        throw UsageError(option, "must not be negative");
    return v;
}

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> items;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, ','))
        if (!item.empty())
            items.push_back(item);
    return items;
}

} // namespace histlab
