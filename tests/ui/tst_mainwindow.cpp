// The main window on the offscreen platform: it shows the histograms of what it opened and
// their statistics, keeps the previous image when a file is bad, lets the newest request win,
// and never blocks its thread while the worker computes (tst_largeimages measures that).
#include "bridge/imagecache.h"
#include "bridge/jobbridge.h"
#include "bridge/logging.h"
#include "common/helpdialogs.h"
#include "common/opendialog.h"
#include "common/theme.h"
#include "panels/blurpanel.h"
#include "panels/devicepanel.h"
#include "panels/equalizepanel.h"
#include "panels/memorypanel.h"
#include "panels/runpanel.h"
#include "panels/scanpanel.h"
#include "panels/statisticspanel.h"
#include "plots/histogramplot.h"
#include "uitestsupport.h"
#include "views/imageview.h"
#include "views/tablecopy.h"
#include "window/mainwindow.h"

#include <image/image.h>
#include <io/imageio.h>
#include <pipelines/histogramstats.h>
#include <runtime/version.h>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileSystemModel>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QRegularExpression>
#include <QScreen>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTreeView>
#include <QTreeWidget>
#include <QtTest>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

namespace {

/// Every cell of the statistics table, row by row.
QList<QStringList> tableTexts(const StatisticsPanel& panel) {
    const QTableWidget* table = panel.table();
    QList<QStringList> rows;
    for (int row = 0; row < table->rowCount(); ++row) {
        QStringList cells;
        for (int column = 0; column < table->columnCount(); ++column)
            cells << table->item(row, column)->text();
        rows << cells;
    }
    return rows;
}

/// What a statistic must look like on screen: the pixel count grouped by thousands, other
/// integers as they are, mean and standard deviation with 2 decimals, entropy with 3.
QString expectedText(const ChannelStatistics& s, int row) {
    switch (row) {
    case StatisticsPanel::Pixels:
        return groupedCount(s.count);
    case StatisticsPanel::Min:
        return QString::number(s.min);
    case StatisticsPanel::Max:
        return QString::number(s.max);
    case StatisticsPanel::Mean:
        return QString::number(s.mean, 'f', 2);
    case StatisticsPanel::Median:
        return QString::number(s.median);
    case StatisticsPanel::Mode:
        return QString::number(s.mode);
    case StatisticsPanel::StdDev:
        return QString::number(s.stddev, 'f', 2);
    case StatisticsPanel::Entropy:
        return QString::number(s.entropy, 'f', 3);
    default:
        return QString::number(s.percentiles[std::size_t(row - StatisticsPanel::FirstPercentile)]);
    }
}

/// Count, min, max and mean of one channel, straight from the pixels (not from a histogram).
struct PixelSummary {
    std::uint64_t count = 0;
    int min = std::numeric_limits<int>::max();
    int max = -1;
    double mean = 0;
};

/// The channels the window histograms, in its order: each colour channel, then gray (luma of
/// R, G, B; the image itself when it is gray). 16-bit values count exactly (gray only: the
/// fixtures have no 16-bit color image).
std::vector<PixelSummary> summarisePixels(const histlab::HostImage& image) {
    const int nchan = image.channels;
    const std::size_t columns = nchan == 1 ? 1 : std::size_t(nchan) + 1;
    std::vector<PixelSummary> out(columns);
    std::vector<long double> sums(columns, 0);
    auto value = [&](std::size_t pixel, int channel) -> int {
        const std::size_t i = pixel * std::size_t(nchan) + std::size_t(channel);
        if (image.depth == 8)
            return image.data[i];
        std::uint16_t v;
        std::memcpy(&v, image.data.data() + 2 * i, 2);
        return v;
    };
    auto add = [&](std::size_t column, int v) {
        PixelSummary& s = out[column];
        ++s.count;
        s.min = std::min(s.min, v);
        s.max = std::max(s.max, v);
        sums[column] += v;
    };
    for (std::size_t p = 0; p < image.pixelCount(); ++p) {
        if (nchan == 1) {
            add(0, value(p, 0));
            continue;
        }
        for (int c = 0; c < nchan; ++c)
            add(std::size_t(c), value(p, c));
        add(std::size_t(nchan),
            histlab::lumaOf(std::uint8_t(value(p, 0)), std::uint8_t(value(p, 1)),
                            std::uint8_t(value(p, 2))));
    }
    for (std::size_t c = 0; c < columns; ++c)
        out[c].mean = double(sums[c] / out[c].count);
    return out;
}

} // namespace

class TestMainWindow : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase();
    void showsHistograms_data();
    void showsHistograms();
    void showsStatistics_data();
    void showsStatistics();
    void statisticsRowsExplainThemselves_data();
    void statisticsRowsExplainThemselves();
    void viewMenuHidesStatistics();
    void badFileKeepsPreviousImage_data();
    void badFileKeepsPreviousImage();
    void newestRequestWins();
    void pagesOfAMultiPageTiff();
    void openingShowsTheImageTab();
    void emptyStateSaysWhatToDo();
    void imageShownBeforeItsHistograms();
    void launchShowsTheImageBeforeTheDeviceProbes();
    void histogramsShownBeforeTheirTiming();
    void jpegPreviewAndReferenceMadeWhileDecoding();
    void failureAfterDecodingPutsThePreviousImageBack();
    void regionSelectedOnAPreviewIsAnalysed();
    void regionDraggedKeepsTheStatusBarQuiet();
    void helpMenu();
    void openDialogPreviewsTheFile();
    void shortcuts_data();
    void shortcuts();
    void fitsSmallScreens();
    void selectedValuesAreMarkedOnTheImage();
    void darkThemeColoursThePlots();

private:
    /// Opens `source` in `window` and waits for its histograms to be on screen.
    bool openAndWait(MainWindow& window, const QString& source);
};

