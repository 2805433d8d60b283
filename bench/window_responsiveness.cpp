// histlab-bench-window: how the window feels, measured on the real MainWindow (offscreen).
//
//  1. Decoding a 24-megapixel JPEG alone (the core's loader, as the worker calls it, just before
//     each open; the ratio of each pair is reported too), against
//     opening the same file in the window until the image is visible (decode, preview, shown
//     before its histograms), until its histograms are drawn (counted by one launch of each
//     pass, verified against the CPU reference, their statistics, the replot) and until the
//     run's timings are shown too (the Run panel's repeats, the read-only ceiling). Two copies
//     of the file alternate, so the worker's cache of the last image never answers.
//  2. While those opens run, the longest wait of a 10 ms timer on the GUI thread.
//  3. A region dragged out over the image with the mouse at 60 moves per second (from 30 % to
//     all of the view): how many histograms per second follow it, how long each took from the
//     mouse move to the plot (its counts drawn), and how long the release's final run (the Run
//     panel's repeats) took to be drawn.
//
//  4. Launching the window with the file on its command line (this program started again, as
//     app/gui/main.cpp starts the window), against decoding it alone just before: how long from
//     the process's start until the image is visible, its histograms drawn, and the run's
//     timings shown; on a clean profile (empty cache and settings folders: no remembered
//     device probes, PoCL's kernel cache empty) and on a warm one (a profile the same launch
//     has used before).
//
// Without --image it makes the 24 MP JPEG from the bundled sample (upscaled, with noise, quality
// 92). Results: one JSON and one CSV in --out, with the device, the machine and the date.
#include "bridge/jobbridge.h"
#include "panels/imagepanel.h"
#include "panels/runpanel.h"
#include "views/imageview.h"
#include "window/mainwindow.h"

#include <io/imageio.h>
#include <report/report.h>
#include <runtime/timing.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <sstream>
#include <tuple>
#include <vector>

using namespace histlab;
using namespace histlab::ui;

