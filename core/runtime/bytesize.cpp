#include "runtime/bytesize.h"

#include "runtime/errors.h"
#include "runtime/messagetext.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace histlab {

std::uint64_t parseByteSize(const std::string& parameter, const std::string& text) {
    const auto bad = [&](const std::string& why) {
        // Appended one by one: GCC 12 at -O3 takes "'" + std::string&& for an overlapping copy
        // (-Wrestrict, a known false positive) and warnings are errors.
        std::string message = "'";
        message += cappedText(text);
        message += "' ";
        message += why;
        return UsageError(parameter, message);
    };
    std::size_t pos = 0;
    while (pos < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[pos])) || text[pos] == '.'))
        ++pos;
    const std::string number = text.substr(0, pos);
    std::string unit;
    for (std::size_t i = pos; i < text.size(); ++i)
        if (text[i] != ' ')
            unit += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
    if (number.empty() || number == "." || number.find('.') != number.rfind('.'))
        throw bad("is not a size (bytes, or a number with K, M, G, KiB, MiB, GiB...)");
    double multiplier = 1;
    const char* prefixes = "kmgt";
    if (!unit.empty() && unit != "b") {
        const char* p = std::strchr(prefixes, unit[0]);
        const std::string rest = unit.substr(1);
        if (!p || !(rest.empty() || rest == "ib" || rest == "b"))
            throw bad("has an unknown unit (K, M, G, T, KiB, MiB, GiB, TiB, KB, MB, GB, TB)");
        const double base = rest == "b" ? 1000.0 : 1024.0;
        multiplier = std::pow(base, double(p - prefixes + 1));
    }
    const double value = std::strtod(number.c_str(), nullptr) * multiplier;
    if (!std::isfinite(value) || value >= 18446744073709551616.0)
        throw bad("is too large");
    if (value != std::floor(value))
        throw bad("is not a whole number of bytes");
    return static_cast<std::uint64_t>(value);
}

std::string formatByteSize(std::uint64_t bytes) {
    // The largest unit in which the size is exact with at most two decimals; bytes otherwise
    // (4 MiB + 3 stays "4194307 B": in this lab the odd bytes matter).
    static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 4;
    while (u > 0 && (bytes >> (10 * u) == 0 || (bytes * 100) % (std::uint64_t(1) << (10 * u)) != 0))
        --u;
    char text[48];
    const double v = double(bytes) / double(std::uint64_t(1) << (10 * u));
    std::snprintf(text, sizeof text, v == std::floor(v) ? "%.0f %s" : "%.2f %s", v, units[u]);
    std::string s = text;
    if (const std::size_t dot = s.find('.'); dot != std::string::npos && s[s.find(' ') - 1] == '0')
        s.erase(s.find(' ') - 1, 1); // "1.50 GiB" -> "1.5 GiB"
    return s;
}

std::string roundedByteSize(std::uint64_t bytes) {
    static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    double v = double(bytes);
    while (u < 6 && v >= 1024) {
        v /= 1024;
        ++u;
    }
    char text[48];
    std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    return text;
}

} // namespace histlab
