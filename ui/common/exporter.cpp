#include "common/exporter.h"

#include "bridge/logging.h"

#include <pipelines/histogram256/histogramreport.h>
#include <pipelines/histogramstats.h>
#include <report/report.h>

#include <QFileInfo>
#include <QImageWriter>
#include <QMarginsF>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <qcustomplot.h>

#include <cmath>
#include <functional>

namespace histlab::ui {

namespace {

QString failedMessage(const QString& path, const QString& reason) {
    return QObject::tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), reason);
}

/// Opens a QSaveFile on `path`, lets `write` fill it and commits it; any failure discards the
/// temporary file and names `path` and the reason. `write` returns an empty string on success.
ExportResult writeThroughSaveFile(const QString& path,
                                  const std::function<QString(QSaveFile&)>& write) {
    if (path.isEmpty())
        return ExportResult::failure(QObject::tr("No file name given"));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return ExportResult::failure(failedMessage(path, file.errorString()));
    const QString error = write(file);
    if (!error.isEmpty()) {
        file.cancelWriting();
        return ExportResult::failure(failedMessage(path, error));
    }
    if (!file.commit())
        return ExportResult::failure(failedMessage(path, file.errorString()));
    qCInfo(lcUi).noquote() << "wrote" << path;
    return ExportResult::success();
}

/// The resolution the plot's fonts are sized for on screen (96 where none is known).
int screenDpi(const QCustomPlot& plot) {
    return plot.logicalDpiY() > 0 ? plot.logicalDpiY() : 96;
}

/// Draws the plot as vectors (PDF, SVG) on a device that is ready to paint.
bool paintVectorized(QCustomPlot& plot, QPaintDevice& device, int width, int height) {
    QCPPainter painter;
    if (!painter.begin(&device))
        return false;
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    plot.toPainter(&painter, width, height);
    return painter.end();
}

/// A title row above the plot for as long as it lives (an export), then the plot as it was.
class TitleRow {
public:
    TitleRow(QCustomPlot& plot, const QString& title)
        : m_plot(plot) {
        if (title.isEmpty())
            return;
        plot.plotLayout()->insertRow(0);
        QFont font = plot.font();
        font.setBold(true);
        m_element = new QCPTextElement(&plot, title, font);
        m_element->setTextColor(plot.xAxis->labelColor()); // the plot's text colour (a theme's)
        plot.plotLayout()->addElement(0, 0, m_element);
    }
    ~TitleRow() {
        if (!m_element)
            return;
        m_plot.plotLayout()->remove(m_element);
        m_plot.plotLayout()->simplify();
        m_plot.replot(QCustomPlot::rpQueuedReplot);
    }
    TitleRow(const TitleRow&) = delete;
    TitleRow& operator=(const TitleRow&) = delete;

private:
    QCustomPlot& m_plot;
    QCPTextElement* m_element = nullptr;
};

} // namespace

QString plotFormatName(PlotFormat format) {
    return plotFormatSuffix(format).toUpper();
}

QString plotFormatSuffix(PlotFormat format) {
    switch (format) {
    case PlotFormat::Png:
        return QStringLiteral("png");
    case PlotFormat::Jpg:
        return QStringLiteral("jpg");
    case PlotFormat::Pdf:
        return QStringLiteral("pdf");
    case PlotFormat::Svg:
        return QStringLiteral("svg");
    }
    return {};
}

std::optional<PlotFormat> plotFormatForFile(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("jpeg"))
        return PlotFormat::Jpg;
    for (PlotFormat f : {PlotFormat::Png, PlotFormat::Jpg, PlotFormat::Pdf, PlotFormat::Svg})
        if (suffix == plotFormatSuffix(f))
            return f;
    return std::nullopt;
}

bool isRasterFormat(PlotFormat format) {
    return format == PlotFormat::Png || format == PlotFormat::Jpg;
}