namespace {

/// A photograph-like 24 MP JPEG: the sample upscaled to 6000 x 4000 with mild noise.
bool makeJpeg(const QString& path) {
    QFile sample(MainWindow::sampleImagePath());
    if (!sample.open(QIODevice::ReadOnly))
        return false;
    const QByteArray bytes = sample.readAll();
    const cv::Mat small =
        cv::imdecode(std::vector<uchar>(bytes.begin(), bytes.end()), cv::IMREAD_COLOR);
    cv::Mat big;
    cv::resize(small, big, cv::Size(6000, 4000), 0, 0, cv::INTER_CUBIC);
    cv::Mat noise(big.size(), big.type());
    cv::randn(noise, cv::Scalar::all(0), cv::Scalar::all(6));
    cv::add(big, noise, big, cv::noArray(), big.type());
    return cv::imwrite(QFile::encodeName(path).toStdString(), big, {cv::IMWRITE_JPEG_QUALITY, 92});
}

double median(std::vector<double> v) {
    return v.empty() ? 0 : summarize(v).medianMs;
}

/// CLOCK_MONOTONIC in milliseconds: one clock for this process and the launches it starts.
double monotonicMs() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

/// The child of a launch measurement: the window as app/gui/main.cpp makes it, opening `image`;
/// prints "launch VISIBLE COUNTS TIMED" (ms since `startedMs`, the parent's clock just before it
/// started this process) once the run's timings are shown, then quits.
int launchChild(int argc, char* argv[], const QString& image, double startedMs,
                const QString& device) {
    loadOpenClDrivers();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("HistLab"));
    QApplication::setOrganizationName(QStringLiteral("HistLab"));
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.setDeviceSelector(device);
    window.resize(1200, 700);
    double visible = -1, counts = -1;
    QObject::connect(&window, &MainWindow::imageShown, [&] { visible = monotonicMs(); });
    QObject::connect(&window, &MainWindow::countsShown, [&] { counts = monotonicMs(); });
    QObject::connect(&window, &MainWindow::histogramShown, [&] {
        const double timed = monotonicMs();
        std::printf("launch %.1f %.1f %.1f\n", visible - startedMs, counts - startedMs,
                    timed - startedMs);
        std::fflush(stdout);
        QCoreApplication::exit(0);
    });
    QObject::connect(&window, &MainWindow::errorShown, [&](const QString& message) {
        std::fprintf(stderr, "launch failed: %s\n", qPrintable(message));
        QCoreApplication::exit(4);
    });
    window.openImages({image}); // then show, as main() does
    window.show();
    QTimer::singleShot(300'000, [] { QCoreApplication::exit(5); });
    return app.exec();
}

/// One launch of the window on `image` with the profile `profile` (its cache and settings
/// folders): {visible, counts, timed} in ms from the start, or empty when it failed.
std::vector<double> launchOnce(const QString& image, const QString& profile,
                               const QString& device) {
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CACHE_HOME"), profile + QStringLiteral("/cache"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), profile + QStringLiteral("/config"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), profile + QStringLiteral("/data"));
    env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("histlab.*=false"));
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    const double started = monotonicMs();
    child.start(QCoreApplication::applicationFilePath(),
                {QStringLiteral("--launch-child"), image, QStringLiteral("--launch-started"),
                 QString::number(started, 'f', 3), QStringLiteral("--device"), device});
    if (!child.waitForFinished(310'000) || child.exitCode() != 0)
        return {};
    const QStringList words =
        QString::fromUtf8(child.readAllStandardOutput()).trimmed().split(QLatin1Char(' '));
    if (words.size() != 4 || words[0] != QLatin1String("launch"))
        return {};
    return {words[1].toDouble(), words[2].toDouble(), words[3].toDouble()};
}

struct DragUpdate {
    double latencyMs; ///< from the mouse move that made the region to its histogram drawn
};

} // namespace

int main(int argc, char* argv[]) {
    // A launch measurement's child (see launchOnce): parsed before anything else starts.
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--launch-child" && i + 5 < argc)
            return launchChild(argc, argv, QString::fromLocal8Bit(argv[i + 1]),
                               std::atof(argv[i + 3]), QString::fromLocal8Bit(argv[i + 5]));
    loadOpenClDrivers();
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Measures the HistLab window's "
                                                    "responsiveness (see the source's header)."));
    parser.addHelpOption();
    QCommandLineOption imageOpt(QStringLiteral("image"),
                                QStringLiteral("A JPEG to open (default: a 24 MP one made from "
                                               "the sample)."),
                                QStringLiteral("FILE"));
    QCommandLineOption repeatOpt(QStringLiteral("repeat"),
                                 QStringLiteral("Decodes and opens of each kind (default 5)."),
                                 QStringLiteral("N"), QStringLiteral("5"));
    QCommandLineOption dragOpt(QStringLiteral("drag-seconds"),
                               QStringLiteral("How long the region is dragged (default 5)."),
                               QStringLiteral("S"), QStringLiteral("5"));
    QCommandLineOption deviceOpt(QStringLiteral("device"), QStringLiteral("OpenCL device."),
                                 QStringLiteral("SEL"), QStringLiteral("auto"));
    QCommandLineOption outOpt(QStringLiteral("out"),
                              QStringLiteral("Folder for window_responsiveness.{json,csv}."),
                              QStringLiteral("DIR"));
    QCommandLineOption launchOpt(QStringLiteral("launches"),
                                 QStringLiteral("Launches of the window on each profile, clean "
                                                "and warm (default 5; 0: none)."),
                                 QStringLiteral("N"), QStringLiteral("5"));
    parser.addOptions({imageOpt, repeatOpt, dragOpt, deviceOpt, outOpt, launchOpt});
    parser.process(app);
    const int repeats = std::max(1, parser.value(repeatOpt).toInt());
    const double dragSeconds = std::max(1.0, parser.value(dragOpt).toDouble());

    QTemporaryDir tmp;
    QString source = parser.value(imageOpt);
    if (source.isEmpty()) {
        source = tmp.filePath(QStringLiteral("photo24mp.jpg"));
        if (!makeJpeg(source)) {
            std::fprintf(stderr, "cannot make the 24 MP JPEG in %s\n", qPrintable(tmp.path()));
            return 3;
        }
    }
    // Two copies: the worker keeps the last image it loaded, and must not here.
    const QStringList copies = {tmp.filePath(QStringLiteral("a.jpg")),
                                tmp.filePath(QStringLiteral("b.jpg"))};
    for (const QString& c : copies)
        if (!QFile::copy(source, c)) {
            std::fprintf(stderr, "%s: cannot copy into %s\n", qPrintable(source),
                         qPrintable(tmp.path()));
            return 3;
        }
    const HostImage probe = loadImage(QFile::encodeName(source).toStdString());
    std::printf("image: %s, %d x %d (%.1f MP), %lld bytes\n", qPrintable(source), probe.width,
                probe.height, probe.width * double(probe.height) / 1e6,
                static_cast<long long>(QFileInfo(source).size()));

    // 4. Launches, before this process's own window exists (its worker would share the cores).
    // Each launch is paired with a decode just before it, as the opens are below.
    const int launches = std::max(0, parser.value(launchOpt).toInt());
    std::vector<double> launchDecodeMs;
    std::map<QString, std::vector<std::vector<double>>> launched; // profile -> runs
    const QString warmProfile = tmp.filePath(QStringLiteral("warm"));
    if (launches > 0 && launchOnce(copies[0], warmProfile, parser.value(deviceOpt)).empty()) {
        std::fprintf(stderr, "the window did not launch on %s\n", qPrintable(copies[0]));
        return 4;
    }
    for (int i = 0; i < launches; ++i)
        for (const QString& kind : {QStringLiteral("clean"), QStringLiteral("warm")}) {
            const QString file = copies[std::size_t(i % 2)];
            launchDecodeMs.push_back(
                wallClockMs([&] { (void)loadImage(QFile::encodeName(file).toStdString()); }));
            QTemporaryDir clean;
            const QString profile = kind == QLatin1String("warm") ? warmProfile : clean.path();
            std::vector<double> run = launchOnce(file, profile, parser.value(deviceOpt));
            if (run.empty()) {
                std::fprintf(stderr, "launch %d (%s profile) failed\n", i, qPrintable(kind));
                return 4;
            }
            run.push_back(launchDecodeMs.back());
            launched[kind].push_back(run);
        }
    const auto launchMedian = [&](const QString& kind, std::size_t what) {
        std::vector<double> v;
        for (const auto& run : launched[kind])
            v.push_back(run[what]);
        return median(v);
    };

    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.setDeviceSelector(parser.value(deviceOpt));
    window.resize(1200, 700);
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openSample(); // the device opened, the kernels built
    if (!shown.wait(120'000)) {
        std::fprintf(stderr, "the sample was not shown: %s\n", qPrintable(window.lastError()));
        return 4;
    }
    ImagePanel* image = window.panel<ImagePanel>();

    // 1b and 2. Opening in the window, with a 10 ms timer watching the event loop.
    QElapsedTimer clock;
    clock.start();
    qint64 lastTick = 0, longestGap = 0, openGap = 0;
    bool watching = false;
    QTimer timer;
    timer.setTimerType(Qt::PreciseTimer);
    timer.setInterval(10);
    QObject::connect(&timer, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        if (watching) {
            longestGap = std::max(longestGap, now - lastTick);
            openGap = std::max(openGap, now - lastTick);
        }
        lastTick = now;
    });
    timer.start();
    qint64 loadedAt = -1, doneAt = -1, visibleAt = -1, countedAt = -1;
    QObject::connect(&window, &MainWindow::imageShown, [&] { visibleAt = clock.elapsed(); });
    QObject::connect(&window, &MainWindow::countsShown, [&] { countedAt = clock.elapsed(); });
    // The job's answers, heard after the Image tab's own slots (connected when it submitted).
    const auto watchJob = [&](JobWatcher* job) {
        QObject::connect(job, &JobWatcher::progressChanged, [&](double, const QString& stage) {
            if (loadedAt < 0 && stage != QLatin1String("loading"))
                loadedAt = clock.elapsed(); // decoded, preview made
        });
        QObject::connect(job, &JobWatcher::finished, [&] {
            doneAt = clock.elapsed();
            watching = false; // the job is over; drawing its answer is the window's own work
        });
    };
    std::vector<double> decodeMs, openMs, openTimedMs, openLoadedMs, openVisibleMs, openJobMs,
        openGaps, ratios;
    for (int i = 0; i < repeats; ++i) {
        // 1a. Decoding alone, just before each open: this shared machine's speed drifts by
        // tens of percent over minutes, and a ratio is only fair between neighbours.
        decodeMs.push_back(wallClockMs(
            [&] { (void)loadImage(QFile::encodeName(copies[std::size_t(i % 2)]).toStdString()); }));
        shown.clear();
        loadedAt = doneAt = visibleAt = countedAt = -1;
        lastTick = clock.elapsed();
        openGap = 0;
        watching = true;
        const qint64 start = clock.elapsed();
        window.openImage(copies[std::size_t(i % 2)]);
        watchJob(image->analysisJob());
        if (!shown.wait(300'000)) {
            std::fprintf(stderr, "open %d did not finish: %s\n", i, qPrintable(window.lastError()));
            return 4;
        }
        openTimedMs.push_back(double(clock.elapsed() - start));
        openMs.push_back(double(countedAt - start));
        ratios.push_back(openMs.back() / decodeMs.back());
        openGaps.push_back(double(openGap));
        openLoadedMs.push_back(double(loadedAt - start));
        openVisibleMs.push_back(double(visibleAt - start));
        openJobMs.push_back(double(doneAt - start));
    }
    const HistogramRun run = image->currentRun();

    // 3. A region dragged at 60 moves per second.
    ImageView* view = image->imageView();
    std::map<std::tuple<int, int, int, int>, qint64> movedAt; // region -> time of its move
    std::vector<DragUpdate> updates;
    int moves = 0;
    bool dragging = true;
    QObject::connect(&window, &MainWindow::countsShown, [&] {
        const auto r = image->currentRegion();
        if (!r || !dragging)
            return;
        const auto it = movedAt.find({r->x, r->y, r->width, r->height});
        if (it != movedAt.end())
            updates.push_back({double(clock.elapsed() - it->second)});
    });
    QObject::connect(view, &ImageView::regionChanged, [&](const Region& r) {
        // The path comes back over itself: a region's latest move is the one its answer follows.
        movedAt.insert_or_assign(std::make_tuple(r.x, r.y, r.width, r.height), clock.elapsed());
    });
    const QRect area = view->rect().adjusted(view->width() / 8, view->height() / 8,
                                             -view->width() / 8, -view->height() / 8);
    const QPoint from = area.topLeft();
    QTest::mousePress(view, Qt::LeftButton, {}, from);
    const qint64 dragStart = clock.elapsed();
    const int totalMoves = int(dragSeconds * 60);
    QPoint lastPos = from;
    QTimer mover;
    mover.setTimerType(Qt::PreciseTimer);
    mover.setInterval(1000 / 60);
    QObject::connect(&mover, &QTimer::timeout, [&] {
        ++moves;
        // The far corner sweeps from 30 % to all of the area: regions of every size, growing as
        // a person drags one out.
        const double f = 0.3 + 0.7 * double(moves) / totalMoves;
        lastPos = from + QPoint(int(8 + f * (area.width() - 8)), int(8 + f * (area.height() - 8)));
        QTest::mouseMove(view, lastPos);
    });
    mover.start();
    while (moves < totalMoves)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    mover.stop();
    const qint64 dragEnd = clock.elapsed();
    // The release asks once more, with the Run panel's repeats: wait for that last answer.
    dragging = false;
    qint64 lastShown = -1;
    QObject::connect(&window, &MainWindow::histogramShown, [&] { lastShown = clock.elapsed(); });
    QTest::mouseRelease(view, Qt::LeftButton, {}, lastPos);
    const qint64 released = clock.elapsed();
    QElapsedTimer patience;
    patience.start();
    while ((window.isBusy() || lastShown < released) && patience.elapsed() < 60'000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    const bool finalShown = lastShown >= released && !window.isBusy();
    const double finalMs = double(lastShown - released);
    const double dragMs = double(dragEnd - dragStart);
    std::vector<double> latencies;
    for (const DragUpdate& u : updates)
        latencies.push_back(u.latencyMs);
    const double rate = updates.size() / (dragMs / 1000.0);

    // Report.
    const DeviceInfo& dev = run.device;
    std::ostringstream json;
    json << "{\n  \"date\": \"" << utcTimestamp() << "\",\n"
         << "  \"machine\": \"" << QSysInfo::prettyProductName().toStdString() << ", "
         << QThread::idealThreadCount() << " threads\",\n"
         << "  \"device\": \"" << dev.name << "\",\n  \"platform\": \"" << dev.platformName
         << "\",\n  \"driver\": \"" << dev.driverVersion << "\",\n"
         << "  \"image\": {\"width\": " << probe.width << ", \"height\": " << probe.height
         << ", \"file_bytes\": " << QFileInfo(source).size() << "},\n"
         << "  \"window_settings\": {\"variant\": \"" << run.config.describe()
         << "\", \"repeats\": " << window.panel<RunPanel>()->repeats() << ", \"verify\": true},\n"
         << "  \"decode_ms_median\": " << median(decodeMs) << ",\n"
         << "  \"open_to_histogram_ms_median\": " << median(openMs) << ",\n"
         << "  \"open_to_timed_run_ms_median\": " << median(openTimedMs) << ",\n"
         << "  \"open_decoded_and_previewed_ms_median\": " << median(openLoadedMs) << ",\n"
         << "  \"open_to_image_visible_ms_median\": " << median(openVisibleMs) << ",\n"
         << "  \"image_visible_minus_decode_ms\": " << median(openVisibleMs) - median(decodeMs)
         << ",\n"
         << "  \"open_job_done_ms_median\": " << median(openJobMs) << ",\n"
         << "  \"open_over_decode\": " << median(openMs) / median(decodeMs) << ",\n"
         << "  \"open_over_decode_each_pair_median\": " << median(ratios) << ",\n"
         << "  \"timer_10ms_longest_wait_during_opens_ms\": " << longestGap << ",\n"
         << "  \"drag\": {\"seconds\": " << dragMs / 1000 << ", \"mouse_moves\": " << moves
         << ", \"histograms_shown\": " << updates.size() << ", \"updates_per_second\": " << rate
         << ", \"latency_ms_median\": " << median(latencies) << ", \"latency_ms_max\": "
         << (latencies.empty() ? 0 : *std::max_element(latencies.begin(), latencies.end()))
         << ", \"release_to_final_ms\": " << (finalShown ? finalMs : -1) << "}";
    for (const QString& kind : {QStringLiteral("clean"), QStringLiteral("warm")})
        if (!launched[kind].empty())
            json << ",\n  \"launch_" << kind.toStdString()
                 << "\": {\"launches\": " << launched[kind].size()
                 << ", \"decode_ms_median\": " << launchMedian(kind, 3)
                 << ", \"to_image_visible_ms_median\": " << launchMedian(kind, 0)
                 << ", \"image_visible_minus_decode_ms\": "
                 << launchMedian(kind, 0) - launchMedian(kind, 3)
                 << ", \"to_histogram_ms_median\": " << launchMedian(kind, 1)
                 << ", \"histogram_over_decode\": " << launchMedian(kind, 1) / launchMedian(kind, 3)
                 << ", \"to_timed_run_ms_median\": " << launchMedian(kind, 2) << "}";
    json << "\n}\n";
    std::printf("%s", json.str().c_str());

    if (parser.isSet(outOpt)) {
        const QDir out(parser.value(outOpt));
        if (!QDir().mkpath(out.path())) {
            std::fprintf(stderr, "%s: cannot create the folder\n", qPrintable(out.path()));
            return 3;
        }
        std::ostringstream csv;
        csv << "measure,repeat,ms\n";
        auto rows = [&](const char* what, const std::vector<double>& v) {
            for (std::size_t i = 0; i < v.size(); ++i)
                csv << what << ',' << i << ',' << v[i] << '\n';
        };
        rows("decode", decodeMs);
        rows("open_to_histogram", openMs);
        rows("open_over_decode", ratios);
        rows("open_to_timed_run", openTimedMs);
        rows("open_decoded_and_previewed", openLoadedMs);
        rows("open_to_image_visible", openVisibleMs);
        rows("open_job_done", openJobMs);
        rows("open_timer_longest_wait", openGaps);
        rows("drag_update_latency", latencies);
        for (const QString& kind : {QStringLiteral("clean"), QStringLiteral("warm")}) {
            const std::string k = kind.toStdString();
            std::vector<double> v[4];
            for (const auto& run : launched[kind])
                for (std::size_t w = 0; w < 4; ++w)
                    v[w].push_back(run[w]);
            rows(("launch_" + k + "_decode").c_str(), v[3]);
            rows(("launch_" + k + "_to_image_visible").c_str(), v[0]);
            rows(("launch_" + k + "_to_histogram").c_str(), v[1]);
            rows(("launch_" + k + "_to_timed_run").c_str(), v[2]);
        }
        writeFileAtomically(
            out.filePath(QStringLiteral("window_responsiveness.json")).toStdString(), json.str());
        writeFileAtomically(out.filePath(QStringLiteral("window_responsiveness.csv")).toStdString(),
                            csv.str());
    }
    return 0;
}
