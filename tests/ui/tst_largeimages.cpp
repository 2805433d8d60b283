// Large images in the window. A 100-megapixel image opens while the GUI thread never works more
// than 50 ms (of its own CPU time) between two returns to its event loop, and a 10 ms timer on it
// never waits more than 150 ms beyond what a plain sleeping thread of the same process waits at
// the same time (decoding, the preview, the histograms and their verification all run on the
// worker), and its histograms are exact. An image larger than what the device takes
// at once is processed in pieces, and the merged histogram is exact too.
//
// This test runs alone (RUN_SERIAL in CTest): the bound is about this program's event loop, and
// another test's threads competing for the 2 cores would measure the machine instead.
#include "bridge/jobbridge.h"
#include "bridge/logging.h"
#include "panels/imagepanel.h"
#include "uitestsupport.h"
#include "views/imagelist.h"
#include "views/imageview.h"
#include "window/mainwindow.h"

#include <image/image.h>
#include <pipelines/histogram256/histogram256.h>

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <thread>
#include <vector>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

namespace {

/// The calling thread's CPU time in milliseconds.
double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

/// A binary PPM (P6) with well-spread values, written straight to disk (fast at 300 MB).
HostImage writePpm(const QString& path, int width, int height) {
    HostImage image;
    image.width = width;
    image.height = height;
    image.channels = 3;
    image.depth = 8;
    image.data.resize(std::size_t(width) * height * 3);
    std::uint32_t state = 12345;
    for (std::size_t i = 0; i < image.data.size(); ++i) {
        state = state * 1664525u + 1013904223u;
        // Mostly smooth with noise, like a photograph: every bin gets some counts.
        image.data[i] = std::uint8_t((i / 3 % std::size_t(width)) * 255 / width + (state >> 29));
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(QStringLiteral("P6\n%1 %2\n255\n").arg(width).arg(height).toLatin1());
    file.write(reinterpret_cast<const char*>(image.data.data()), qint64(image.data.size()));
    return image;
}

/// The reference counts of each colour channel and of gray, in the window's order.
std::vector<std::vector<std::uint64_t>> referenceCounts(const HostImage& image) {
    std::vector<std::vector<std::uint64_t>> out;
    const std::vector<std::uint64_t> rgb =
        histlab::referenceHistogram(image.data.data(), image.data.size(), 3);
    for (int c = 0; c < 3; ++c)
        out.emplace_back(rgb.begin() + c * 256, rgb.begin() + (c + 1) * 256);
    std::vector<std::uint64_t> gray(256, 0);
    for (std::size_t p = 0; p < image.pixelCount(); ++p) {
        const std::uint8_t* px = image.data.data() + 3 * p;
        ++gray[histlab::lumaOf(px[0], px[1], px[2])];
    }
    out.push_back(gray);
    return out;
}

bool sameCounts(const histlab::HistogramRun& run,
                const std::vector<std::vector<std::uint64_t>>& expected) {
    if (run.histograms.size() != expected.size())
        return false;
    for (std::size_t c = 0; c < expected.size(); ++c)
        if (!std::equal(expected[c].begin(), expected[c].end(), run.histograms[c].counts.begin()))
            return false;
    return true;
}

} // namespace

class TestLargeImages : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase();
    void hundredMegapixelsOpenWithoutFreezing();
    void imageLargerThanOnePieceIsExact();
};

void TestLargeImages::initTestCase() {
    QVERIFY(setUpFolder());
}