void TestMainWindow::initTestCase() {
    QVERIFY(setUpFolder());
    QVERIFY(makeImage(64, 48, QImage::Format_RGBA8888).save(path("rgba.png")));
    QVERIFY(makeImage(33, 17, QImage::Format_Grayscale8).save(path("gray.png")));
    // Large enough that a run takes a while on PoCL (about 24 MB of RGB).
    QVERIFY(makeImage(4000, 2000, QImage::Format_RGB888).save(path("large.ppm")));
    QFile empty(path("empty.png"));
    QVERIFY(empty.open(QIODevice::WriteOnly));
    empty.close();
    QFile text(path("notes.png"));
    QVERIFY(text.open(QIODevice::WriteOnly | QIODevice::Text));
    text.write("This is a text file with an image's name.\n");
    text.close();
    // Damaged and hostile files of every kind the loader refuses.
    const auto write = [this](const QString& name, const QByteArray& bytes) {
        QFile f(path(name));
        return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
    };
    const auto read = [](const QString& file) {
        QFile f(file);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    const QByteArray jpeg = read(fixture(QStringLiteral("rgb.jpg")));
    QVERIFY(write(QStringLiteral("patched.jpg"), jpeg.left(jpeg.size() / 2) + "\xFF\xD9"));
    QVERIFY(write(QStringLiteral("cut.png"), read(path("gray.png")).left(60)));
    QVERIFY(write(QStringLiteral("lying.tiff"), read(fixture(QStringLiteral("lying.tiff")))));
    QVERIFY(write(QStringLiteral("double.tiff"), read(fixture(QStringLiteral("float64.tiff")))));
    QVERIFY(write(QStringLiteral("above.pgm"), QByteArray("P5 2 1 15\n\x01\x50", 12)));
    QVERIFY(write(QStringLiteral("cut.gif"), QByteArray("GIF89a\x10\x00\x10\x00\x80\x00", 12)));
    QVERIFY(QDir().mkpath(path("folder.png")));
    QVERIFY(::mkfifo(QFile::encodeName(path("fifo.png")).constData(), 0600) == 0);
}

bool TestMainWindow::openAndWait(MainWindow& window, const QString& source) {
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImage(source);
    return shown.wait(kTimeoutMs) || shown.count() > 0;
}

void TestMainWindow::showsHistograms_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<int>("pixels");
    QTest::addColumn<QStringList>("channels");

    QTest::newRow("bundled sample")
        << MainWindow::sampleImagePath() << 451 * 300 << QStringList{"r", "g", "b", "gray"};
    QTest::newRow("rgba png") << path("rgba.png") << 64 * 48
                              << QStringList{"r", "g", "b", "a", "gray"};
    QTest::newRow("gray png") << path("gray.png") << 33 * 17 << QStringList{"gray"};
}

void TestMainWindow::showsHistograms() {
    QFETCH(QString, source);
    QFETCH(int, pixels);
    QFETCH(QStringList, channels);

    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImage(source);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1, kTimeoutMs);

    QCOMPARE(window.panel<ImagePanel>()->currentSource(), source);
    QCOMPARE(window.panel<ImagePanel>()->currentImageSize().width() *
                 window.panel<ImagePanel>()->currentImageSize().height(),
             pixels);
    QVERIFY(!window.panel<ImagePanel>()->imageView()->image().isNull());
    const HistogramPlot* plot = window.panel<ImagePanel>()->histogramPlot();
    QCOMPARE(plot->graphCount(), channels.size());
    for (const QString& channel : channels) {
        QCPGraph* graph = plot->channelGraph(channel);
        QVERIFY2(graph, qPrintable(channel));
        QCOMPARE(graph->pen().color(), HistogramPlot::channelColor(channel));
        QCOMPARE(graph->data()->size(), 256);
        double sum = 0;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            sum += it->value;
        QCOMPARE(sum, double(pixels));
    }
    QVERIFY2(window.panel<ImagePanel>()->runSummary().endsWith(QStringLiteral(" · verified")),
             qPrintable(window.panel<ImagePanel>()->runSummary()));
    QVERIFY(window.lastError().isEmpty());
}

void TestMainWindow::showsStatistics_data() {
    QTest::addColumn<QString>("source"); // what the window opens
    QTest::addColumn<QString>("file");   // the same image on disk, for the pixel check
    QTest::addColumn<QStringList>("headers");

    const QString data = QStringLiteral(HISTLAB_TEST_DATA_DIR "/");
    QTest::newRow("bundled sample")
        << MainWindow::sampleImagePath() << QStringLiteral(HISTLAB_SAMPLE_IMAGE)
        << QStringList{"R", "G", "B", "gray"};
    QTest::newRow("gray8.png") << data + "gray8.png" << data + "gray8.png" << QStringList{"gray"};
    QTest::newRow("rgb8.png") << data + "rgb8.png" << data + "rgb8.png"
                              << QStringList{"R", "G", "B", "gray"};
    QTest::newRow("rgba8.png") << data + "rgba8.png" << data + "rgba8.png"
                               << QStringList{"R", "G", "B", "A", "gray"};
    QTest::newRow("gray16.png (exact)")
        << data + "gray16.png" << data + "gray16.png" << QStringList{"gray"};
}

void TestMainWindow::showsStatistics() {
    QFETCH(QString, source);
    QFETCH(QString, file);
    QFETCH(QStringList, headers);

    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(openAndWait(window, source));
    const StatisticsPanel* panel = window.panel<ImagePanel>()->statisticsPanel();
    const QTableWidget* table = panel->table();
    QVERIFY(panel->isVisible());

    // One column per histogram, in the run's order, with its label. A 16-bit image's are the
    // exact large-bin ones (65,536 bins, every value its own).
    std::vector<std::pair<std::string, std::vector<std::uint64_t>>> histograms;
    for (const ChannelHistogram& h : window.panel<ImagePanel>()->currentRun().histograms)
        histograms.push_back({h.name, {h.counts.begin(), h.counts.end()}});
    if (const auto& large = window.panel<ImagePanel>()->currentAnalysis().largeBins)
        for (const ImageChannelBins& c : large->results) {
            QCOMPARE(c.spec.bins, 65536);
            histograms.push_back({c.name, c.histogram.counts});
        }
    QCOMPARE(table->columnCount(), int(histograms.size()));
    QCOMPARE(table->columnCount(), headers.size());
    QCOMPARE(table->rowCount(), int(StatisticsPanel::RowCount));
    for (int column = 0; column < table->columnCount(); ++column)
        QCOMPARE(table->horizontalHeaderItem(column)->text(), headers[column]);

    // The cells are the core's statistics of the run's histograms, formatted.
    QCOMPARE(panel->statistics().size(), histograms.size());
    for (std::size_t c = 0; c < histograms.size(); ++c) {
        const ChannelStatistics expected =
            histlab::channelStatistics(histograms[c].first, histograms[c].second);
        const ChannelStatistics& shown = panel->statistics()[c];
        QCOMPARE(shown.name, expected.name);
        for (int row = 0; row < StatisticsPanel::RowCount; ++row) {
            QTableWidgetItem* item = table->item(row, int(c));
            QVERIFY(item);
            QCOMPARE(item->text(), expectedText(expected, row));
            QCOMPARE(expectedText(shown, row), expectedText(expected, row));
            QVERIFY(item->textAlignment() & Qt::AlignRight);
            QVERIFY(!(item->flags() & Qt::ItemIsEditable));
        }
    }

    // An independent check from the pixels themselves.
    const histlab::HostImage image = histlab::loadImage(QFile::encodeName(file).toStdString());
    const std::vector<PixelSummary> pixels = summarisePixels(image);
    QCOMPARE(pixels.size(), panel->statistics().size());
    for (std::size_t c = 0; c < pixels.size(); ++c) {
        const ChannelStatistics& shown = panel->statistics()[c];
        const int column = int(c);
        QCOMPARE(shown.count, pixels[c].count);
        QCOMPARE(shown.min, pixels[c].min);
        QCOMPARE(shown.max, pixels[c].max);
        QVERIFY2(std::abs(shown.mean - pixels[c].mean) < 1e-9,
                 qPrintable(QStringLiteral("%1: %2 vs %3")
                                .arg(headers[column])
                                .arg(shown.mean, 0, 'g', 17)
                                .arg(pixels[c].mean, 0, 'g', 17)));
        QCOMPARE(table->item(StatisticsPanel::Pixels, column)->text().remove(',').toULongLong(),
                 quint64(pixels[c].count));
        QCOMPARE(table->item(StatisticsPanel::Min, column)->text().toInt(), pixels[c].min);
        QCOMPARE(table->item(StatisticsPanel::Max, column)->text().toInt(), pixels[c].max);
        QCOMPARE(table->item(StatisticsPanel::Mean, column)->text(),
                 QString::number(pixels[c].mean, 'f', 2));
    }
}

