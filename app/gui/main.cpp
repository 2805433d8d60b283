// histlab: the desktop window. Wiring only: parse the command line, route the core's log into
// Qt logging, open the window on the given image (or the bundled sample).
#include "bridge/logging.h"
#include "common/helpdialogs.h"
#include "common/theme.h"
#include "panels/experimentpanel.h"
#include "panels/jobpanel.h"
#include "views/zoomview.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QPixmap>
#include <QSaveFile>
#include <QTabWidget>
#include <QTimer>
#include <io/imageio.h>
#include <runtime/device.h>

#include <cstdio>

namespace {

/// Grabs the window to `path` (through a temporary file and a rename) once the rest of it has
/// painted, and quits: exit 0, or 1 when the file cannot be written.
void grabAndQuit(histlab::ui::MainWindow& window, const QString& path) {
    QTimer::singleShot(100, &window, [&window, path] {
        // A first grab paints every view; their smooth copies, made off the GUI thread, are
        // then taken, so that the picture saved is the final one.
        window.grab();
        for (histlab::ui::ZoomView* view : window.findChildren<histlab::ui::ZoomView*>())
            view->finishSmoothCopies();
        QSaveFile file(path);
        const bool ok =
            file.open(QIODevice::WriteOnly) && window.grab().save(&file, "PNG") && file.commit();
        if (!ok)
            qCCritical(histlab::ui::lcUi).noquote() << "cannot write" << path;
        QCoreApplication::exit(ok ? 0 : 1);
    });
}

/// --tab: shows the tab of that title (without its mnemonic, any case); a tab that runs jobs
/// runs with its controls' values and is grabbed when the run ends (a failed run too: its
/// message is what the picture shows). False when there is no such tab.
bool screenshotTab(histlab::ui::MainWindow& window, const QString& title, const QString& path) {
    QTabWidget* tabs = window.tabs();
    for (int i = 0; i < tabs->count(); ++i) {
        if (tabs->tabText(i).remove(QLatin1Char('&')).compare(title, Qt::CaseInsensitive) != 0)
            continue;
        tabs->setCurrentIndex(i);
        auto* panel = qobject_cast<histlab::ui::JobPanel*>(tabs->widget(i));
        if (!panel) {
            grabAndQuit(window, path);
            return true;
        }
        QObject::connect(
            panel, &histlab::ui::JobPanel::runEnded, &window,
            [&window, path](const QString& message) {
                qCInfo(histlab::ui::lcUi).noquote() << "screenshot after:" << message;
                grabAndQuit(window, path);
            },
            Qt::SingleShotConnection);
        panel->startRun();
        return true;
    }
    qCCritical(histlab::ui::lcUi).noquote() << "no tab" << title;
    return false;
}

/// --screenshot: once the first histogram is on screen (and, with `tab`, that tab's run has
/// ended), grab the window to `path` and quit; exit 1 on an error or after `timeoutMs`.
void arrangeScreenshot(histlab::ui::MainWindow& window, const QString& path, const QString& tab,
                       int timeoutMs) {
    window.setErrorDialogsEnabled(false);
    QObject::connect(&window, &histlab::ui::MainWindow::errorShown, &window,
                     [](const QString& message) {
                         qCCritical(histlab::ui::lcUi).noquote() << message;
                         QCoreApplication::exit(1);
                     });
    QObject::connect(
        &window, &histlab::ui::MainWindow::histogramShown, &window,
        [&window, path, tab] {
            if (tab.isEmpty())
                grabAndQuit(window, path);
            else if (!screenshotTab(window, tab, path))
                QCoreApplication::exit(1);
        },
        Qt::SingleShotConnection);
    QTimer::singleShot(timeoutMs, &window, [] {
        qCCritical(histlab::ui::lcUi) << "no histogram within the screenshot time limit";
        QCoreApplication::exit(1);
    });
}

/// --render-experiment: the Experiments tab's plot of a saved run, as a file. Exit 0, or 3
/// with the reason on stderr (as histlab-cli's input errors).
int renderExperiment(const QString& runPath, const QString& out, const QString& baselinePath) {
    histlab::ui::JobBridge bridge;
    histlab::ui::ExperimentPanel panel(&bridge);
    panel.resize(1100, 700);
    panel.setErrorDialogsEnabled(false); // the reason goes to stderr
    QString problem;
    QObject::connect(&panel, &histlab::ui::ExperimentPanel::problem,
                     [&](const QString& message) { problem = message; });
    if (out.isEmpty())
        problem = QStringLiteral("--render-experiment needs --out FILE");
    else if (!panel.openRunFrom(runPath).ok ||
             (!baselinePath.isEmpty() && !panel.openBaselineFrom(baselinePath).ok))
        ; // problem says why
    else {
        histlab::ui::PlotExportOptions options;
        options.format = histlab::ui::plotFormatForFile(out).value_or(histlab::ui::PlotFormat::Png);
        options.width = 900;
        options.height = 560;
        options.scale = histlab::ui::isRasterFormat(options.format) ? 1.5 : 1.0;
        if (panel.exportPlotTo(out, options).ok)
            return 0;
    }
    std::fprintf(stderr, "histlab: %s\n", qPrintable(problem));
    return 3;
}

} // namespace

