// Exports from the window on the offscreen platform: the plot as PNG, JPEG, PDF and SVG with the
// size asked for, the histograms and statistics as the CLI's CSV, the plot on the clipboard. A
// failed export names the file, leaves neither the file nor a temporary one behind, and the
// folder of a successful one is remembered (QSettings) as the dialogs' next start folder.
#include "bridge/logging.h"
#include "common/exportdialog.h"
#include "common/exporter.h"
#include "panels/statisticspanel.h"
#include "plots/histogramplot.h"
#include "uitestsupport.h"
#include "views/tablecopy.h"
#include "window/mainwindow.h"

#include <pipelines/histogramstats.h>

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QImageReader>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

Q_DECLARE_METATYPE(histlab::ui::PlotFormat)

namespace {

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// The CSV's lines without the trailing empty one.
QList<QByteArray> csvLines(const QString& path) {
    QList<QByteArray> lines = readAll(path).split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

QAction* findAction(const MainWindow& window, const QString& text) {
    const auto actions = window.findChildren<QAction*>();
    for (QAction* a : actions)
        if (a->text().remove(QLatin1Char('&')) == text)
            return a;
    return nullptr;
}

} // namespace

class TestExport : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase();
    void exportsPlot_data();
    void exportsPlot();
    void exportsCsv_data();
    void exportsCsv();
    void failedExportLeavesNothing_data();
    void failedExportLeavesNothing();
    void exportPlotActionUsesDialog();
    void csvActionAsksInLastFolder();
    void copyPlot();
    void savedNamesGetTheirSuffix();
    void copiesTablesAndCounts();
    void settingsRoundTrip();

private:
    bool openAndWait(MainWindow& window, const QString& source);
    /// Runs one export of `kind` ("png", "jpg", "pdf", "svg", "histogram", "statistics").
    ExportResult exportAs(const QString& kind, const QString& path);

    std::unique_ptr<MainWindow> m_window; // shows the bundled sample
};

void TestExport::initTestCase() {
    QVERIFY(setUpFolder());

    m_window = std::make_unique<MainWindow>();
    m_window->setErrorDialogsEnabled(false);
    m_window->show();
    QVERIFY(openAndWait(*m_window, MainWindow::sampleImagePath()));
}

bool TestExport::openAndWait(MainWindow& window, const QString& source) {
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImage(source);
    return shown.wait(kTimeoutMs) || shown.count() > 0;
}

ExportResult TestExport::exportAs(const QString& kind, const QString& path) {
    if (kind == QLatin1String("histogram"))
        return m_window->panel<ImagePanel>()->exportHistogramCsvTo(path);
    if (kind == QLatin1String("statistics"))
        return m_window->panel<ImagePanel>()->exportStatisticsCsvTo(path);
    PlotExportOptions options;
    options.format = *histlab::ui::plotFormatForFile(QStringLiteral("x.") + kind);
    return m_window->panel<ImagePanel>()->exportPlotTo(path, options);
}

void TestExport::exportsPlot_data() {
    QTest::addColumn<PlotFormat>("format");
    QTest::addColumn<double>("scale");
    QTest::addColumn<QString>("fileName");

    QTest::newRow("png 1x") << PlotFormat::Png << 1.0 << "plot.png";
    QTest::newRow("png 2x") << PlotFormat::Png << 2.0 << "plot@2x.png";
    QTest::newRow("jpg 1x") << PlotFormat::Jpg << 1.0 << "plot.jpg";
    QTest::newRow("jpg 2x") << PlotFormat::Jpg << 2.0 << "plot@2x.jpeg";
    QTest::newRow("pdf") << PlotFormat::Pdf << 1.0 << "plot.pdf";
    QTest::newRow("svg") << PlotFormat::Svg << 1.0 << "plot.svg";
}