void TestMainWindow::statisticsRowsExplainThemselves_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("label");
    QTest::addColumn<QString>("definition"); // a phrase the row header's tooltip must contain

    QTest::newRow("pixels") << int(StatisticsPanel::Pixels) << "pixels"
                            << "sum";
    QTest::newRow("min") << int(StatisticsPanel::Min) << "min"
                         << "smallest";
    QTest::newRow("max") << int(StatisticsPanel::Max) << "max"
                         << "largest";
    QTest::newRow("mean") << int(StatisticsPanel::Mean) << "mean"
                          << "mean";
    QTest::newRow("median") << int(StatisticsPanel::Median) << "median"
                            << "nearest rank";
    QTest::newRow("mode") << int(StatisticsPanel::Mode) << "mode"
                          << "most frequent";
    QTest::newRow("std") << int(StatisticsPanel::StdDev) << "std. deviation"
                         << "population";
    const QStringList percentiles{"p1", "p5", "p10", "p25", "p75", "p90", "p95", "p99"};
    for (int i = 0; i < percentiles.size(); ++i)
        QTest::newRow(qPrintable(percentiles[i]))
            << StatisticsPanel::FirstPercentile + i << percentiles[i] << "nearest rank";
    QTest::newRow("entropy") << int(StatisticsPanel::Entropy) << "entropy (bits)"
                             << "Shannon entropy";
}

void TestMainWindow::statisticsRowsExplainThemselves() {
    QFETCH(int, row);
    QFETCH(QString, label);
    QFETCH(QString, definition);

    StatisticsPanel panel;
    const QTableWidgetItem* header = panel.table()->verticalHeaderItem(row);
    QVERIFY(header);
    QCOMPARE(header->text(), label);
    QVERIFY2(header->toolTip().contains(definition, Qt::CaseInsensitive),
             qPrintable(header->toolTip()));
    QVERIFY(panel.table()->editTriggers() == QAbstractItemView::NoEditTriggers);
}

void TestMainWindow::viewMenuHidesStatistics() {
    MainWindow window;
    window.show();
    const auto actions = window.findChildren<QAction*>();
    const auto it = std::find_if(actions.begin(), actions.end(), [](const QAction* a) {
        return a->text().remove(QLatin1Char('&')) == QLatin1String("Statistics");
    });
    QVERIFY(it != actions.end());
    QAction* toggle = *it;
    QVERIFY(toggle->isCheckable());
    QVERIFY(toggle->isChecked());
    QVERIFY(window.panel<ImagePanel>()->statisticsPanel()->isVisible());
    toggle->trigger();
    QVERIFY(!window.panel<ImagePanel>()->statisticsPanel()->isVisible());
    toggle->trigger();
    QVERIFY(window.panel<ImagePanel>()->statisticsPanel()->isVisible());
}

void TestMainWindow::badFileKeepsPreviousImage_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("reason"); // a word the core's message must contain

    QTest::newRow("empty file") << path("empty.png") << "empty";
    QTest::newRow("text file") << path("notes.png") << "image";
    QTest::newRow("missing file") << path("absent.png") << "no such file";
    QTest::newRow("a folder") << path("folder.png") << "folder";
    QTest::newRow("a FIFO") << path("fifo.png") << "FIFO";
    QTest::newRow("damaged JPEG") << path("patched.jpg") << "damaged or truncated JPEG";
    QTest::newRow("cut PNG") << path("cut.png") << "damaged or truncated PNG";
    QTest::newRow("lying TIFF header") << path("lying.tiff") << "damaged or truncated TIFF";
    QTest::newRow("64-bit float TIFF") << path("double.tiff") << "64-bit float";
    QTest::newRow("PGM sample above maxval") << path("above.pgm") << "above the maxval";
    QTest::newRow("cut GIF") << path("cut.gif") << "GIF";
}

void TestMainWindow::badFileKeepsPreviousImage() {
    QFETCH(QString, file);
    QFETCH(QString, reason);

    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(openAndWait(window, MainWindow::sampleImagePath()));
    const auto before = plottedValues(*window.panel<ImagePanel>()->histogramPlot());
    const QString summary = window.panel<ImagePanel>()->runSummary();
    const QImage image = window.panel<ImagePanel>()->imageView()->image();
    const auto statistics = tableTexts(*window.panel<ImagePanel>()->statisticsPanel());
    QCOMPARE(statistics.size(), int(StatisticsPanel::RowCount));
    QCOMPARE(statistics.first().size(), 4); // R, G, B, gray

    QSignalSpy errors(&window, &MainWindow::errorShown);
    window.openImage(file);
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, kTimeoutMs);
    const QString message = errors.first().first().toString();
    QCOMPARE(window.lastError(), message);
    QVERIFY2(message.contains(QFileInfo(file).fileName()), qPrintable(message));
    QVERIFY2(message.contains(reason, Qt::CaseInsensitive), qPrintable(message));

    QVERIFY(!window.isBusy());
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), MainWindow::sampleImagePath());
    QCOMPARE(window.panel<ImagePanel>()->imageView()->image(), image);
    QCOMPARE(plottedValues(*window.panel<ImagePanel>()->histogramPlot()), before);
    QCOMPARE(window.panel<ImagePanel>()->runSummary(), summary);
    QCOMPARE(tableTexts(*window.panel<ImagePanel>()->statisticsPanel()), statistics);
    QCOMPARE(window.panel<ImagePanel>()->statisticsPanel()->statistics().size(), std::size_t(4));
}

