#pragma once
// Byte sizes as people write them ("16M", "1 GiB"): read from options, written in reports.
#include <cstdint>
#include <string>

namespace histlab {

/// A byte count as written on a command line: a whole number of bytes ("4099"), or a number
/// (fractions allowed) with a binary suffix K, M, G, T or KiB, MiB, GiB, TiB (x 1024^k), or a
/// decimal one KB, MB, GB, TB (x 1000^k); case-insensitive, "B" alone allowed ("64B"). The
/// result must be a whole number of bytes. Throws UsageError(parameter) naming the text.
std::uint64_t parseByteSize(const std::string& parameter, const std::string& text);

/// "4 KiB", "16 MiB", "1.5 GiB": the largest binary unit in which the size is exact with at
/// most two decimals; else bytes ("4099 B").
std::string formatByteSize(std::uint64_t bytes);

/// "97.7 GiB", "23.5 GiB", "512 B": one decimal in the largest binary unit the size reaches,
/// for sizes that are not meant exactly (memory there is, memory asked for).
std::string roundedByteSize(std::uint64_t bytes);

} // namespace histlab
