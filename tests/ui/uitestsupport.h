#pragma once
// What the window's Qt tests share: a test program's own folder and settings, the fixtures on
// disk, a window opened on a tab and ready to run, and small readers of tables, files and
// folders. Every test program runs offscreen and computes on PoCL's CPU device.
#include "bridge/logging.h"
#include "panels/imagepanel.h"
#include "panels/jobpanel.h"
#include "plots/histogramplot.h"
#include "window/mainwindow.h"

#include <io/imageio.h>
#include <report/json.h>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QKeyCombination>
#include <QList>
#include <QListWidget>
#include <QMouseEvent>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QString>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

namespace histlab::uitest {

/// How long a test waits for a result: PoCL builds its kernels on the first run.
constexpr int kTimeoutMs = 60'000;

/// A mouse event at `pos` (widget pixels) sent straight to `widget`: `button` is the one that
/// changed, `buttons` those held (a drag's moves carry Qt::LeftButton).
inline void sendMouse(QWidget* widget, QEvent::Type type, const QPoint& pos, Qt::MouseButton button,
                      Qt::MouseButtons buttons) {
    QMouseEvent event(type, QPointF(pos), widget->mapToGlobal(QPointF(pos)), button, buttons,
                      Qt::NoModifier);
    QApplication::sendEvent(widget, &event);
}

/// Gives this test program settings of its own, in the folder `dir`, empty at the start: never
/// the user's, and never another test's (CTest runs the window's tests in parallel, and a device
/// or layout one test remembers would change what another sees). Call it before any QSettings
/// exists, i.e. first thing in initTestCase().
inline void isolateSettings(const QString& dir) {
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir);
    QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab")).clear();
}

/// A test program's temporary folder, where its settings live too (see isolateSettings), with
/// the core's log in the test's output: a base of the test classes, whose initTestCase() calls
/// setUpFolder() first.
class TestFolder {
public:
    bool setUpFolder() {
        ui::routeCoreLogToQt();
        if (!m_dir.isValid())
            return false;
        isolateSettings(path(QStringLiteral("settings")));
        return true;
    }
    QString path(const QString& name) const { return m_dir.filePath(name); }

private:
    QTemporaryDir m_dir;
};

/// A file of tests/data.
inline QString fixture(const QString& name) {
    return QStringLiteral(HISTLAB_TEST_DATA_DIR "/") + name;
}

/// An image as the core's loader reads it.
inline HostImage load(const QString& path) {
    return loadImage(QFile::encodeName(path).toStdString());
}

/// A deterministic image with well-spread values in every channel.
inline QImage makeImage(int width, int height, QImage::Format format) {
    QImage image(width, height, format);
    for (int y = 0; y < height; ++y) {
        uchar* row = image.scanLine(y);
        for (int i = 0; i < image.bytesPerLine(); ++i)
            row[i] = uchar((i * 7 + y * 13 + (i * y) % 31) & 0xFF);
    }
    return image;
}

/// Every graph's points, to compare what is shown before and after.
inline QList<QList<double>> plottedValues(const ui::HistogramPlot& plot) {
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

/// A cell's text, empty where there is no item.
inline QString cell(const QTableWidget* table, int row, int column) {
    const QTableWidgetItem* item = table->item(row, column);
    return item ? item->text() : QString();
}

/// The first row whose cell in `column` reads `text`, or -1.
inline int rowOf(const QTableWidget* table, int column, const QString& text) {
    for (int row = 0; row < table->rowCount(); ++row)
        if (cell(table, row, column) == text)
            return row;
    return -1;
}

/// Chooses the combo box's item `text` (the test fails if there is none).
inline void choose(QComboBox* combo, const QString& text) {
    const int index = combo->findText(text);
    QVERIFY2(index >= 0, qPrintable(text));
    combo->setCurrentIndex(index);
}

/// Checks exactly the list's items named in `texts`.
inline void choose(QListWidget* list, const QStringList& texts) {
    for (int i = 0; i < list->count(); ++i)
        list->item(i)->setCheckState(texts.contains(list->item(i)->text()) ? Qt::Checked
                                                                           : Qt::Unchecked);
}

/// Every entry of a folder, hidden and system files included: to see that nothing (no
/// temporary file) was left behind.
inline QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden |
                               QDir::System);
}

/// A text file's lines (newlines counted), -1 when it cannot be read.
inline int lineCount(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    return int(QString::fromUtf8(file.readAll()).count(QLatin1Char('\n')));
}