void TestMainWindow::newestRequestWins() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    QSignalSpy errors(&window, &MainWindow::errorShown);
    window.openImage(path("large.ppm"));
    window.openImage(path("gray.png")); // replaces the large one before it answers
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), kTimeoutMs);
    QTest::qWait(200); // a stale answer would arrive about now
    QCOMPARE(shown.count(), 1);
    QCOMPARE(errors.count(), 0);
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), path("gray.png"));
}

// A multi-page TIFF opens on page 1 with the page chooser under the image; choosing a page
// analyses that page (its exact counts), names it in the title and gives it to the tabs that
// work on the shown image; a page the file lacks cannot be chosen; an image of one page hides
// the chooser, and opening the TIFF again starts on page 1. pages3.tiff: page P holds the
// values 60 (P - 1) ... 60 (P - 1) + 47 once each.
void TestMainWindow::pagesOfAMultiPageTiff() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    const QString tiff = fixture(QStringLiteral("pages3.tiff"));
    const auto expectPage = [&](int page) {
        QCOMPARE(window.panel<ImagePanel>()->currentSource(), tiff);
        QCOMPARE(window.panel<ImagePanel>()->currentPage(), page);
        QCOMPARE(window.panel<ImagePanel>()->pageChooser()->value(), page);
        QVERIFY2(window.windowTitle().contains(QStringLiteral("page %1 of 3").arg(page)),
                 qPrintable(window.windowTitle()));
        const auto& counts = window.panel<ImagePanel>()->currentRun().histograms.at(0).counts;
        for (int v = 0; v < 256; ++v) {
            const int lo = 60 * (page - 1);
            QVERIFY2(counts[std::size_t(v)] == (v >= lo && v < lo + 48 ? 1u : 0u),
                     qPrintable(QStringLiteral("page %1, value %2").arg(page).arg(v)));
        }
        QCOMPARE(window.panel<BlurPanel>()->imagePage(), page);
        QCOMPARE(window.panel<EqualizePanel>()->imagePage(), page);
    };
    QVERIFY(openAndWait(window, tiff));
    QSpinBox* chooser = window.panel<ImagePanel>()->pageChooser();
    QVERIFY(chooser->isVisibleTo(&window));
    QCOMPARE(chooser->maximum(), 3);
    expectPage(1);

    QSignalSpy shown(&window, &MainWindow::histogramShown);
    chooser->setValue(2);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1 && !window.isBusy(), kTimeoutMs);
    expectPage(2);
    window.panel<ImagePanel>()->showPage(3); // View › Next Page
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 2 && !window.isBusy(), kTimeoutMs);
    expectPage(3);
    window.panel<ImagePanel>()->showPage(4); // not in the file: nothing asked
    QVERIFY(!window.isBusy());
    chooser->setValue(4); // clamped to the last page, already shown
    QVERIFY(!window.isBusy());
    window.runAgain(); // F5 stays on the page
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 3 && !window.isBusy(), kTimeoutMs);
    expectPage(3);
    QVERIFY(window.lastError().isEmpty());

    QVERIFY(openAndWait(window, path("gray.png")));
    QVERIFY(!chooser->isVisibleTo(&window));
    QCOMPARE(window.panel<ImagePanel>()->currentPage(), 1);
    QVERIFY(!window.windowTitle().contains(QStringLiteral("page")));
    QVERIFY(openAndWait(window, tiff)); // another image: its first page
    expectPage(1);
}

// Opening an image from a tab that does not show it goes to the Image tab; from the Blur tab,
// which shows the image itself, the user stays.
void TestMainWindow::openingShowsTheImageTab() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    window.tabs()->setCurrentWidget(window.panel<ScanPanel>());
    QVERIFY(window.tabs()->currentIndex() != 0);
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImages({path("gray.png")});
    QCOMPARE(window.tabs()->currentIndex(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1, kTimeoutMs);
    window.tabs()->setCurrentWidget(window.panel<BlurPanel>());
    window.openImages({path("rgba.png")});
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 2, kTimeoutMs);
    QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget*>(window.panel<BlurPanel>()));
    window.tabs()->setCurrentWidget(window.panel<MemoryPanel>());
    window.openSample();
    QCOMPARE(window.tabs()->currentIndex(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 3, kTimeoutMs);
}

// Before the first image the pane says how to open one (and, after a refused file, why it was
// refused), and the plot shows no empty legend box.
void TestMainWindow::emptyStateSaysWhatToDo() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY2(
        window.panel<ImagePanel>()->imageView()->placeholder().contains(QStringLiteral("Ctrl+O")),
        qPrintable(window.panel<ImagePanel>()->imageView()->placeholder()));
    QVERIFY(!window.panel<ImagePanel>()->histogramPlot()->legend->visible());
    QSignalSpy errors(&window, &MainWindow::errorShown);
    QSignalSpy messages(window.panel<ImagePanel>(), &ImagePanel::message);
    window.openImage(path("notes.png"));
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, kTimeoutMs);
    // The status bar's "Could not open" passes (the pane keeps saying why).
    bool passing = false;
    for (const QList<QVariant>& m : messages)
        if (m.at(0).toString().startsWith(QStringLiteral("Could not open")))
            passing = m.at(1).toInt() > 0;
    QVERIFY(passing);
    const QString said = window.panel<ImagePanel>()->imageView()->placeholder();
    QVERIFY2(said.contains(QStringLiteral("notes.png")) && said.contains(QStringLiteral("Ctrl+O")),
             qPrintable(said));
    QVERIFY(openAndWait(window, path("gray.png")));
    QVERIFY(window.panel<ImagePanel>()->histogramPlot()->legend->visible());
}

