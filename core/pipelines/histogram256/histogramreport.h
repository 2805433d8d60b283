#pragma once
// The 256-bin histogram's reports: the text histlab-cli histogram prints, the counts as CSV,
// the statistics, and the whole run as JSON; the same for the end-to-end mode.
#include "pipelines/histogram256/histogram256.h"
#include "pipelines/histogramstats.h"
#include "report/json.h"
#include "report/table.h"

#include <string>
#include <vector>

namespace histlab {

/// The histograms as one JSON object: each name's 256 counts.
Json histogramsJson(const std::vector<ChannelHistogram>& histograms);

/// "bin,r,g,b,gray" and one row per bin.
Table histogramTable(const std::vector<ChannelHistogram>& histograms);
std::string histogramCsv(const std::vector<ChannelHistogram>& histograms);
std::string histogramCsv(const HistogramRun& run);

/// The statistics of each histogram, in their order.
std::vector<ChannelStatistics> statisticsOf(const std::vector<ChannelHistogram>& histograms);

/// The whole run: device, input, configuration, passes with their timings, the read-only
/// ceiling, stages, verification, notes, per-channel statistics, histograms.
std::string histogramJson(const HistogramRun& run);

/// The report histlab-cli histogram prints: device, input, configuration, passes against the
/// read-only ceiling, stage table, host memory, notes, a sparkline and statistics per channel,
/// verification.
std::string histogramText(const HistogramRun& run);

/// The end-to-end run of `input` (its description): device, chunks, configuration, the wall
/// clock of each mode against the host->device write from pinned memory, verification.
std::string endToEndText(const EndToEndRun& run, const std::string& input);

/// The end-to-end run as JSON: device, input, chunks, each mode's timing and GB/s, verification.
std::string endToEndJson(const EndToEndRun& run, const std::string& input);

/// The end-to-end run's histograms (those of its first mode), one per channel.
std::vector<ChannelHistogram> endToEndHistograms(const EndToEndRun& run);

/// A split across devices: each device alone and its piece, end to end and kernels only, the
/// split's wall clock and its speed-up over the fastest device alone, any device that failed and
/// who counted its piece, verification, and a sparkline per histogram.
std::string splitText(const SplitRun& run);

/// The split as JSON: the shares with their timings, both walls and speed-ups, verification,
/// the histograms.
std::string splitJson(const SplitRun& run);

} // namespace histlab