QImage renderPlot(QCustomPlot& plot, int width, int height, double scale) {
    return plot.toPixmap(width, height, scale).toImage();
}

ExportResult exportPlot(QCustomPlot& plot, const QString& path, const PlotExportOptions& options) {
    const TitleRow title(plot, options.title);
    const int width = options.width, height = options.height;
    if (width <= 0 || height <= 0 || !(options.scale > 0))
        return ExportResult::failure(failedMessage(
            path,
            QObject::tr("invalid size %1 × %2 at %3x").arg(width).arg(height).arg(options.scale)));
    switch (options.format) {
    case PlotFormat::Png:
    case PlotFormat::Jpg:
        return writeThroughSaveFile(path, [&](QSaveFile& file) -> QString {
            const QImage image = renderPlot(plot, width, height, options.scale);
            if (image.isNull())
                return QObject::tr("the plot could not be drawn");
            const bool png = options.format == PlotFormat::Png;
            QImageWriter writer(&file, png ? QByteArrayLiteral("png") : QByteArrayLiteral("jpg"));
            if (!png)
                writer.setQuality(options.jpegQuality);
            // A JPEG has no alpha channel: flatten on white rather than on black.
            QImage out = image;
            if (!png && image.hasAlphaChannel()) {
                out = QImage(image.size(), QImage::Format_RGB32);
                out.fill(Qt::white);
                QPainter p(&out);
                p.drawImage(0, 0, image);
            }
            return writer.write(out) ? QString() : writer.errorString();
        });
    case PlotFormat::Pdf:
        return writeThroughSaveFile(path, [&](QSaveFile& file) -> QString {
            QPdfWriter pdf(&file);
            pdf.setCreator(QStringLiteral("HistLab"));
            pdf.setTitle(QObject::tr("HistLab histogram"));
            // One page exactly the plot's size, at the screen's resolution: a point-sized font
            // then takes the share of the plot it takes on screen and in the PNG (at 72 dpi it
            // was three quarters of it).
            const int dpi = screenDpi(plot);
            pdf.setResolution(dpi);
            pdf.setPageSize(QPageSize(QSizeF(width * 72.0 / dpi, height * 72.0 / dpi),
                                      QPageSize::Point, QString(), QPageSize::ExactMatch));
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
            if (!paintVectorized(plot, pdf, width, height))
                return QObject::tr("the PDF could not be drawn");
            return {};
        });
    case PlotFormat::Svg:
        return writeThroughSaveFile(path, [&](QSaveFile& file) -> QString {
            QSvgGenerator svg;
            svg.setOutputDevice(&file);
            svg.setSize(QSize(width, height));
            svg.setViewBox(QRect(0, 0, width, height));
            svg.setResolution(screenDpi(plot)); // fonts as large as on screen (as the PDF)
            svg.setTitle(QObject::tr("HistLab histogram"));
            if (!paintVectorized(plot, svg, width, height))
                return QObject::tr("the SVG could not be drawn");
            return {};
        });
    }
    return ExportResult::failure(failedMessage(path, QObject::tr("unknown format")));
}

ExportResult exportHistogramCsv(const HistogramRun& run, const QString& path) {
    if (run.histograms.empty())
        return ExportResult::failure(failedMessage(path, QObject::tr("no histogram to export")));
    return writeFileSafely(path, QByteArray::fromStdString(histogramCsv(run)));
}

ExportResult exportStatisticsCsv(const std::vector<ChannelStatistics>& statistics,
                                 const QString& path) {
    if (statistics.empty())
        return ExportResult::failure(failedMessage(path, QObject::tr("no statistics to export")));
    return writeFileSafely(path, QByteArray::fromStdString(statisticsCsv(statistics)));
}

ExportResult writeFileSafely(const QString& path, const QByteArray& content) {
    return writeThroughSaveFile(path, [&](QSaveFile& file) -> QString {
        if (file.write(content) != content.size())
            return file.errorString();
        return {};
    });
}

} // namespace histlab::ui