// At launch the image given on the command line is decoded and shown before the devices are
// probed (kernels built and run on each: a second or more on a CPU device); the probes run after
// its histograms and are remembered for the next launch, which lists them at once.
void TestMainWindow::launchShowsTheImageBeforeTheDeviceProbes() {
    const QString remembered = ui::JobBridge::rememberedProbesFile();
    QFile::remove(remembered); // a clean profile
    const auto allProbed = [](const DevicePanel* panel, ProbeState state) {
        const std::vector<DeviceListing>& d = panel->devices();
        return !d.empty() && std::all_of(d.begin(), d.end(),
                                         [&](const DeviceListing& l) { return l.probes == state; });
    };
    for (const ProbeState atFirst : {ProbeState::Pending, ProbeState::Remembered}) {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        DevicePanel* devices = window.panel<DevicePanel>();
        QSignalSpy imageShown(&window, &MainWindow::imageShown);
        QSignalSpy histogramShown(&window, &MainWindow::histogramShown);
        std::vector<ProbeState> listings; // the first state of each listing, in order
        int probedBeforeImage = 0;
        connect(devices, &DevicePanel::devicesShown, this, [&] {
            listings.push_back(devices->devices().front().probes);
            if (allProbed(devices, ProbeState::Run) && imageShown.isEmpty())
                ++probedBeforeImage;
        });
        window.openImages({path("large.ppm")}); // as main() does, before the event loop
        window.show();
        const QString pane = window.panel<ImagePanel>()->imageView()->placeholder();
        QVERIFY2(pane.contains(QStringLiteral("Loading large.ppm")), qPrintable(pane));
        QTRY_VERIFY_WITH_TIMEOUT(histogramShown.count() == 1, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(allProbed(devices, ProbeState::Run), kTimeoutMs);
        QCOMPARE(probedBeforeImage, 0);
        QVERIFY(listings.size() >= 2);
        QCOMPARE(listings.front(), atFirst);
        QVERIFY2(QFileInfo(remembered).isFile(), qPrintable(remembered));
    }
    // A damaged file is no reason to fail: the devices are listed (pending) and probed again.
    QFile damaged(remembered);
    QVERIFY(damaged.open(QIODevice::WriteOnly | QIODevice::Truncate));
    damaged.write("not\ta\tprobe\tline\n\x01\x02");
    damaged.close();
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.openImages({path("gray.png")});
    QTRY_VERIFY_WITH_TIMEOUT(allProbed(window.panel<DevicePanel>(), ProbeState::Run), kTimeoutMs);
}

// A newly opened image is on screen as soon as it is decoded, with the plot and table emptied
// (the previous image's histograms would describe another picture); its histograms follow.
void TestMainWindow::imageShownBeforeItsHistograms() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(openAndWait(window, path("gray.png")));
    QSignalSpy imageShown(&window, &MainWindow::imageShown);
    QSignalSpy histogramShown(&window, &MainWindow::histogramShown);
    bool checkedBetween = false;
    connect(&window, &MainWindow::imageShown, this, [&] {
        checkedBetween =
            histogramShown.isEmpty() && window.isBusy() &&
            window.panel<ImagePanel>()->imageView()->imageSize() == QSize(4000, 2000) &&
            window.panel<ImagePanel>()->histogramPlot()->graphCount() == 0 &&
            window.panel<ImagePanel>()->statisticsPanel()->statistics().empty() &&
            window.windowTitle().contains(QStringLiteral("large.ppm")) &&
            window.panel<ImagePanel>()->currentSource() == path("gray.png"); // not analysed yet
    });
    window.openImage(path("large.ppm"));
    QTRY_VERIFY_WITH_TIMEOUT(histogramShown.count() == 1, kTimeoutMs);
    QCOMPARE(imageShown.count(), 1);
    QVERIFY(checkedBetween);
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), path("large.ppm"));
    QVERIFY(window.panel<ImagePanel>()->histogramPlot()->graphCount() > 0);
    // The same image again: no second preview (zoom and pan stay).
    window.runAgain();
    QTRY_VERIFY_WITH_TIMEOUT(histogramShown.count() == 2, kTimeoutMs);
    QCOMPARE(imageShown.count(), 1);
}

// The histograms are drawn as soon as they are counted and verified; the run summary says the
// timing follows, then gives it. Cancelled while timing, the verified histograms stay.
void TestMainWindow::histogramsShownBeforeTheirTiming() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    // Enough timed launches (about a second) that the counts are drawn well before the end.
    window.panel<RunPanel>()->repeatsSpin()->setValue(100);
    QSignalSpy countsShown(&window, &MainWindow::countsShown);
    QSignalSpy histogramShown(&window, &MainWindow::histogramShown);
    QString between;
    bool checkedBetween = false;
    connect(&window, &MainWindow::countsShown, this, [&] {
        between = window.panel<ImagePanel>()->runSummary();
        checkedBetween = histogramShown.isEmpty() &&
                         window.panel<ImagePanel>()->histogramPlot()->graphCount() > 0 &&
                         !window.panel<ImagePanel>()->statisticsPanel()->statistics().empty() &&
                         window.panel<ImagePanel>()->currentRun().passes.empty() && window.isBusy();
    });
    window.openImage(path("large.ppm"));
    QTRY_VERIFY_WITH_TIMEOUT(histogramShown.count() == 1, kTimeoutMs);
    QCOMPARE(countsShown.count(), 1);
    QVERIFY2(checkedBetween, qPrintable(between));
    QVERIFY2(between.contains(QStringLiteral("verified · timing…")), qPrintable(between));
    QVERIFY(!window.panel<ImagePanel>()->runSummary().contains(QStringLiteral("timing")));
    QVERIFY(window.panel<ImagePanel>()->runSummary().contains(QStringLiteral("GB/s")));
    QVERIFY(!window.panel<ImagePanel>()->currentRun().passes.empty());

    // A long timing, cancelled once the counts are drawn.
    window.panel<RunPanel>()->repeatsSpin()->setValue(1000);
    const auto plotted = plottedValues(*window.panel<ImagePanel>()->histogramPlot());
    connect(&window, &MainWindow::countsShown, &window, &MainWindow::cancelRun);
    QSignalSpy errors(&window, &MainWindow::errorShown);
    window.runAgain();
    QTRY_VERIFY_WITH_TIMEOUT(countsShown.count() == 2 && !window.isBusy(), kTimeoutMs);
    QCOMPARE(histogramShown.count(), 1);
    QVERIFY2(window.panel<ImagePanel>()->runSummary().contains(
                 QStringLiteral("verified · timing cancelled")),
             qPrintable(window.panel<ImagePanel>()->runSummary()));
    QCOMPARE(plottedValues(*window.panel<ImagePanel>()->histogramPlot()), plotted);
    QVERIFY(errors.isEmpty());
}

// A JPEG's preview and CPU reference are made from its rows while it decodes: the preview is
// the one made after decoding (odd sizes: the last band of rows is not a whole block), the
// histograms verified against that reference, and the Blur tab hears of the image too.
void TestMainWindow::jpegPreviewAndReferenceMadeWhileDecoding() {
    const QString jpeg = path("wide.jpg");
    QVERIFY(makeImage(4001, 1001, QImage::Format_RGB888).save(jpeg, "JPG", 90));
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(openAndWait(window, jpeg));
    const HostImage decoded = loadImage(QFile::encodeName(jpeg).toStdString());
    const QImage expected = histlab::ui::previewOf(decoded, histlab::ui::JobBridge::maxPreviewSide);
    const QImage shown = window.panel<ImagePanel>()->imageView()->image();
    QCOMPARE(shown.size(), QSize(2000, 500));
    QCOMPARE(shown.format(), expected.format());
    QVERIFY(shown == expected);
    QVERIFY(window.panel<ImagePanel>()->currentRun().verified.value_or(false));
    const std::vector<std::string>& notes = window.panel<ImagePanel>()->currentRun().notes;
    QVERIFY(std::find(notes.begin(), notes.end(),
                      "CPU reference counted while the image was decoded") != notes.end());
    QTRY_COMPARE(window.findChild<BlurPanel*>()->imageSource(), jpeg);
}

