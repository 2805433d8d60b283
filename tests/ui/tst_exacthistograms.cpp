// The Image tab's exact histograms on the offscreen platform: a 16-bit image shows its 65,536
// exact bins (a 16-bit image whose values fit in a byte is no longer one spike at 0), a float
// image its bins over each channel's range, and the Run dock's Bins and Method controls run the
// large-bin methods for any image. Every count shown is checked against the core's CPU
// reference; the statistics come from the exact values.
#include "panels/runpanel.h"
#include "panels/statisticspanel.h"
#include "plots/histogramplot.h"
#include "uitestsupport.h"
#include "views/imageview.h"
#include "window/mainwindow.h"

#include <io/imageio.h>
#include <pipelines/largebin/largebin.h>

#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QtTest>

#include <cstdint>
#include <cstring>
#include <vector>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

namespace {

const QString kData = QStringLiteral(HISTLAB_TEST_DATA_DIR "/");

HostImage loadFixture(const QString& name) {
    return loadImage(QFile::encodeName(kData + name).toStdString());
}

/// The counts a channel's graph draws, bin by bin.
std::vector<std::uint64_t> graphCounts(const HistogramPlot& plot, const QString& channel) {
    std::vector<std::uint64_t> counts;
    if (QCPGraph* graph = plot.channelGraph(channel))
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            counts.push_back(std::uint64_t(it->value));
    return counts;
}

} // namespace

class TestExactHistograms : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(setUpFolder()); }
    void sixteenBitImageShowsEveryValue();
    void floatImageShowsItsBins();
    void binsControlRunsLargeBinsForAnEightBitImage();
    void methodControlRunsTheChosenMethod();
    void hoverShowsTheFilesValues();
    void newStatisticsClearTheSelection();
    void runAgainSaysAnalysingNotOpening();

private:
    bool openAndWait(MainWindow& window, const QString& source) {
        QSignalSpy shown(&window, &MainWindow::histogramShown);
        window.openImage(source);
        return shown.wait(kTimeoutMs) || shown.count() > 0;
    }
};

// low16.pgm holds the values 0 ... 255 once each as 16-bit data: its high bytes were all 0 (one
// spike, min = max = 0). The exact histogram has 256 bins of 1 among 65,536, and statistics of
// the real values.
void TestExactHistograms::sixteenBitImageShowsEveryValue() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(openAndWait(window, kData + "low16.pgm"));
    const ImageAnalysis& analysis = window.panel<ImagePanel>()->currentAnalysis();
    QVERIFY(analysis.largeBins.has_value());
    QCOMPARE(analysis.depth, 16);

    const std::vector<std::uint64_t> shown =
        graphCounts(*window.panel<ImagePanel>()->histogramPlot(), "gray");
    QCOMPARE(shown.size(), std::size_t(65536));
    for (std::size_t v = 0; v < shown.size(); ++v)
        QCOMPARE(shown[v], std::uint64_t(v < 256 ? 1 : 0));
    // Drawn at full resolution: x is the value itself; the view opens on the values present
    // (0 ... 255, a margin of 2 %), and Whole range shows every bin.
    HistogramPlot* plot = window.panel<ImagePanel>()->histogramPlot();
    QCPGraph* graph = plot->channelGraph("gray");
    QCOMPARE((graph->data()->constBegin() + 200)->key, 200.0);
    QCOMPARE(plot->xAxis->range().lower, -255 * 0.02);
    QCOMPARE(plot->xAxis->range().upper, 255 * 1.02);
    plot->showRange(true);
    QCOMPARE(plot->xAxis->range().upper, 65535 + 65535 * 0.02);
    QCOMPARE(plot->toolTipText(200), QStringLiteral("value 200\ngray: 1"));

    const ChannelStatistics& st = window.panel<ImagePanel>()->statisticsPanel()->statistics().at(0);
    QCOMPARE(st.count, std::uint64_t(256));
    QCOMPARE(st.min, 0.0);
    QCOMPARE(st.max, 255.0);
    QCOMPARE(st.mean, 127.5);
    QCOMPARE(window.panel<ImagePanel>()
                 ->statisticsPanel()
                 ->table()
                 ->item(StatisticsPanel::Max, 0)
                 ->text(),
             QStringLiteral("255"));
    QVERIFY2(window.panel<ImagePanel>()->runSummary().contains(QStringLiteral("65536 bins")),
             qPrintable(window.panel<ImagePanel>()->runSummary()));
    QVERIFY2(window.panel<ImagePanel>()->runSummary().endsWith(QStringLiteral(" · verified")),
             qPrintable(window.panel<ImagePanel>()->runSummary()));

    // Export Histogram CSV writes the exact bins with NumPy's edges, as histlab-cli does.
    const QString csv = path("low16.csv");
    QVERIFY(window.panel<ImagePanel>()->exportHistogramCsvTo(csv).ok);
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QCOMPARE(text, QByteArray::fromStdString(imageBinsCsv(*analysis.largeBins)));
    QVERIFY(text.startsWith("bin,lo,hi,gray\n0,0,1,1\n"));
}