/// A JSON file as the core parses it (a null value when it cannot be read).
inline Json readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return parseJsonText(file.readAll().toStdString(), path.toStdString());
}

/// A tab's problems in the test's log, to read why a run could not start.
inline void logProblems(ui::JobPanel* panel) {
    QObject::connect(panel, &ui::JobPanel::problem, panel, [panel](const QString& message) {
        qWarning("%s: %s", panel->metaObject()->className(), qPrintable(message));
    });
}

/// Shows `window` with its message boxes off (its tabs' too) and waits until it is active;
/// with `image`, opens it first and waits for its histograms. False on a timeout.
inline bool showWindow(ui::MainWindow& window, const QString& image = {}) {
    window.setErrorDialogsEnabled(false);
    window.show();
    if (!image.isEmpty()) {
        QSignalSpy shown(&window, &ui::MainWindow::histogramShown);
        window.openImage(image);
        if (!shown.wait(kTimeoutMs))
            return false;
    }
    return QTest::qWaitForWindowActive(&window);
}

/// A shown window's tab `panel`, brought forward with the View menu's `keys`, its problems in
/// the test's log; nullptr when the keys did not show it.
template <typename Panel>
Panel* openTab(ui::MainWindow& window, Panel* panel, QKeyCombination keys) {
    QTest::keyClick(&window, keys.key(), keys.keyboardModifiers());
    QWidget* shown = window.tabs()->currentWidget();
    if (shown != panel && !shown->isAncestorOf(panel)) // a page of a tab of pages (Joint)
        return nullptr;
    logProblems(panel);
    return panel;
}

/// Clicks Run and waits for the run's end; false on a timeout.
inline bool runToEnd(ui::JobPanel* panel) {
    QSignalSpy ended(panel, &ui::JobPanel::runEnded);
    QTest::mouseClick(panel->runButton(), Qt::LeftButton);
    return ended.wait(kTimeoutMs);
}

/// Clicks Run and watches the run: empty when the panel ran with Cancel enabled and then ended,
/// idle, within the timeout; else what was not so.
inline QString watchRun(ui::JobPanel* panel) {
    QSignalSpy ended(panel, &ui::JobPanel::runEnded);
    QTest::mouseClick(panel->runButton(), Qt::LeftButton);
    if (!panel->isRunning())
        return QStringLiteral("Run did not start a run");
    if (!panel->cancelButton()->isEnabled())
        return QStringLiteral("Cancel is disabled while the panel runs");
    if (!ended.wait(kTimeoutMs))
        return QStringLiteral("the run did not end");
    if (panel->isRunning())
        return QStringLiteral("the panel still runs");
    return {};
}

/// Saves the panel's JSON where it cannot succeed (in a folder that does not exist, inside
/// `folder`): empty when the save failed, the status line names the file, and `folder` stays
/// empty (no file, no temporary); else what was not so.
inline QString refusedSaveLeavesNothing(ui::JobPanel* panel, const QString& folder) {
    if (!QDir().mkpath(folder))
        return QStringLiteral("cannot make ") + folder;
    if (panel->saveJsonTo(QDir(folder).filePath(QStringLiteral("missing/run.json"))).ok)
        return QStringLiteral("the save succeeded");
    if (!panel->statusLabel()->text().contains(QStringLiteral("run.json")))
        return QStringLiteral("the status does not name the file: ") + panel->statusLabel()->text();
    if (!entries(folder).isEmpty())
        return QStringLiteral("left behind: ") + entries(folder).join(QStringLiteral(", "));
    return {};
}

/// Clicks Cancel while the panel runs and waits for the run's end. Empty when the run ended as
/// cancelled (runEnded() says so) with the panel idle and Cancel disabled; else what was not so.
inline QString cancelAndWait(ui::JobPanel* panel) {
    QSignalSpy ended(panel, &ui::JobPanel::runEnded);
    QTest::mouseClick(panel->cancelButton(), Qt::LeftButton);
    if (!ended.wait(kTimeoutMs))
        return QStringLiteral("the run did not end");
    const QString message = ended.first().first().toString();
    if (!message.contains(QStringLiteral("cancelled")))
        return QStringLiteral("the run ended as: ") + message;
    if (panel->isRunning())
        return QStringLiteral("the panel still runs");
    if (panel->cancelButton()->isEnabled())
        return QStringLiteral("Cancel is still enabled");
    return {};
}

} // namespace histlab::uitest