// A request that fails after its image was decoded and shown (here: a device that does not
// exist, chosen after decoding) puts the previous image, its histograms and title back.
void TestMainWindow::failureAfterDecodingPutsThePreviousImageBack() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(openAndWait(window, path("gray.png")));
    {
        QSignalSpy regionShown(&window, &MainWindow::histogramShown);
        window.panel<ImagePanel>()->imageView()->selectRegion(Region{2, 3, 20, 10});
        QTRY_VERIFY_WITH_TIMEOUT(regionShown.count() >= 1 && !window.isBusy(), kTimeoutMs);
    }
    QVERIFY(window.panel<ImagePanel>()->currentRegion().has_value());
    const QImage image = window.panel<ImagePanel>()->imageView()->image();
    const auto plotted = plottedValues(*window.panel<ImagePanel>()->histogramPlot());
    const QString title = window.windowTitle();
    const auto statistics = tableTexts(*window.panel<ImagePanel>()->statisticsPanel());
    window.setDeviceSelector(QStringLiteral("99"));
    QSignalSpy imageShown(&window, &MainWindow::imageShown);
    QSignalSpy errors(&window, &MainWindow::errorShown);
    window.openImage(path("rgba.png"));
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, kTimeoutMs);
    QCOMPARE(imageShown.count(), 1); // it was shown, then taken back
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), path("gray.png"));
    QCOMPARE(window.panel<ImagePanel>()->imageView()->image(), image);
    QCOMPARE(window.panel<ImagePanel>()->imageView()->imageSize(), QSize(33, 17));
    QCOMPARE(plottedValues(*window.panel<ImagePanel>()->histogramPlot()), plotted);
    QCOMPARE(tableTexts(*window.panel<ImagePanel>()->statisticsPanel()), statistics);
    QCOMPARE(window.windowTitle(), title);
    // The region whose histograms are shown is selected again.
    const std::optional<Region> region = window.panel<ImagePanel>()->imageView()->region();
    QVERIFY(region.has_value());
    QCOMPARE(QRect(region->x, region->y, region->width, region->height), QRect(2, 3, 20, 10));
}

// A region selected on a new image's preview, while its histograms are computed, is analysed
// once they are: the histograms shown end up those of the region.
// A region being dragged is counted again at each move: the status bar says nothing of
// "loading" (the image is held), and shows no progress or Cancel for those quick counts; the
// release's run shows them as any run does.
void TestMainWindow::regionDraggedKeepsTheStatusBarQuiet() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.resize(1000, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, path("large.ppm")));
    ImagePanel* image = window.panel<ImagePanel>();
    QSignalSpy messages(image, &ImagePanel::message);
    QSignalSpy counted(&window, &MainWindow::countsShown);
    ImageView* view = image->imageView();
    const QList<QWidget*> status = image->statusWidgets(); // readout, zoom, progress, Cancel
    const QPoint from = view->rect().center() - QPoint(120, 80);
    uitest::sendMouse(view, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
    bool quiet = true;
    for (int step = 1; step <= 6; ++step) {
        uitest::sendMouse(view, QEvent::MouseMove, from + QPoint(30 * step, 20 * step),
                          Qt::NoButton, Qt::LeftButton);
        QTest::qWait(50);
        quiet = quiet && !status[2]->isVisible() && !status[3]->isVisible();
    }
    QTRY_VERIFY_WITH_TIMEOUT(counted.count() > 0, kTimeoutMs);
    QVERIFY(quiet);
    for (const QList<QVariant>& m : messages)
        QVERIFY2(!m.first().toString().contains(QStringLiteral("loading")),
                 qPrintable(m.first().toString()));
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    uitest::sendMouse(view, QEvent::MouseButtonRelease, from + QPoint(180, 120), Qt::LeftButton,
                      Qt::NoButton);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0 && !window.isBusy(), kTimeoutMs);
    QVERIFY(image->currentRegion().has_value());
}

void TestMainWindow::regionSelectedOnAPreviewIsAnalysed() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(openAndWait(window, path("gray.png")));
    connect(&window, &MainWindow::imageShown, this, [&window] {
        window.panel<ImagePanel>()->imageView()->selectRegion(Region{100, 200, 300, 400});
    });
    QSignalSpy histogramShown(&window, &MainWindow::histogramShown);
    window.openImage(path("large.ppm"));
    QTRY_VERIFY_WITH_TIMEOUT(histogramShown.count() >= 2 && !window.isBusy(), kTimeoutMs);
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), path("large.ppm"));
    const std::optional<Region> region = window.panel<ImagePanel>()->currentRegion();
    QVERIFY(region.has_value());
    QCOMPARE(QRect(region->x, region->y, region->width, region->height), QRect(100, 200, 300, 400));
    QCOMPARE(window.panel<ImagePanel>()->statisticsPanel()->statistics().at(0).count,
             std::uint64_t(300 * 400));
}