// A float RGB image: each channel binned over its own range (256 bins), equal to the CPU
// reference; the statistics are of the float values.
void TestExactHistograms::floatImageShowsItsBins() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(openAndWait(window, kData + "float32.pfm"));
    const ImageAnalysis& analysis = window.panel<ImagePanel>()->currentAnalysis();
    QVERIFY(analysis.largeBins.has_value());
    QCOMPARE(analysis.depth, 32);
    QVERIFY(!window.panel<ImagePanel>()->imageView()->image().isNull());
    const HostImage image = loadFixture("float32.pfm");
    for (const char* channel : {"r", "g", "b", "gray"}) {
        const SamplePlane plane = imagePlane(image, channel);
        const BinSpec spec = makeBinSpec(plane, 256, std::nullopt);
        const LargeHistogram reference = largeHistogramReference(plane, spec);
        QCOMPARE(graphCounts(*window.panel<ImagePanel>()->histogramPlot(), channel),
                 reference.counts);
        QCPGraph* graph = window.panel<ImagePanel>()->histogramPlot()->channelGraph(channel);
        QCOMPARE(graph->data()->constBegin()->key, spec.lo);
    }
    const ChannelStatistics& r = window.panel<ImagePanel>()->statisticsPanel()->statistics().at(0);
    QCOMPARE(r.name, std::string("r"));
    QCOMPARE(r.count, std::uint64_t(9 * 7));
    QVERIFY2(r.max > 0.9 && r.max < 1.0, qPrintable(QString::number(r.max)));
    QVERIFY2(window.panel<ImagePanel>()->runSummary().endsWith(QStringLiteral(" · verified")),
             qPrintable(window.panel<ImagePanel>()->runSummary()));
    // The tooltip at a value names each channel's own bin there.
    QVERIFY(window.panel<ImagePanel>()->histogramPlot()->toolTipAt(0.5).contains(
        QStringLiteral("R: ")));
}

// An 8-bit image with Bins = 16: the large-bin methods, NumPy's bins of 16 values each.
void TestExactHistograms::binsControlRunsLargeBinsForAnEightBitImage() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(openAndWait(window, kData + "rgb8.png"));
    QVERIFY(!window.panel<ImagePanel>()
                 ->currentAnalysis()
                 .largeBins.has_value()); // the tuned 256-bin pipeline
    QCOMPARE(graphCounts(*window.panel<ImagePanel>()->histogramPlot(), "r").size(),
             std::size_t(256));

    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.panel<RunPanel>()->binsSpin()->setValue(16); // a request change runs again
    QVERIFY(shown.wait(kTimeoutMs) || shown.count() > 0);
    QVERIFY(window.panel<ImagePanel>()->currentAnalysis().largeBins.has_value());
    const HostImage image = loadFixture("rgb8.png");
    for (int c = 0; c < 3; ++c) {
        std::vector<std::uint64_t> expected(16, 0);
        for (std::size_t p = 0; p < image.pixelCount(); ++p)
            ++expected[image.data[p * 3 + std::size_t(c)] >> 4];
        QCOMPARE(graphCounts(*window.panel<ImagePanel>()->histogramPlot(),
                             QString(QLatin1Char("rgb"[c]))),
                 expected);
    }
    QCOMPARE(window.panel<ImagePanel>()->histogramPlot()->toolTipText(1).section(QLatin1Char('\n'),
                                                                                 0, 0),
             QStringLiteral("bin 1: 16 to 32 (upper edge excluded)"));
    QVERIFY2(window.panel<ImagePanel>()->runSummary().contains(QStringLiteral("16 bins")),
             qPrintable(window.panel<ImagePanel>()->runSummary()));

    // Back to auto: the 256-bin pipeline again.
    window.panel<RunPanel>()->binsSpin()->setValue(0);
    QVERIFY(shown.wait(kTimeoutMs) || shown.count() > 1);
    QTRY_VERIFY_WITH_TIMEOUT(!window.panel<ImagePanel>()->currentAnalysis().largeBins.has_value(),
                             kTimeoutMs);
}

// The Method control runs the method chosen, and the summary names it.
void TestExactHistograms::methodControlRunsTheChosenMethod() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QComboBox* method = window.panel<RunPanel>()->methodCombo();
    method->setCurrentIndex(method->findData(QStringLiteral("global")));
    QVERIFY(openAndWait(window, kData + "low16.pgm"));
    const ImageChannelBins& c =
        window.panel<ImagePanel>()->currentAnalysis().largeBins->results.at(0);
    QCOMPARE(c.point.method, LargeBinMethod::Global);
    QCOMPARE(c.point.status, Status::Verified);
    QVERIFY2(
        window.panel<ImagePanel>()->runSummary().contains(QStringLiteral("65536 bins, global")),
        qPrintable(window.panel<ImagePanel>()->runSummary()));
}

