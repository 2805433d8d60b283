#pragma once
// Exports from the window as files: the plot as PNG, JPEG, PDF or SVG, the histograms and the
// statistics as the CLI's CSV. Every file is written through QSaveFile (a temporary file in the
// same folder, renamed into place on success), so a failed export never leaves a half-written
// or temporary file. Errors come back as values naming the file and the reason.
#include <pipelines/histogram256/histogram256.h>
#include <pipelines/histogramstats.h>

#include <QByteArray>
#include <QImage>
#include <QString>

#include <optional>
#include <vector>

class QCustomPlot;

namespace histlab::ui {

/// The outcome of one export: ok, or a message that names the file and says why it failed.
struct ExportResult {
    bool ok = true;
    QString message;

    static ExportResult success() { return {}; }
    static ExportResult failure(const QString& message) { return {false, message}; }
};

enum class PlotFormat { Png, Jpg, Pdf, Svg };

/// How to draw the plot into a file. Width and height are in logical pixels (PDF: points); the
/// scale multiplies them for the raster formats only (a 2x PNG of 800 × 600 is 1600 × 1200).
struct PlotExportOptions {
    PlotFormat format = PlotFormat::Png;
    int width = 800;
    int height = 600;
    double scale = 1.0;
    int jpegQuality = 92;
    /// A line drawn above the plot in the file only (what the plot is of); none when empty.
    QString title;
};

/// "PNG", "JPG", "PDF", "SVG".
QString plotFormatName(PlotFormat format);
/// The file suffix without the dot: "png", "jpg", "pdf", "svg".
QString plotFormatSuffix(PlotFormat format);
/// The format a file name asks for by its suffix (".jpeg" is JPG), or nothing.
std::optional<PlotFormat> plotFormatForFile(const QString& path);
/// True for PNG and JPG, whose size the scale multiplies.
bool isRasterFormat(PlotFormat format);

/// The plot drawn at width × height, scaled (an image of width·scale × height·scale pixels).
QImage renderPlot(QCustomPlot& plot, int width, int height, double scale = 1.0);

/// Writes the plot to `path` in options.format.
ExportResult exportPlot(QCustomPlot& plot, const QString& path, const PlotExportOptions& options);

/// The histograms as "bin,<channel>,..." with 256 rows (core histogramCsv, as `histlab-cli
/// --csv` writes them).
ExportResult exportHistogramCsv(const HistogramRun& run, const QString& path);

/// One row per channel (core statisticsCsv, as `histlab-cli --stats-csv` writes them).
ExportResult exportStatisticsCsv(const std::vector<ChannelStatistics>& statistics,
                                 const QString& path);

/// Writes `content` to `path` through a temporary file and a rename.
ExportResult writeFileSafely(const QString& path, const QByteArray& content);

} // namespace histlab::ui