int main(int argc, char* argv[]) {
    histlab::loadOpenClDrivers(); // before any thread starts: see device.h
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("HistLab"));
    QApplication::setOrganizationName(QStringLiteral("HistLab"));
    QApplication::setApplicationVersion(histlab::ui::histlabVersion());
    // The installed desktop entry's name: Wayland compositors match the window to its entry
    // (and icon) by it.
    QGuiApplication::setDesktopFileName(QStringLiteral("org.histlab.HistLab"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/histlab/histlab.svg")));
    histlab::ui::useCNumbers();
    // The theme chosen in View › Theme (the system's unless another was chosen).
    if (const histlab::ui::Theme theme = histlab::ui::savedTheme();
        theme != histlab::ui::Theme::System)
        histlab::ui::applyTheme(theme);
    histlab::ui::routeCoreLogToQt();

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("OpenCL histogram lab: an image, its 256-bin histograms, and how fast "
                       "they were computed."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("images"),
                                 QStringLiteral("Images to open: the first is shown, all are in "
                                                "the Images list (default: the bundled sample)."),
                                 QStringLiteral("[IMAGE...]"));
    QCommandLineOption device(QStringLiteral("device"),
                              QStringLiteral("OpenCL device: index, gpu, cpu, auto, or part of "
                                             "its name (default: the one last chosen in the "
                                             "window, else the first GPU, else the CPU)."),
                              QStringLiteral("SEL"));
    parser.addOption(device);
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QStringLiteral("Grab the window to FILE once the first "
                                                 "histogram is shown, then quit."),
                                  QStringLiteral("FILE"));
    screenshot.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(screenshot);
    QCommandLineOption screenshotTabOption(
        QStringLiteral("tab"),
        QStringLiteral("With --screenshot: show the tab TITLE (e.g. Joint) and, for a tab that "
                       "runs jobs, grab it once its run has ended."),
        QStringLiteral("TITLE"));
    screenshotTabOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(screenshotTabOption);
    QCommandLineOption render(QStringLiteral("render-experiment"),
                              QStringLiteral("Draw a saved experiment run (JSON, from the "
                                             "Experiments tab or histlab-cli sweep --json) as "
                                             "OUT (.png, .jpg, .pdf or .svg), then quit."),
                              QStringLiteral("RUN.json"));
    QCommandLineOption renderOut(QStringLiteral("out"),
                                 QStringLiteral("Where --render-experiment writes."),
                                 QStringLiteral("OUT"));
    QCommandLineOption renderBaseline(QStringLiteral("baseline"),
                                      QStringLiteral("A saved run drawn under it, dashed "
                                                     "(with --render-experiment)."),
                                      QStringLiteral("BASE.json"));
    parser.addOption(render);
    parser.addOption(renderOut);
    parser.addOption(renderBaseline);
    parser.process(app);
    if (parser.isSet(render))
        return renderExperiment(parser.value(render), parser.value(renderOut),
                                parser.value(renderBaseline));

    histlab::ui::MainWindow window;
    if (parser.isSet(device)) // else the device remembered from the Run panel
        window.setDeviceSelector(parser.value(device));
    if (parser.isSet(screenshot))
        arrangeScreenshot(window, parser.value(screenshot), parser.value(screenshotTabOption),
                          120'000);
    window.show();
    QStringList images;
    for (const QString& image : parser.positionalArguments())
        images << QFileInfo(image).absoluteFilePath(); // as File › Open gives them

    if (images.isEmpty())
        window.openSample();
    else
        window.openImages(images);
    return app.exec();
}