// The pixel readout shows the file's values, not the 8-bit preview's: a 16-bit gray image wider
// than the preview (downscaled) reads its value at the full-image pixel, grouped as ImageJ
// shows it; a 16-bit RGB image reads "R,G,B"; a float image the shortest text of each float.
void TestExactHistograms::hoverShowsTheFilesValues() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    ImageView* view = window.panel<ImagePanel>()->imageView();

    HostImage gray{3000, 20, 1, 16, {}, "gray16"};
    gray.data.resize(gray.byteCount());
    auto put16 = [](HostImage& image, std::size_t i, std::uint16_t v) {
        std::memcpy(image.data.data() + 2 * i, &v, 2);
    };
    for (int y = 0; y < gray.height; ++y)
        for (int x = 0; x < gray.width; ++x)
            put16(gray, std::size_t(y) * 3000 + std::size_t(x), std::uint16_t(30000 + x + 3 * y));
    saveImage(gray, QFile::encodeName(path("gray16.png")).toStdString());
    QVERIFY(openAndWait(window, path("gray16.png")));
    QVERIFY(view->image().width() < 3000); // the preview is downscaled
    QCOMPARE(view->valueText(QPoint(124, 0)), QStringLiteral("value 30,124"));
    QCOMPARE(view->valueText(QPoint(2999, 19)), QStringLiteral("value 33,056"));

    HostImage rgb{4, 3, 3, 16, {}, "rgb16"};
    rgb.data.resize(rgb.byteCount());
    for (std::size_t i = 0; i < rgb.pixelCount() * 3; ++i)
        put16(rgb, i, std::uint16_t(1000 * i + 7));
    saveImage(rgb, QFile::encodeName(path("rgb16.png")).toStdString());
    QVERIFY(openAndWait(window, path("rgb16.png")));
    // Pixel (1, 2): index 9, its samples 27, 28, 29.
    QCOMPARE(view->valueText(QPoint(1, 2)), QStringLiteral("value 27007,28007,29007"));

    HostImage floats{3, 2, 1, 32, {}, "float"};
    const float values[] = {-0.0993652f, 0.0f, 1.5f, 163.049855f, -2.0f, 1e-7f};
    floats.data.resize(sizeof values);
    std::memcpy(floats.data.data(), values, sizeof values);
    saveImage(floats, QFile::encodeName(path("float.pfm")).toStdString());
    QVERIFY(openAndWait(window, path("float.pfm")));
    QCOMPARE(view->valueText(QPoint(0, 0)), QStringLiteral("value -0.0993652"));
    QCOMPARE(view->valueText(QPoint(2, 0)), QStringLiteral("value 1.5"));
    QCOMPARE(view->valueText(QPoint(0, 1)), QStringLiteral("value 163.04985"));
    QCOMPARE(view->valueText(QPoint(2, 1)), QStringLiteral("value 1e-07"));

    // The status bar's readout is the same text after the pixel.
    QSignalSpy hovered(view, &ImageView::hovered);
    QMouseEvent move(QEvent::MouseMove, QPointF(view->width() / 2.0, view->height() / 2.0),
                     view->mapToGlobal(QPointF(view->width() / 2.0, view->height() / 2.0)),
                     Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(view, &move);
    QVERIFY(!hovered.isEmpty());
    QVERIFY2(hovered.last().at(1).toString().startsWith(QStringLiteral("value ")),
             qPrintable(hovered.last().at(1).toString()));
}

// A selection in the statistics table marks the numbers it was made on: new numbers (another
// region or image) come unselected.
void TestExactHistograms::newStatisticsClearTheSelection() {
    StatisticsPanel panel;
    panel.show();
    const std::vector<std::uint64_t> counts = {1, 2, 3, 4};
    panel.setStatistics({channelStatistics("gray", counts)});
    panel.table()->selectAll();
    QVERIFY(!panel.table()->selectedItems().isEmpty());
    panel.setStatistics({channelStatistics("gray", std::vector<std::uint64_t>{4, 3, 2, 1})});
    QVERIFY(panel.table()->selectedItems().isEmpty());
}

// F5 on the image shown analyses it again: the status bar says so, not "Opening …".
void TestExactHistograms::runAgainSaysAnalysingNotOpening() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(openAndWait(window, kData + "low16.pgm"));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QSignalSpy said(window.statusBar(), &QStatusBar::messageChanged);
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    QTest::keyClick(&window, Qt::Key_F5);
    QVERIFY(shown.wait(kTimeoutMs) || shown.count() > 0);
    QStringList messages;
    for (const QList<QVariant>& m : said)
        messages << m.at(0).toString();
    QVERIFY2(messages.contains(QStringLiteral("Analysing low16.pgm again…")),
             qPrintable(messages.join(QStringLiteral(" | "))));
    for (const QString& m : messages)
        QVERIFY2(!m.startsWith(QStringLiteral("Opening")), qPrintable(m));
}

QTEST_MAIN(TestExactHistograms)
#include "tst_exacthistograms.moc"
