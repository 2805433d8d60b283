// The main window on the offscreen platform: it shows the histograms of what it opened, keeps
// the previous image when a file is bad, lets the newest request win, and never blocks its
// thread while the worker computes.
#include "histogramplot.h"
#include "imageview.h"
#include "logging.h"
#include "mainwindow.h"

#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <algorithm>
#include <cstdint>

using histlab::ui::HistogramPlot;
using histlab::ui::MainWindow;

namespace {

constexpr int kTimeoutMs = 60'000; // PoCL builds its kernels on the first run

/// A deterministic image with well-spread values in every channel.
QImage makeImage(int width, int height, QImage::Format format) {
    QImage image(width, height, format);
    for (int y = 0; y < height; ++y) {
        uchar* row = image.scanLine(y);
        for (int i = 0; i < image.bytesPerLine(); ++i)
            row[i] = uchar((i * 7 + y * 13 + (i * y) % 31) & 0xFF);
    }
    return image;
}

/// Every graph's points, to compare what is shown before and after.
QList<QList<double>> plottedValues(const HistogramPlot& plot) {
    QList<QList<double>> all;
    for (int i = 0; i < plot.graphCount(); ++i) {
        QList<double> values;
        for (auto it = plot.graph(i)->data()->constBegin(); it != plot.graph(i)->data()->constEnd();
             ++it)
            values << it->value;
        all << values;
    }
    return all;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void showsHistograms_data();
    void showsHistograms();
    void badFileKeepsPreviousImage_data();
    void badFileKeepsPreviousImage();
    void newestRequestWins();
    void shortcuts_data();
    void shortcuts();
    void staysResponsiveWhileWorking();

private:
    /// Opens `source` in `window` and waits for its histograms to be on screen.
    bool openAndWait(MainWindow& window, const QString& source);

    QTemporaryDir m_dir;
};

void TestMainWindow::initTestCase() {
    histlab::ui::routeCoreLogToQt();
    QVERIFY(m_dir.isValid());
    QVERIFY(makeImage(64, 48, QImage::Format_RGBA8888).save(m_dir.filePath("rgba.png")));
    QVERIFY(makeImage(33, 17, QImage::Format_Grayscale8).save(m_dir.filePath("gray.png")));
    // Large enough that a run takes a while on PoCL (about 24 MB of RGB).
    QVERIFY(makeImage(4000, 2000, QImage::Format_RGB888).save(m_dir.filePath("large.ppm")));
    QFile empty(m_dir.filePath("empty.png"));
    QVERIFY(empty.open(QIODevice::WriteOnly));
    empty.close();
    QFile text(m_dir.filePath("notes.png"));
    QVERIFY(text.open(QIODevice::WriteOnly | QIODevice::Text));
    text.write("This is a text file with an image's name.\n");
    text.close();
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
    QTest::newRow("rgba png") << m_dir.filePath("rgba.png") << 64 * 48
                              << QStringList{"r", "g", "b", "a", "gray"};
    QTest::newRow("gray png") << m_dir.filePath("gray.png") << 33 * 17 << QStringList{"gray"};
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

    QCOMPARE(window.currentSource(), source);
    QCOMPARE(window.currentImageSize().width() * window.currentImageSize().height(), pixels);
    QVERIFY(!window.imageView()->image().isNull());
    const HistogramPlot* plot = window.histogramPlot();
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
    QVERIFY2(window.runSummary().endsWith(QStringLiteral(" · verified")),
             qPrintable(window.runSummary()));
    QVERIFY(window.lastError().isEmpty());
}

void TestMainWindow::badFileKeepsPreviousImage_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("reason"); // a word the core's message must contain

    QTest::newRow("empty file") << m_dir.filePath("empty.png") << "empty";
    QTest::newRow("text file") << m_dir.filePath("notes.png") << "image";
    QTest::newRow("missing file") << m_dir.filePath("absent.png") << "no such file";
}

void TestMainWindow::badFileKeepsPreviousImage() {
    QFETCH(QString, file);
    QFETCH(QString, reason);

    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(openAndWait(window, MainWindow::sampleImagePath()));
    const auto before = plottedValues(*window.histogramPlot());
    const QString summary = window.runSummary();
    const QImage image = window.imageView()->image();

    QSignalSpy errors(&window, &MainWindow::errorShown);
    window.openImage(file);
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, kTimeoutMs);
    const QString message = errors.first().first().toString();
    QCOMPARE(window.lastError(), message);
    QVERIFY2(message.contains(QFileInfo(file).fileName()), qPrintable(message));
    QVERIFY2(message.contains(reason, Qt::CaseInsensitive), qPrintable(message));

    QVERIFY(!window.isBusy());
    QCOMPARE(window.currentSource(), MainWindow::sampleImagePath());
    QCOMPARE(window.imageView()->image(), image);
    QCOMPARE(plottedValues(*window.histogramPlot()), before);
    QCOMPARE(window.runSummary(), summary);
}

void TestMainWindow::newestRequestWins() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    QSignalSpy errors(&window, &MainWindow::errorShown);
    window.openImage(m_dir.filePath("large.ppm"));
    window.openImage(m_dir.filePath("gray.png")); // replaces the large one before it answers
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), kTimeoutMs);
    QTest::qWait(200); // a stale answer would arrive about now
    QCOMPARE(shown.count(), 1);
    QCOMPARE(errors.count(), 0);
    QCOMPARE(window.currentSource(), m_dir.filePath("gray.png"));
}

void TestMainWindow::staysResponsiveWhileWorking() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(openAndWait(window, MainWindow::sampleImagePath())); // kernels built, device open

    QElapsedTimer clock;
    qint64 last = 0, longestGap = 0;
    int ticks = 0;
    QTimer timer;
    timer.setInterval(10);
    connect(&timer, &QTimer::timeout, this, [&] {
        const qint64 now = clock.elapsed();
        longestGap = std::max(longestGap, now - last);
        last = now;
        ++ticks;
    });
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    clock.start();
    timer.start();
    window.openImage(m_dir.filePath("large.ppm"));
    const qint64 submitMs = clock.elapsed();
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1, kTimeoutMs);
    const qint64 runMs = clock.elapsed();
    timer.stop();

    qInfo("large image: submitted in %lld ms, shown after %lld ms, %d ticks, longest gap %lld ms",
          submitMs, runMs, ticks, longestGap);
    QVERIFY2(submitMs < 50, "openImage() must only submit");
    QVERIFY2(runMs > 300, "the job was too quick to show anything");
    // A blocked thread would miss the whole run. The bounds leave room for a loaded machine
    // (alone, the longest gap is the ~35 ms of showing the result).
    QVERIFY2(longestGap < runMs / 3, "the GUI thread stalled");
    QVERIFY2(ticks >= runMs / 10 / 5, "the timer hardly ran");
    QCOMPARE(window.currentImageSize(), QSize(4000, 2000));
}

void TestMainWindow::shortcuts_data() {
    QTest::addColumn<QKeySequence>("keys");
    QTest::newRow("open") << QKeySequence(Qt::CTRL | Qt::Key_O);
    QTest::newRow("quit") << QKeySequence(Qt::CTRL | Qt::Key_Q);
}

void TestMainWindow::shortcuts() {
    QFETCH(QKeySequence, keys);
    MainWindow window;
    const auto actions = window.findChildren<QAction*>();
    const bool found = std::any_of(actions.begin(), actions.end(),
                                   [&](const QAction* a) { return a->shortcut() == keys; });
    QVERIFY2(found, qPrintable(keys.toString()));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