// Help: About names the version and the git commit (as --version does), Qt, the image libraries
// and, once listed, each OpenCL device with its driver; the shortcuts list is read from the
// actions, each with where it works; the guide opens at the tab shown.
void TestMainWindow::helpMenu() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    const auto about = [&window] {
        window.showAbout();
        const auto boxes = window.findChildren<QMessageBox*>(QStringLiteral("aboutBox"));
        const QString text = boxes.isEmpty() ? QString() : boxes.last()->text();
        for (QMessageBox* box : boxes)
            box->close();
        return text;
    };
    QTRY_VERIFY_WITH_TIMEOUT(!about().contains(QStringLiteral("not listed yet")), kTimeoutMs);
    const QString text = about();
    // The commit: 12 hex digits of the build's HEAD (with -dirty for a changed tree), or
    // "unknown" outside a git checkout.
    const QString commit = QString::fromLatin1(gitCommit());
    QVERIFY2(QRegularExpression(QStringLiteral("^([0-9a-f]{12}(-dirty)?|unknown)$"))
                 .match(commit)
                 .hasMatch(),
             qPrintable(commit));
    const QString versionLine =
        QStringLiteral("HistLab %1 (git %2)").arg(QString::fromLatin1(version()), commit);
    for (const QString& part : {versionLine, QStringLiteral("Qt</b> 6."),
                                QStringLiteral("OpenCV 4."), QStringLiteral("libjpeg-turbo"),
                                QStringLiteral("libtiff 4."), QStringLiteral("giflib 5.")})
        QVERIFY2(text.contains(part), qPrintable(part + QStringLiteral(" not in: ") + text));
    // Each device with its driver (PoCL's here, any machine's devices elsewhere).
    QVERIFY2(text.contains(QStringLiteral(", driver ")), qPrintable(text));

    const auto trigger = [&window](const QString& name) {
        for (QAction* a : window.findChildren<QAction*>())
            if (a->text().remove(QLatin1Char('&')) == name)
                return a->trigger(), true;
        return false;
    };
    QVERIFY(trigger(QStringLiteral("Keyboard Shortcuts")));
    auto* table = window.findChild<QTableWidget*>(QStringLiteral("shortcutsTable"));
    QVERIFY(table);
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r)
        rows << table->item(r, 0)->text().section(QStringLiteral(" — "), 0, 0) + QLatin1Char('=') +
                    table->item(r, 1)->text();
    for (const QString& expected :
         {QStringLiteral("Open…=") +
              QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText),
          QStringLiteral("Next Page=."), QStringLiteral("Run Again=F5"),
          QStringLiteral("HistLab Guide=F1")})
        QVERIFY2(rows.contains(expected), qPrintable(expected + QStringLiteral(" not in: ") +
                                                     rows.join(QStringLiteral(", "))));

    // Each shortcut says where it works: the window's own, or one tab's (several tabs run
    // their own job with Ctrl+Return).
    QStringList runKeys;
    for (int r = 0; r < table->rowCount(); ++r) {
        const QString where = table->item(r, 2)->text();
        QVERIFY2(where == QLatin1String("Window") || where.endsWith(QLatin1String(" tab")),
                 qPrintable(where));
        if (table->item(r, 1)->text().contains(QStringLiteral("Ctrl+Return")))
            runKeys << where;
    }
    QVERIFY2(runKeys.size() >= 2, qPrintable(runKeys.join(QStringLiteral(", "))));
    QCOMPARE(QSet<QString>(runKeys.begin(), runKeys.end()).size(), runKeys.size());

    // F1 on a tab: the user's guide, at that tab's section, its contents beside it.
    window.tabs()->setCurrentIndex(2); // Blur
    QVERIFY(trigger(QStringLiteral("HistLab Guide")));
    auto* guide = window.findChildren<QTextBrowser*>(QStringLiteral("guideBrowser")).last();
    QVERIFY(guide);
    QVERIFY(guide->toPlainText().startsWith(QStringLiteral("The window: a user's guide")));
    QCOMPARE(guide->textCursor().block().text(), QStringLiteral("Blur"));
    QVERIFY(guide->toHtml().contains(QStringLiteral("<img"))); // the screenshots are built in
    auto* contents = window.findChildren<QTreeWidget*>(QStringLiteral("guideContents")).last();
    QCOMPARE(contents->topLevelItemCount(), int(guidePages().size()));
    QCOMPARE(contents->currentItem()->text(0), QStringLiteral("Blur"));
    // A link to another page follows it, at the section it names.
    emit guide->anchorClicked(
        QUrl(QStringLiteral("largebin.md#joint-histograms-and-mutual-information")));
    QVERIFY(guide->toPlainText().startsWith(QStringLiteral("Large-bin and joint histograms")));
    QVERIFY(guide->textCursor().block().text().startsWith(QStringLiteral("Joint histograms")));
    // A file of the source tree is not in the guide, and it says so.
    emit guide->anchorClicked(QUrl(QStringLiteral("../core/runtime/device.h")));
    auto* note = window.findChildren<QLabel*>(QStringLiteral("guideNote")).last();
    QVERIFY2(note->text().contains(QStringLiteral("source tree")), qPrintable(note->text()));
    // Find: the next match in the page, and a word that is not there.
    auto* find = window.findChildren<QLineEdit*>(QStringLiteral("guideFind")).last();
    find->setText(QStringLiteral("mutual information"));
    QTest::keyClick(find, Qt::Key_Return);
    QCOMPARE(guide->textCursor().selectedText().toLower(), QStringLiteral("mutual information"));
    QVERIFY(guide->isVisible()); // Enter was the find field's, not the dialog's Close
    find->setText(QStringLiteral("xyzzy-not-a-word"));
    QTest::keyClick(find, Qt::Key_Return);
    QVERIFY2(note->text().contains(QStringLiteral("not on this page")), qPrintable(note->text()));
    // Every page of the guide is in the program.
    for (const GuidePage& page : guidePages())
        QVERIFY2(QFile::exists(QStringLiteral(":/histlab/docs/") + page.file),
                 qPrintable(page.file));
}

// File › Open, where Qt draws its own dialog: the detail columns whole and a preview of the file
// selected (decoded off the GUI thread) with its size in pixels, or why there is none; the
// files chosen open in the window.
void TestMainWindow::openDialogPreviewsTheFile() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    window.chooseImage();
    auto* dialog = window.findChild<OpenImagesDialog*>();
    QVERIFY(dialog);
    QVERIFY(dialog->previewCaption()); // offscreen: Qt's own dialog
    QCOMPARE(dialog->viewMode(), QFileDialog::Detail);
    // Size, type and date sized to their contents, in every Qt-drawn file dialog of the window.
    const auto wholeColumns = [](const QFileDialog& d) {
        const QHeaderView* header = d.findChild<QTreeView*>()->header();
        bool whole = header->count() >= 4;
        for (int column = 1; column < header->count(); ++column)
            whole = whole && header->sectionResizeMode(column) == QHeaderView::ResizeToContents;
        return whole;
    };
    QVERIFY(wholeColumns(*dialog));
    QFileDialog save(&window, QStringLiteral("Save"), path(QString()), QStringLiteral("*.csv"));
    QVERIFY(showWholeColumns(&save));
    QVERIFY(wholeColumns(save));
    QSignalSpy previewed(dialog, &OpenImagesDialog::previewShown);
    dialog->setDirectory(path(QString()));
    // A click on a file in the detail view: it becomes the current and only selected row.
    auto* view = dialog->findChild<QTreeView*>();
    QVERIFY(view);
    const auto click = [view](const QString& file) {
        const auto* model = qobject_cast<const QFileSystemModel*>(view->model());
        QTRY_VERIFY_WITH_TIMEOUT(model && model->index(file).isValid(), kTimeoutMs);
        view->setCurrentIndex(model->index(file));
    };
    click(path("rgba.png"));
    QTRY_VERIFY_WITH_TIMEOUT(!previewed.isEmpty() &&
                                 previewed.last().first().toString() == path("rgba.png"),
                             kTimeoutMs);
    QVERIFY2(dialog->previewCaption()->text().contains(QStringLiteral("64 × 48 pixels")),
             qPrintable(dialog->previewCaption()->text()));
    QVERIFY(!dialog->previewPicture()->pixmap().isNull());
    click(path("notes.png"));
    QTRY_VERIFY_WITH_TIMEOUT(previewed.last().first().toString() == path("notes.png"), kTimeoutMs);
    QVERIFY2(dialog->previewCaption()->text().contains(QStringLiteral("no preview")),
             qPrintable(dialog->previewCaption()->text()));
    QVERIFY(dialog->previewPicture()->pixmap().isNull());
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    click(path("gray.png"));
    QVERIFY(QMetaObject::invokeMethod(dialog, "accept")); // the Open button
    QVERIFY(shown.wait(kTimeoutMs) || shown.count() > 0);
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), path("gray.png"));
}

