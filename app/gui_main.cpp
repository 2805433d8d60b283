// histlab: the desktop window. Wiring only: parse the command line, route the core's log into
// Qt logging, open the window on the given image (or the bundled sample).
#include "logging.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QPixmap>
#include <QSaveFile>
#include <QTimer>
#include <device.h>

namespace {

/// --screenshot: once the first histogram is on screen, grab the window to `path` (through a
/// temporary file and a rename) and quit; exit 1 on an error or after `timeoutMs`.
void arrangeScreenshot(histlab::ui::MainWindow& window, const QString& path, int timeoutMs) {
    window.setErrorDialogsEnabled(false);
    QObject::connect(&window, &histlab::ui::MainWindow::errorShown, &window,
                     [](const QString& message) {
                         qCCritical(histlab::ui::lcUi).noquote() << message;
                         QCoreApplication::exit(1);
                     });
    QObject::connect(
        &window, &histlab::ui::MainWindow::histogramShown, &window,
        [&window, path] {
            // Let the rest of the window finish painting first.
            QTimer::singleShot(100, &window, [&window, path] {
                QSaveFile file(path);
                const bool ok = file.open(QIODevice::WriteOnly) &&
                                window.grab().save(&file, "PNG") && file.commit();
                if (!ok)
                    qCCritical(histlab::ui::lcUi).noquote() << "cannot write" << path;
                QCoreApplication::exit(ok ? 0 : 1);
            });
        },
        Qt::SingleShotConnection);
    QTimer::singleShot(timeoutMs, &window, [] {
        qCCritical(histlab::ui::lcUi) << "no histogram within the screenshot time limit";
        QCoreApplication::exit(1);
    });
}

} // namespace

int main(int argc, char* argv[]) {
    histlab::loadOpenClDrivers(); // before any thread starts: see device.h
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("HistLab"));
    QApplication::setOrganizationName(QStringLiteral("HistLab"));
    histlab::ui::routeCoreLogToQt();

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("OpenCL histogram lab: an image, its 256-bin histograms, and how fast "
                       "they were computed."));
    parser.addHelpOption();
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
    parser.process(app);

    histlab::ui::MainWindow window;
    if (parser.isSet(device)) // else the device remembered from the Run panel
        window.setDeviceSelector(parser.value(device));
    if (parser.isSet(screenshot))
        arrangeScreenshot(window, parser.value(screenshot), 120'000);
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
