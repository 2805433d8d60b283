#include "window/screenshot.h"

#include "bridge/logging.h"
#include "common/exporter.h"
#include "panels/experimentpanel.h"
#include "panels/jobpanel.h"
#include "panels/jointpanel.h"
#include "panels/registerpanel.h"
#include "panels/stackpanel.h"
#include "views/zoomview.h"
#include "window/mainwindow.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QSaveFile>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

namespace histlab::ui {

namespace {

/// Grabs `window` to `path` (through a temporary file and a rename) once the rest of it has
/// painted, and quits: exit 0, or 1 when the file cannot be written.
void grabAndQuit(QWidget& window, const QString& path) {
    QTimer::singleShot(100, &window, [&window, path] {
        // A first grab paints every view; their smooth copies, made off the GUI thread, are
        // then taken, so that the picture saved is the final one.
        window.grab();
        for (ZoomView* view : window.findChildren<ZoomView*>())
            view->finishSmoothCopies();
        QSaveFile file(path);
        const bool ok =
            file.open(QIODevice::WriteOnly) && window.grab().save(&file, "PNG") && file.commit();
        if (!ok)
            qCCritical(lcUi).noquote() << "cannot write" << path;
        QCoreApplication::exit(ok ? 0 : 1);
    });
}

/// --tab: shows the tab of that title (without its mnemonic, any case); a tab that runs jobs
/// runs with its controls' values and is grabbed when the run ends (a failed run too: its
/// message is what the picture shows). False when there is no such tab.
bool screenshotTab(MainWindow& window, const QString& title, const QString& path) {
    // "Whole Stack": the stack view's window of the image shown, counted with its defaults.
    if (title.compare(QStringLiteral("whole stack"), Qt::CaseInsensitive) == 0) {
        window.showWholeStack();
        QObject::connect(
            window.stackPanel(), &JobPanel::runEnded, &window,
            [&window, path](const QString& message) {
                qCInfo(lcUi).noquote() << "screenshot after:" << message;
                grabAndQuit(*window.stackWindow(), path);
            },
            Qt::SingleShotConnection);
        window.stackPanel()->startRun();
        return true;
    }
    const auto named = [&title](const QTabWidget* tabs, int i) {
        return tabs->tabText(i).remove(QLatin1Char('&')).compare(title, Qt::CaseInsensitive) == 0;
    };
    QTabWidget* tabs = window.tabs();
    for (int i = 0; i < tabs->count(); ++i) {
        // A tab, or a page of a tab of pages ("Register", the Joint tab's second page).
        auto* pages = qobject_cast<QTabWidget*>(tabs->widget(i));
        int page = -1;
        for (int j = 0; pages && j < pages->count(); ++j)
            page = named(pages, j) ? j : page;
        if (!named(tabs, i) && page < 0)
            continue;
        tabs->setCurrentIndex(i);
        if (page >= 0)
            pages->setCurrentIndex(page);
        JobPanel* panel = MainWindow::shownPanel(tabs->widget(i));
        // The Register page registers the Histogram page's A and B: the first two images
        // listed, gray.
        if (qobject_cast<RegisterPanel*>(panel)) {
            JointPanel* joint = window.panel<JointPanel>();
            joint->imageACombo()->setCurrentIndex(0);
            joint->imageBCombo()->setCurrentIndex(1);
            joint->channelACombo()->setCurrentIndex(0);
            joint->channelBCombo()->setCurrentIndex(0);
        }
        if (!panel) {
            grabAndQuit(window, path);
            return true;
        }
        QObject::connect(
            panel, &JobPanel::runEnded, &window,
            [&window, path](const QString& message) {
                qCInfo(lcUi).noquote() << "screenshot after:" << message;
                grabAndQuit(window, path);
            },
            Qt::SingleShotConnection);
        panel->startRun();
        return true;
    }
    qCCritical(lcUi).noquote() << "no tab" << title;
    return false;
}

} // namespace

/// --screenshot: once the first histogram is on screen (and, with `tab`, that tab's run has
/// ended), grab the window to `path` and quit; exit 1 on an error or after `timeoutMs`.
void arrangeScreenshot(MainWindow& window, const QString& path, const QString& tab, int timeoutMs) {
    window.setErrorDialogsEnabled(false);
    QObject::connect(&window, &MainWindow::errorShown, &window, [](const QString& message) {
        qCCritical(lcUi).noquote() << message;
        QCoreApplication::exit(1);
    });
    QObject::connect(
        &window, &MainWindow::histogramShown, &window,
        [&window, path, tab] {
            if (tab.isEmpty())
                grabAndQuit(window, path);
            else if (!screenshotTab(window, tab, path))
                QCoreApplication::exit(1);
        },
        Qt::SingleShotConnection);
    QTimer::singleShot(timeoutMs, &window, [] {
        qCCritical(lcUi) << "no histogram within the screenshot time limit";
        QCoreApplication::exit(1);
    });
}

/// --render-experiment: the Experiments tab's plot of a saved run, as a file. Exit 0, or 3
/// with the reason on stderr (as histlab-cli's input errors).
int renderExperiment(const QString& runPath, const QString& out, const QString& baselinePath) {
    JobBridge bridge;
    ExperimentPanel panel(&bridge);
    panel.resize(1100, 700);
    panel.setErrorDialogsEnabled(false); // the reason goes to stderr
    QString problem;
    QObject::connect(&panel, &ExperimentPanel::problem,
                     [&](const QString& message) { problem = message; });
    if (out.isEmpty())
        problem = QStringLiteral("--render-experiment needs --out FILE");
    else if (!panel.openRunFrom(runPath).ok ||
             (!baselinePath.isEmpty() && !panel.openBaselineFrom(baselinePath).ok))
        ; // problem says why
    else {
        PlotExportOptions options;
        options.format = plotFormatForFile(out).value_or(PlotFormat::Png);
        options.width = 900;
        options.height = 560;
        options.scale = isRasterFormat(options.format) ? 1.5 : 1.0;
        if (panel.exportPlotTo(out, options).ok)
            return 0;
    }
    std::fprintf(stderr, "histlab: %s\n", qPrintable(problem));
    return 3;
}

} // namespace histlab::ui