void TestMainWindow::shortcuts_data() {
    QTest::addColumn<QKeySequence>("keys");
    // The shortcuts the window was specified with, and its own additions.
    QTest::newRow("open") << QKeySequence(Qt::CTRL | Qt::Key_O);
    QTest::newRow("export plot") << QKeySequence(Qt::CTRL | Qt::Key_E);
    QTest::newRow("run again") << QKeySequence(Qt::Key_F5);
    QTest::newRow("cancel") << QKeySequence(Qt::Key_Escape);
    QTest::newRow("quit") << QKeySequence(Qt::CTRL | Qt::Key_Q);
    QTest::newRow("copy plot") << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C);
    QTest::newRow("log") << QKeySequence(Qt::CTRL | Qt::Key_L);
    QTest::newRow("experiments") << QKeySequence(Qt::CTRL | Qt::Key_T);
    QTest::newRow("blur") << QKeySequence(Qt::CTRL | Qt::Key_B);
    QTest::newRow("equalize") << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E);
    QTest::newRow("scans") << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S);
    QTest::newRow("fit") << QKeySequence(Qt::CTRL | Qt::Key_0);
    QTest::newRow("actual size") << QKeySequence(Qt::CTRL | Qt::Key_1);
    QTest::newRow("next page") << QKeySequence(Qt::Key_Period);
    QTest::newRow("previous page") << QKeySequence(Qt::Key_Comma);
    QTest::newRow("guide") << QKeySequence(Qt::Key_F1);
    QTest::newRow("keyboard shortcuts") << QKeySequence(Qt::CTRL | Qt::Key_Slash);
}

void TestMainWindow::shortcuts() {
    QFETCH(QKeySequence, keys);
    MainWindow window;
    const auto actions = window.findChildren<QAction*>();
    const bool found = std::any_of(actions.begin(), actions.end(),
                                   [&](const QAction* a) { return a->shortcut() == keys; });
    QVERIFY2(found, qPrintable(keys.toString()));
}

// The window fits a 1280-pixel-wide screen, and a 1600 x 1000 one at 150 % scaling (1067 x
// 667 device-independent pixels), whichever tab is shown, with its default docks: no tab or
// dock sets a wider minimum. The first size is what the screen has room for.
void TestMainWindow::fitsSmallScreens() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    auto* tabs = window.findChild<QTabWidget*>();
    QVERIFY(tabs);
    for (int tab = 0; tab < tabs->count(); ++tab) {
        tabs->setCurrentIndex(tab);
        QCoreApplication::processEvents(); // the tabs' size policies, then the layout
        QCoreApplication::processEvents();
        const QSize least = window.minimumSizeHint().expandedTo(window.minimumSize());
        qInfo().noquote() << tabs->tabText(tab) << "needs at least" << least.width() << "x"
                          << least.height();
        QVERIFY2(least.width() <= 1000, qPrintable(tabs->tabText(tab)));
        QVERIFY2(least.height() <= 600, qPrintable(tabs->tabText(tab)));
    }
    const QRect room = window.screen()->availableGeometry();
    QVERIFY(window.width() <= room.width() && window.height() <= room.height());
}

// Values selected on the histogram mark their pixels on the image (ImageJ's threshold
// overlay): exactly the gray image's pixels of those values; none once cleared.
void TestMainWindow::selectedValuesAreMarkedOnTheImage() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    QVERIFY(openAndWait(window, path(QStringLiteral("gray.png"))));
    HistogramPlot* plot = window.findChild<HistogramPlot*>();
    QVERIFY(plot);
    plot->selectValues(40, 99.5); // values 40 ... 99
    const QImage& mask = window.findChild<ImageView*>()->highlight();
    const QImage gray(path(QStringLiteral("gray.png")));
    QCOMPARE(mask.size(), gray.size());
    int marked = 0, expected = 0;
    for (int y = 0; y < gray.height(); ++y)
        for (int x = 0; x < gray.width(); ++x) {
            const int v = qGray(gray.pixel(x, y));
            const bool in = v >= 40 && v <= 99;
            expected += in;
            marked += qAlpha(mask.pixel(x, y)) > 0;
            QCOMPARE(qAlpha(mask.pixel(x, y)) > 0, in);
        }
    QCOMPARE(marked, expected);
    QCOMPARE(quint64(plot->selectedCount(QStringLiteral("gray"))), quint64(expected));
    // Esc in the plot ends the selection (before the window's Esc or the image's region).
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    plot->setFocus();
    QTest::keyClick(plot, Qt::Key_Escape);
    QVERIFY(!plot->selectedValues());
    QVERIFY(window.findChild<ImageView*>()->highlight().isNull());
}

// View › Theme › Dark: Fusion with a dark palette, and the plots follow it (background, axes,
// the gray channel light); System puts the platform's look back, the choice is remembered.
void TestMainWindow::darkThemeColoursThePlots() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    QVERIFY(openAndWait(window, path(QStringLiteral("gray.png"))));
    auto* plot = window.findChild<HistogramPlot*>();
    QCOMPARE(plot->xAxis->tickLabelColor(), QColor(Qt::black));
    const QString style = QApplication::style()->name();
    QAction* dark = nullptr;
    QAction* system = nullptr;
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text() == QStringLiteral("&Dark"))
            dark = action;
        if (action->text() == QStringLiteral("&System"))
            system = action;
    }
    QVERIFY(dark && system && system->isChecked());
    dark->trigger();
    QCoreApplication::processEvents();
    QVERIFY(isDark(QApplication::palette()));
    QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
    QVERIFY(plot->axisRect()->backgroundBrush().color().lightness() < 80);
    QVERIFY(plot->xAxis->tickLabelColor().lightness() > 180);
    QVERIFY(plot->channelGraph(QStringLiteral("gray"))->pen().color().lightness() > 150);
    QCOMPARE(savedTheme(), Theme::Dark);
    system->trigger();
    QCoreApplication::processEvents();
    QVERIFY(!isDark(QApplication::palette()));
    QCOMPARE(QApplication::style()->name(), style);
    QCOMPARE(plot->xAxis->tickLabelColor(), QColor(Qt::black));
    QCOMPARE(savedTheme(), Theme::System);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