void TestExport::exportsPlot() {
    QFETCH(PlotFormat, format);
    QFETCH(double, scale);
    QFETCH(QString, fileName);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(fileName);
    PlotExportOptions options;
    options.format = format;
    options.width = 640;
    options.height = 400;
    options.scale = scale;
    const ExportResult result = m_window->panel<ImagePanel>()->exportPlotTo(path, options);
    QVERIFY2(result.ok, qPrintable(result.message));
    QCOMPARE(entries(dir.path()), QStringList{fileName}); // the file and no temporary

    const QByteArray bytes = readAll(path);
    QVERIFY(bytes.size() > 100);
    switch (format) {
    case PlotFormat::Png:
    case PlotFormat::Jpg: {
        if (format == PlotFormat::Png)
            QVERIFY(bytes.startsWith("\x89PNG\r\n\x1a\n"));
        else
            QVERIFY(bytes.startsWith("\xFF\xD8\xFF"));
        QImageReader reader(path);
        QCOMPARE(reader.size(), QSize(qRound(640 * scale), qRound(400 * scale)));
        const QImage image = reader.read();
        QVERIFY2(!image.isNull(), qPrintable(reader.errorString()));
        // Something was drawn: not one flat colour.
        const QRgb first = image.pixel(0, 0);
        bool varied = false;
        for (int y = 0; y < image.height() && !varied; y += 7)
            for (int x = 0; x < image.width() && !varied; x += 7)
                varied = image.pixel(x, y) != first;
        QVERIFY(varied);
        break;
    }
    case PlotFormat::Pdf:
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.trimmed().endsWith("%%EOF"));
        break;
    case PlotFormat::Svg: {
        QXmlStreamReader xml(bytes);
        QVERIFY(xml.readNextStartElement());
        QCOMPARE(xml.name(), QLatin1String("svg"));
        int elements = 0;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement)
                ++elements;
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(elements > 10); // axes, ticks, graphs
        {
            // Text as large, for the plot's size, as on screen and in the PNG: the tick
            // labels' font-size in the SVG's units (the plot's pixels) is their pixel size.
            const QCustomPlot* plot = m_window->panel<ImagePanel>()->histogramPlot();
            const double pixels =
                plot->xAxis->tickLabelFont().pointSizeF() * plot->logicalDpiY() / 72.0;
            QXmlStreamReader texts(bytes);
            QList<double> sizes;
            while (!texts.atEnd())
                if (texts.readNext() == QXmlStreamReader::StartElement &&
                    texts.attributes().hasAttribute(QLatin1String("font-size")))
                    sizes.append(texts.attributes()
                                     .value(QLatin1String("font-size"))
                                     .toString()
                                     .remove(QLatin1String("pt"))
                                     .toDouble());
            QVERIFY(!sizes.isEmpty());
            QVERIFY2(std::any_of(sizes.begin(), sizes.end(),
                                 [&](double s) { return std::abs(s - pixels) < 0.6; }),
                     qPrintable(QStringLiteral("%1 px wanted").arg(pixels)));
        }
        // The title above the plot: what it is of (the image and the device that counted).
        const QString title = m_window->panel<ImagePanel>()->plotTitle();
        QVERIFY2(title.startsWith(QStringLiteral("sample.png (bundled) (")), qPrintable(title));
        QVERIFY2(title.endsWith(QString::fromStdString(
                     " · " + m_window->panel<ImagePanel>()->currentRun().device.name)),
                 qPrintable(title));
        QVERIFY(bytes.contains("sample.png (bundled)"));
        break;
    }
    }
}

void TestExport::exportsCsv_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<QByteArray>("header");

    const QString data = QStringLiteral(HISTLAB_TEST_DATA_DIR "/");
    QTest::newRow("bundled sample")
        << MainWindow::sampleImagePath() << QByteArray("bin,r,g,b,gray");
    QTest::newRow("rgba8.png") << data + "rgba8.png" << QByteArray("bin,r,g,b,a,gray");
    QTest::newRow("gray8.png") << data + "gray8.png" << QByteArray("bin,gray");
}

