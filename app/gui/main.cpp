// histlab: the desktop window. Wiring only: parse the command line, route the core's log into
// Qt logging, open the window on the given image (or the bundled sample); what --screenshot
// and --render-experiment do is in ui/window/screenshot.h.
#include "bridge/logging.h"
#include "common/helpdialogs.h"
#include "common/theme.h"
#include "window/mainwindow.h"
#include "window/screenshot.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <runtime/device.h>

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
        return histlab::ui::renderExperiment(parser.value(render), parser.value(renderOut),
                                             parser.value(renderBaseline));

    histlab::ui::MainWindow window;
    if (parser.isSet(device)) // else the device remembered from the Run panel
        window.setDeviceSelector(parser.value(device));
    if (parser.isSet(screenshot))
        histlab::ui::arrangeScreenshot(window, parser.value(screenshot),
                                       parser.value(screenshotTabOption), 120'000);
    QStringList images;
    for (const QString& image : parser.positionalArguments())
        images << QFileInfo(image).absoluteFilePath(); // as File › Open gives them

    // The image first: the worker decodes it while this thread lays out and paints the window.
    if (images.isEmpty())
        window.openSample();
    else
        window.openImages(images);
    window.show();
    return app.exec();
}
