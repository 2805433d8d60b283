#pragma once
// The 256-bin histogram's files: the counts as CSV and the whole run as JSON.
#include "pipelines/histogram256/histogram256.h"

#include <string>

namespace histlab {

/// "bin,r,g,b,gray" and one row per bin.
std::string histogramCsv(const HistogramRun& run);

/// The whole run: device, input, configuration, passes with their timings, the read-only
/// ceiling, stages, verification, notes, per-channel statistics, histograms.
std::string histogramJson(const HistogramRun& run);

} // namespace histlab