void TestExport::exportsCsv() {
    QFETCH(QString, source);
    QFETCH(QByteArray, header);

    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(openAndWait(window, source));
    const quint64 pixels = quint64(window.panel<ImagePanel>()->currentImageSize().width()) *
                           quint64(window.panel<ImagePanel>()->currentImageSize().height());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());

    // Histograms: the CLI's header, 256 bins in order, each column summing to the pixels.
    const QString histogramPath = dir.filePath("histogram.csv");
    ExportResult result = window.panel<ImagePanel>()->exportHistogramCsvTo(histogramPath);
    QVERIFY2(result.ok, qPrintable(result.message));
    const QList<QByteArray> lines = csvLines(histogramPath);
    QCOMPARE(lines.size(), 257);
    QCOMPARE(lines.first(), header);
    const int columns = int(header.count(',')) + 1;
    QList<quint64> sums(columns - 1, 0);
    for (int bin = 0; bin < 256; ++bin) {
        const QList<QByteArray> cells = lines[bin + 1].split(',');
        QCOMPARE(cells.size(), columns);
        QCOMPARE(cells[0].toInt(), bin);
        for (int c = 1; c < columns; ++c) {
            bool ok = false;
            sums[c - 1] += cells[c].toULongLong(&ok);
            QVERIFY(ok);
        }
    }
    for (quint64 sum : sums)
        QCOMPARE(sum, pixels);

    // Statistics: the core's header and one row per channel, in the run's order.
    const QString statisticsPath = dir.filePath("statistics.csv");
    result = window.panel<ImagePanel>()->exportStatisticsCsvTo(statisticsPath);
    QVERIFY2(result.ok, qPrintable(result.message));
    const QList<QByteArray> rows = csvLines(statisticsPath);
    const auto& histograms = window.panel<ImagePanel>()->currentRun().histograms;
    const QByteArray expected = QByteArray::fromStdString(
        histlab::statisticsCsv(window.panel<ImagePanel>()->statisticsPanel()->statistics()));
    QCOMPARE(rows.first(), expected.split('\n').first());
    QVERIFY(rows.first().startsWith("channel,count,"));
    QCOMPARE(rows.size(), int(histograms.size()) + 1);
    for (std::size_t c = 0; c < histograms.size(); ++c) {
        const QList<QByteArray> cells = rows[int(c) + 1].split(',');
        QCOMPARE(cells.size(), int(rows.first().count(',')) + 1);
        QCOMPARE(cells[0].toStdString(), histograms[c].name);
        QCOMPARE(cells[1].toULongLong(), pixels);
    }
    QCOMPARE(readAll(statisticsPath), expected);
    QCOMPARE(entries(dir.path()), (QStringList{"histogram.csv", "statistics.csv"}));
}

void TestExport::failedExportLeavesNothing_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("intoDirectory"); // the path is a folder; else its folder is missing

    for (const char* kind : {"png", "jpg", "pdf", "svg", "histogram", "statistics"}) {
        QTest::addRow("%s, missing folder", kind) << QString::fromLatin1(kind) << false;
        QTest::addRow("%s, path is a folder", kind) << QString::fromLatin1(kind) << true;
    }
}

void TestExport::failedExportLeavesNothing() {
    QFETCH(QString, kind);
    QFETCH(bool, intoDirectory);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString path;
    QString watched; // the folder that must stay as it was
    if (intoDirectory) {
        path = dir.filePath(QStringLiteral("taken.%1").arg(kind));
        QVERIFY(QDir().mkdir(path));
        watched = dir.path();
    } else {
        path = dir.filePath(QStringLiteral("absent/out.%1").arg(kind));
        watched = dir.path();
    }
    const QStringList before = entries(watched);

    const ExportResult result = exportAs(kind, path);
    QVERIFY(!result.ok);
    QVERIFY2(result.message.contains(QDir::toNativeSeparators(path)), qPrintable(result.message));
    QVERIFY2(result.message.size() > QDir::toNativeSeparators(path).size() + 20,
             qPrintable(result.message)); // and a reason
    QCOMPARE(m_window->lastError(), result.message);
    QCOMPARE(entries(watched), before);
    if (intoDirectory)
        QVERIFY(entries(path).isEmpty());
    else
        QVERIFY(!QFileInfo::exists(path));
}