void TestLargeImages::hundredMegapixelsOpenWithoutFreezing() {
    const QString file = path(QStringLiteral("100mp.ppm"));
    const HostImage pixels = writePpm(file, 12500, 8000); // 100 megapixels, 300 MB
    QVERIFY(!pixels.data.empty());
    const auto expected = referenceCounts(pixels);

    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openSample(); // the device opened and the kernels built: what follows is the job
    QVERIFY(shown.wait(kTimeoutMs));
    shown.clear();

    // Two clocks tick every 10 ms while the job runs: a QTimer on the GUI thread's event loop,
    // and a plain thread that only sleeps (the control). This machine is a shared virtual
    // machine: at times nothing of the process runs for 50-150 ms, whatever it does. Such a
    // stall delays both clocks; a blocked event loop delays only the first. So each wait of the
    // event loop is compared with the control's longest wait in the same interval.
    //
    // The event loop's waits also stretch when the process's own workers (the decoder, PoCL's
    // threads on every core) leave the GUI thread little CPU: on this 2-core machine painting
    // the cleared histogram plot when the preview comes (10-40 ms of GUI work) was measured at
    // 65-107 ms of wall time beyond the control. So the GUI thread's own work is bounded by its
    // CPU time between two ticks (50 ms), and its waits beyond the control's more loosely
    // (150 ms): a lock or a file it waits on shows there.
    QElapsedTimer clock;
    std::vector<qint64> guiTicks, controlTicks;
    std::vector<double> guiCpu; // the GUI thread's CPU time at each of guiTicks
    double finishedCpu = 0;
    qint64 finishedAt = -1;
    QTimer timer;
    timer.setTimerType(Qt::PreciseTimer);
    timer.setInterval(10);
    connect(&timer, &QTimer::timeout, this, [&] {
        if (finishedAt < 0) { // while the job runs
            guiTicks.push_back(clock.elapsed());
            guiCpu.push_back(threadCpuMs());
        }
    });
    qint64 previewAt = -1;
    connect(&window, &MainWindow::imageShown, this, [&] { previewAt = clock.elapsed(); });
    std::atomic<bool> stopControl{false};
    clock.start();
    std::thread control([&] {
        while (!stopControl) {
            controlTicks.push_back(clock.elapsed());
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    });
    timer.start();
    guiTicks.push_back(clock.elapsed());
    guiCpu.push_back(threadCpuMs());
    window.openImage(file);
    const qint64 submitMs = clock.elapsed();
    // The job has ended when its answer arrives. The Image tab's slots run first (connected
    // when it submitted the job), so what it does with the answer on the GUI thread counts
    // (saving the recent-files list there once took 100-400 ms); the replot that follows does
    // not.
    connect(window.panel<ImagePanel>()->analysisJob(), &JobWatcher::finished, this, [&] {
        finishedAt = clock.elapsed();
        finishedCpu = threadCpuMs();
    });
    // A real event loop: QTRY_* would sleep in QTest::qWait between its checks, and those
    // sleeps are what the timer would then measure.
    const bool arrived = shown.wait(4 * kTimeoutMs);
    const qint64 shownMs = clock.elapsed();
    timer.stop();
    stopControl = true;
    control.join();
    QVERIFY(arrived);
    guiTicks.push_back(finishedAt);
    guiCpu.push_back(finishedCpu);

    qint64 longestGap = 0, longestUnexplained = 0, controlDuringLongest = 0;
    double longestWork = 0; // the GUI thread's most CPU time between two ticks
    QString longWaits;
    for (std::size_t i = 1; i < guiTicks.size(); ++i) {
        const qint64 from = guiTicks[i - 1], to = guiTicks[i], gap = to - from;
        longestWork = std::max(longestWork, guiCpu[i] - guiCpu[i - 1]);
        qint64 controlGap = 0; // the control's longest wait overlapping [from, to]
        for (std::size_t j = 1; j < controlTicks.size(); ++j)
            if (controlTicks[j] > from && controlTicks[j - 1] < to)
                controlGap = std::max(controlGap, controlTicks[j] - controlTicks[j - 1]);
        if (gap - controlGap >= 20) // named in the report: when, against the preview's time
            longWaits +=
                QStringLiteral(" %1-%2 ms (%3 beyond)").arg(from).arg(to).arg(gap - controlGap);
        longestUnexplained = std::max(longestUnexplained, gap - controlGap);
        if (gap > longestGap) {
            longestGap = gap;
            controlDuringLongest = controlGap;
        }
    }
    qInfo("100 MP: submitted in %lld ms; job done after %lld ms, shown after %lld ms; %zu ticks "
          "of the 10 ms timer; longest wait while the job ran %lld ms (the control thread's "
          "longest wait then: %lld ms); longest wait beyond the control's: %lld ms; the preview "
          "shown at %lld ms; the GUI thread's longest work between two ticks: %.1f ms of CPU; "
          "waits of 20 ms or more beyond the control's:%s",
          submitMs, finishedAt, shownMs, guiTicks.size(), longestGap, controlDuringLongest,
          longestUnexplained, previewAt, longestWork,
          longWaits.isEmpty() ? " none" : qPrintable(longWaits));
    QVERIFY2(submitMs < 50, "openImage() must only submit");
    QVERIFY2(finishedAt > 500, "the job was too quick to show anything");
    QVERIFY2(guiTicks.size() >= std::size_t(finishedAt / 10 / 5), "the timer hardly ran");
    QVERIFY2(longestWork <= 50,
             qPrintable(QStringLiteral("the GUI thread worked %1 ms (CPU) without returning to "
                                       "its event loop")
                            .arg(longestWork, 0, 'f', 1)));
    QVERIFY2(longestUnexplained <= 150,
             qPrintable(QStringLiteral("the event loop waited %1 ms longer than a sleeping "
                                       "thread of the same process")
                            .arg(longestUnexplained)));
    QCOMPARE(window.panel<ImagePanel>()->currentImageSize(), QSize(12500, 8000));
    QVERIFY(window.panel<ImagePanel>()->currentRun().verified.value_or(false));
    QVERIFY(sameCounts(window.panel<ImagePanel>()->currentRun(), expected));
    // The view paints a preview, never the 100 MP image itself.
    QCOMPARE(std::max(window.panel<ImagePanel>()->imageView()->image().width(),
                      window.panel<ImagePanel>()->imageView()->image().height()),
             JobBridge::maxPreviewSide);
    // Qt refuses a 300 MB image (its allocation limit): the Images list's thumbnail is made
    // from the window's preview, not from a second full decode. It is made on an idle-priority
    // thread, which a busy machine runs late.
    QTRY_VERIFY_WITH_TIMEOUT(window.panel<ImageList>()->hasThumbnail(file), kTimeoutMs);
    const QListWidgetItem* entry = window.panel<ImageList>()->currentItem();
    QVERIFY(entry && !entry->icon().isNull());
    QVERIFY2(entry->toolTip().contains(QStringLiteral("12500 × 8000 px")),
             qPrintable(entry->toolTip()));
}

void TestLargeImages::imageLargerThanOnePieceIsExact() {
    // 3000 x 1001 RGB is about 9 MB; pieces of 1 MiB make 9 of them, the last one short.
    const QString file = path(QStringLiteral("pieces.ppm"));
    const HostImage pixels = writePpm(file, 3000, 1001);
    QVERIFY(!pixels.data.empty());

    JobBridge bridge;
    AnalysisRequest request;
    request.source = file;
    request.device = QStringLiteral("cpu");
    request.repeats = 1;
    request.maxPieceBytes = std::size_t(1) << 20;
    JobWatcher* job = submitAnalysis(bridge, request);
    QSignalSpy finished(job, &JobWatcher::finished);
    QSignalSpy failed(job, &JobWatcher::failed);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() == 1, kTimeoutMs);
    QCOMPARE(failed.count(), 0);
    const auto result = std::any_cast<ImageAnalysis>(finished.first().at(0).value<std::any>());
    const auto& notes = result.run.notes;
    QVERIFY2(
        std::any_of(notes.begin(), notes.end(),
                    [](const std::string& n) { return n.find("9 pieces") != std::string::npos; }),
        notes.empty() ? "no note" : notes.front().c_str());
    QVERIFY(result.run.verified.value_or(false));
    QVERIFY(sameCounts(result.run, referenceCounts(pixels)));
}

QTEST_MAIN(TestLargeImages)
#include "tst_largeimages.moc"