void TestExport::exportPlotActionUsesDialog() {
    QAction* action = findAction(*m_window, QStringLiteral("Export Plot…"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
    QVERIFY(action->isEnabled());

    QTemporaryDir first, second;
    QVERIFY(first.isValid() && second.isValid());
    QVERIFY(m_window->panel<ImagePanel>()->exportHistogramCsvTo(first.filePath("h.csv")).ok);
    QCOMPARE(m_window->lastFolder(), first.path());

    QString askedIn;
    m_window->setSaveFileChooser(
        [&](QWidget*, const QString&, const QString& start, const QString& filter) {
            askedIn = QFileInfo(start).absolutePath();
            Q_UNUSED(filter);
            return second.filePath("chosen.svg");
        });
    action->trigger();
    auto* dialog = m_window->findChild<ExportDialog*>();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->startFolder(), first.path());
    // Defaults: the plot's size at 1x.
    QCOMPARE(dialog->options().width, m_window->panel<ImagePanel>()->histogramPlot()->width());
    QCOMPARE(dialog->options().height, m_window->panel<ImagePanel>()->histogramPlot()->height());
    QCOMPARE(dialog->options().scale, 1.0);

    dialog->browse();
    QCOMPARE(askedIn, first.path());
    QCOMPARE(dialog->filePath(), second.filePath("chosen.svg"));
    QCOMPARE(dialog->options().format, PlotFormat::Svg); // the suffix picked the format
    QVERIFY(!dialog->scaleBox()->isEnabled());           // vector: no scale
    dialog->accept();
    QVERIFY(readAll(second.filePath("chosen.svg")).contains("<svg"));
    QCOMPARE(m_window->lastFolder(), second.path());
    QTRY_VERIFY(!m_window->findChild<ExportDialog*>()); // deleted on close

    // The next export offers the format and the folder of this one, after an image opened
    // from elsewhere moved the last folder.
    QVERIFY(m_window->panel<ImagePanel>()->exportHistogramCsvTo(first.filePath("h2.csv")).ok);
    action->trigger();
    dialog = m_window->findChild<ExportDialog*>();
    QVERIFY(dialog);
    QCOMPARE(dialog->options().format, PlotFormat::Svg);
    QCOMPARE(QFileInfo(dialog->filePath()).absolutePath(), second.path());
    QCOMPARE(QFileInfo(dialog->filePath()).suffix(), QStringLiteral("svg"));
    dialog->reject();
    QTRY_VERIFY(!m_window->findChild<ExportDialog*>());
    m_window->setSaveFileChooser(histlab::ui::nativeSaveFileChooser());
}

void TestExport::csvActionAsksInLastFolder() {
    QTemporaryDir first, second;
    QVERIFY(first.isValid() && second.isValid());
    QVERIFY(m_window->panel<ImagePanel>()->exportStatisticsCsvTo(first.filePath("s.csv")).ok);

    for (const QString& text :
         {QStringLiteral("Export Histogram CSV…"), QStringLiteral("Export Statistics CSV…")}) {
        QAction* action = findAction(*m_window, text);
        QVERIFY2(action, qPrintable(text));
        QString startPath;
        const QString target = second.filePath(text.section(QLatin1Char(' '), 1, 1) + ".csv");
        m_window->setSaveFileChooser(
            [&](QWidget*, const QString&, const QString& start, const QString&) {
                startPath = start;
                return target;
            });
        action->trigger();
        QCOMPARE(QFileInfo(startPath).absolutePath(), first.path());
        QVERIFY(startPath.endsWith(QLatin1String(".csv")));
        QVERIFY2(QFileInfo::exists(target), qPrintable(target));
        QVERIFY(csvLines(target).size() > 1);
        QVERIFY(m_window->panel<ImagePanel>()
                    ->exportStatisticsCsvTo(first.filePath("s.csv"))
                    .ok); // back to first
    }
    m_window->setSaveFileChooser(histlab::ui::nativeSaveFileChooser());
}

void TestExport::copyPlot() {
    QAction* action = findAction(*m_window, QStringLiteral("Copy Plot"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    QClipboard* clipboard = QGuiApplication::clipboard();
    if (!clipboard)
        QSKIP("this platform has no clipboard");
    clipboard->clear();
    action->trigger();
    const QImage image = clipboard->image();
    if (image.isNull() && !clipboard->mimeData())
        QSKIP("the platform's clipboard keeps no data");
    QVERIFY(!image.isNull());
    QCOMPARE(image.size() / image.devicePixelRatio(),
             m_window->panel<ImagePanel>()->histogramPlot()->size());
}

// A name typed without a suffix gets the one the dialog offered: banks_run → banks_run.json (the
// Open dialog's *.json filter would hide it otherwise); a suffix typed is kept.
void TestExport::savedNamesGetTheirSuffix() {
    QCOMPARE(withDefaultSuffix(QStringLiteral("/t/banks_run"), QStringLiteral("json")),
             QStringLiteral("/t/banks_run.json"));
    QCOMPARE(withDefaultSuffix(QStringLiteral("/t.d/run"), QStringLiteral("csv")),
             QStringLiteral("/t.d/run.csv")); // a dot in a folder is not a suffix
    QCOMPARE(withDefaultSuffix(QStringLiteral("/t/run.txt"), QStringLiteral("csv")),
             QStringLiteral("/t/run.txt"));
    QCOMPARE(withDefaultSuffix(QStringLiteral("/t/run."), QStringLiteral("csv")),
             QStringLiteral("/t/run.csv"));
    QCOMPARE(withDefaultSuffix(QString(), QStringLiteral("csv")), QString()); // cancelled
    QCOMPARE(filterSuffix(QStringLiteral("JSON (*.json);;All files (*)")), QStringLiteral("json"));
    QCOMPARE(filterSuffix(QStringLiteral("JPEG image (*.jpg *.jpeg)")), QStringLiteral("jpg"));
    QCOMPARE(filterSuffix(QStringLiteral("All files (*)")), QString());

    // Through the window's CSV export, as a user leaving the suffix out.
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    m_window->setSaveFileChooser([&](QWidget*, const QString&, const QString&, const QString&) {
        return folder.filePath("counts");
    });
    QAction* action = findAction(*m_window, QStringLiteral("Export Histogram CSV…"));
    QVERIFY(action);
    action->trigger();
    QVERIFY(QFileInfo::exists(folder.filePath("counts.csv")));
    QVERIFY(!QFileInfo::exists(folder.filePath("counts")));

    // A suffix that would name an existing file nobody agreed to replace: the name as given.
    action->trigger();
    QVERIFY(QFileInfo::exists(folder.filePath("counts")));
    m_window->setSaveFileChooser(histlab::ui::nativeSaveFileChooser());

    // The plot dialog: a name typed without a suffix is written in the chosen format's.
    QAction* exportPlot = findAction(*m_window, QStringLiteral("Export Plot…"));
    QVERIFY(exportPlot);
    exportPlot->trigger();
    auto* dialog = m_window->findChild<ExportDialog*>();
    QVERIFY(dialog);
    dialog->formatBox()->setCurrentIndex(dialog->formatBox()->findData(int(PlotFormat::Png)));
    dialog->setFilePath(folder.filePath("plot")); // no suffix: the format stays PNG
    QCOMPARE(dialog->options().format, PlotFormat::Png);
    QCOMPARE(dialog->filePath(), folder.filePath("plot.png"));
    dialog->accept();
    QVERIFY(readAll(folder.filePath("plot.png")).startsWith("\x89PNG"));
    QTRY_VERIFY(!m_window->findChild<ExportDialog*>());
}

// Tables copy as a spreadsheet pastes them: Ctrl+C gives the selected cells (all when none is
// selected) with their headers, tab-separated; Copy Histogram Counts gives every bin's counts.
void TestExport::copiesTablesAndCounts() {
    QClipboard* clipboard = QGuiApplication::clipboard();
    if (!clipboard)
        QSKIP("this platform has no clipboard");
    QTableWidget* table = m_window->panel<ImagePanel>()->statisticsPanel()->table();
    const auto statistics = m_window->panel<ImagePanel>()->statisticsPanel()->statistics();
    QCOMPARE(statistics.size(), std::size_t(4)); // the sample: R, G, B, gray
    table->clearSelection();
    table->setFocus();
    clipboard->clear();
    QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
    if (clipboard->text().isEmpty() && !clipboard->mimeData())
        QSKIP("the platform's clipboard keeps no data");
    QStringList lines = clipboard->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + int(StatisticsPanel::RowCount));
    QCOMPARE(lines[0], QStringLiteral("\tR\tG\tB\tgray"));
    // Shown grouped ("1,234"), copied plain: a spreadsheet reads it as a number.
    QCOMPARE(lines[1 + StatisticsPanel::Pixels],
             QStringLiteral("pixels\t%1\t%1\t%1\t%1").arg(statistics[0].count));
    QCOMPARE(table->item(StatisticsPanel::Pixels, 0)->text(), groupedCount(statistics[0].count));

    table->setRangeSelected(
        QTableWidgetSelectionRange(StatisticsPanel::Max, 1, StatisticsPanel::Max, 2), true);
    QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
    lines = clipboard->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(
        lines,
        QStringList({QStringLiteral("\tG\tB"),
                     QStringLiteral("max\t%1\t%2").arg(statistics[1].max).arg(statistics[2].max)}));
    table->clearSelection();

    QAction* counts = findAction(*m_window, QStringLiteral("Copy Histogram Counts"));
    QVERIFY(counts);
    counts->trigger();
    lines = clipboard->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 257);
    QCOMPARE(lines[0], QStringLiteral("bin\tr\tg\tb\tgray"));
    const HistogramRun& run = m_window->panel<ImagePanel>()->currentRun();
    for (int bin : {0, 17, 128, 255}) {
        QStringList expected{QString::number(bin)};
        for (const ChannelHistogram& h : run.histograms)
            expected << QString::number(h.counts[std::size_t(bin)]);
        QCOMPARE(lines[1 + bin], expected.join(QLatin1Char('\t')));
    }
}

void TestExport::settingsRoundTrip() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QVERIFY(m_window->panel<ImagePanel>()->exportHistogramCsvTo(folder.filePath("h.csv")).ok);
    QCOMPARE(QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab"))
                 .value(QStringLiteral("lastFolder"))
                 .toString(),
             folder.path());

    QSize size;
    QList<int> sizes;
    {
        MainWindow window;
        window.show();
        QCOMPARE(window.lastFolder(), folder.path()); // restored on start
        window.resize(900, 560);
        QSplitter* splitter = window.panel<ImagePanel>()->splitter(); // image | right
        QVERIFY(splitter);
        splitter->setSizes({250, 650});
        sizes = splitter->sizes();
        size = window.size();
        QVERIFY(window.close()); // saves geometry and splitters
    }
    MainWindow window;
    window.show();
    QCOMPARE(window.lastFolder(), folder.path());
    QCOMPARE(window.size(), size);
    QSplitter* splitter = window.panel<ImagePanel>()->splitter(); // image | right
    QVERIFY(splitter);
    QCOMPARE(splitter->sizes(), sizes);

    // The export dialog of the new window starts in the remembered folder.
    // (It needs something shown only to export, not to open.)
    window.panel<ImagePanel>()->exportPlot();
    auto* dialog = window.findChild<ExportDialog*>();
    QVERIFY(dialog);
    QCOMPARE(dialog->startFolder(), folder.path());
    QCOMPARE(QFileInfo(dialog->filePath()).absolutePath(), folder.path());
    dialog->reject();
}

QTEST_MAIN(TestExport)
#include "tst_export.moc"
