// The Run panel on the offscreen platform, computing on PoCL's CPU device: the device list comes
// from the worker with each device's properties, a change of device, variant or parameter runs
// the image again, a combination the core rejects is reported and changes nothing, F5 runs
// again, Esc or the Cancel button stops a long job and keeps what is shown, and the chosen
// device is remembered.
#include "bridge/logging.h"
#include "panels/runpanel.h"
#include "panels/runsummary.h"
#include "plots/histogramplot.h"
#include "uitestsupport.h"
#include "window/mainwindow.h"

#include <pipelines/histogram256/histogram256.h>

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QtTest>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

namespace {

QSettings settings() {
    return QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab"));
}

/// Waits until the window has answered its newest request.
bool waitIdle(const MainWindow& window) {
    QElapsedTimer clock;
    clock.start();
    while (window.isBusy() && clock.elapsed() < kTimeoutMs)
        QTest::qWait(20);
    return !window.isBusy();
}

/// Applies a change that runs the image again and waits until its result is on screen
/// (histogramShown comes after the replot, a turn of the event loop after the answer).
template <typename Change> bool changeAndWaitShown(MainWindow& window, Change change) {
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    change();
    if (!window.isBusy())
        return false;
    return (shown.wait(kTimeoutMs) || shown.count() > 0) && waitIdle(window);
}

/// Waits for the worker's device list to fill the combo.
bool waitDevices(const MainWindow& window) {
    QElapsedTimer clock;
    clock.start();
    const QComboBox* combo = window.panel<RunPanel>()->deviceCombo();
    while (!(combo->isEnabled() && combo->count() > 1) && clock.elapsed() < kTimeoutMs)
        QTest::qWait(20);
    return combo->isEnabled() && combo->count() > 1;
}

/// The combo row of PoCL's device (-1 if none).
int poclRow(const QComboBox& combo) {
    for (int row = 0; row < combo.count(); ++row)
        if (combo.itemData(row, Qt::ToolTipRole)
                .toString()
                .contains(QLatin1String("Portable Computing Language")))
            return row;
    return -1;
}

} // namespace

class TestRunControls : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void listsDevicesWithProperties();
    void showsWhatTheCoreChose();
    void deviceSwitchReruns();
    void unknownDeviceIsReported();
    void switchingReruns_data();
    void switchingReruns();
    void usageErrorKeepsPreviousRun();
    void f5RunsAgain();
    void progressBarWhileRunning();
    void cancelKeepsPrevious_data();
    void cancelKeepsPrevious();
    void rememberedDeviceRoundTrips();
    void workGroupSizeIsCappedByTheDevice();
    void unusedFieldsAreGreyedOut();
    void deviceSelectorOutlivesTheDock();
    void summaryInPlainWordsOnTheImageTab();

private:
    /// A shown window (no dialogs) with the bundled sample analysed.
    bool openSample(MainWindow& window);
};

void TestRunControls::initTestCase() {
    QVERIFY(setUpFolder());
    // About 108 MB of RGB: with 20 repeats a run takes seconds on PoCL, long enough to cancel.
    QVERIFY(makeImage(6000, 6000, QImage::Format_RGB888).save(path("huge.ppm")));
}

void TestRunControls::init() {
    settings().remove(QStringLiteral("device"));
}

bool TestRunControls::openSample(MainWindow& window) {
    window.setErrorDialogsEnabled(false);
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openSample();
    return (shown.wait(kTimeoutMs) || shown.count() > 0) && waitIdle(window);
}

void TestRunControls::listsDevicesWithProperties() {
    MainWindow window;
    window.show();
    QVERIFY(waitDevices(window));
    const RunPanel* panel = window.panel<RunPanel>();
    const QComboBox* combo = panel->deviceCombo();
    QCOMPARE(combo->itemData(0).toString(), QStringLiteral("auto"));
    QCOMPARE(combo->count(), int(panel->devices().size()) + 1);
    const int row = poclRow(*combo);
    QVERIFY2(row > 0, "PoCL is not in the device list");
    // Listed at once (probes remembered or pending), then probed in the background.
    QTRY_VERIFY_WITH_TIMEOUT(panel->devices()[std::size_t(row - 1)].probes == ProbeState::Run,
                             kTimeoutMs);
    const auto& device = panel->devices()[std::size_t(row - 1)];
    QVERIFY(device.info.computeUnits > 0);
    QVERIFY(device.capabilities.has_value());
    const QString tooltip = combo->itemData(row, Qt::ToolTipRole).toString();
    for (const QString& expected :
         {QStringLiteral("compute units: %1").arg(device.info.computeUnits),
          QStringLiteral("type: cpu"), QStringLiteral("local memory:"),
          QStringLiteral("max work-group: %1").arg(device.info.maxWorkGroupSize),
          QStringLiteral("max buffer:"), QStringLiteral("driver:"),
          QStringLiteral("non-uniform work-groups:"), QStringLiteral("work_group_scan:")})
        QVERIFY2(tooltip.contains(expected),
                 qPrintable(expected + QStringLiteral(" in\n") + tooltip));
    // Sizes in powers of 1,024 are named as such (PoCL's local memory: 512 KiB).
    QVERIFY2(
        tooltip.contains(QRegularExpression(QStringLiteral("local memory: [0-9.]+ (KiB|MiB)"))),
        qPrintable(tooltip));
    QVERIFY2(!tooltip.contains(QRegularExpression(QStringLiteral("\\b[KMG]B\\b"))),
             qPrintable(tooltip));
}

void TestRunControls::showsWhatTheCoreChose() {
    MainWindow window;
    RunPanel* panel = window.panel<RunPanel>();
    QCOMPARE(panel->banksSpin()->specialValueText(), QStringLiteral("choose"));
    QVERIFY(openSample(window));
    // The fields left to the core say what it picked; what they ask for is unchanged.
    const HistogramConfig& c = window.panel<ImagePanel>()->currentRun().config;
    QCOMPARE(panel->variantCombo()->itemText(0),
             QStringLiteral("auto (%1)").arg(QString::fromLatin1(variantName(c.variant))));
    QCOMPARE(panel->banksSpin()->specialValueText(), QStringLiteral("choose (%1)").arg(c.banks));
    QCOMPARE(panel->workGroupSizeSpin()->specialValueText(),
             QStringLiteral("choose (%1)").arg(c.workGroupSize));
    QCOMPARE(panel->groupsPerCuSpin()->specialValueText(),
             QStringLiteral("choose (%1)").arg(c.groupsPerCu));
    QCOMPARE(panel->readCombo()->itemText(0),
             QStringLiteral("choose (%1)").arg(QString::fromLatin1(readPatternName(c.read))));
    QCOMPARE(panel->mergeCombo()->itemText(0),
             QStringLiteral("choose (%1)").arg(QString::fromLatin1(mergeModeName(c.merge))));
    const HistogramRequest asked = panel->histogramRequest();
    QCOMPARE(asked.variant, HistogramVariant::Auto);
    QCOMPARE(asked.banks, 0);
    QVERIFY(!asked.read.has_value());
}

void TestRunControls::deviceSwitchReruns() {
    MainWindow window;
    QVERIFY(openSample(window));
    QVERIFY(waitDevices(window));
    QComboBox* combo = window.panel<RunPanel>()->deviceCombo();
    QCOMPARE(combo->currentIndex(), 0); // auto
    const int row = poclRow(*combo);
    QVERIFY(row > 0);

    QSignalSpy shown(&window, &MainWindow::histogramShown);
    combo->setCurrentIndex(row);
    QVERIFY2(window.isBusy(), "choosing a device did not run the image again");
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kTimeoutMs);
    const auto& device = window.panel<RunPanel>()->devices()[std::size_t(row - 1)].info;
    QCOMPARE(window.panel<ImagePanel>()->currentRun().device.index, device.index);
    QVERIFY(
        window.panel<ImagePanel>()->runSummary().startsWith(QString::fromStdString(device.name)));
    QVERIFY(
        combo->toolTip().contains(QStringLiteral("compute units: %1").arg(device.computeUnits)));
    QCOMPARE(window.panel<ImagePanel>()->currentRun().verified, std::optional<bool>(true));
}

void TestRunControls::unknownDeviceIsReported() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    window.setDeviceSelector(QStringLiteral("no-such-device")); // as histlab --device would
    QSignalSpy errors(&window, &MainWindow::errorShown);
    window.openSample();
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, kTimeoutMs);
    QVERIFY2(window.lastError().contains(QLatin1String("no-such-device")),
             qPrintable(window.lastError()));
    QVERIFY(window.panel<ImagePanel>()->currentSource().isEmpty());

    // The list shows the selector as it is; picking a real device runs.
    QVERIFY(waitDevices(window));
    QComboBox* combo = window.panel<RunPanel>()->deviceCombo();
    QVERIFY2(combo->currentText().contains(QLatin1String("no-such-device")),
             qPrintable(combo->currentText()));
    QVERIFY(changeAndWaitShown(window, [combo] { combo->setCurrentIndex(poclRow(*combo)); }));
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), MainWindow::sampleImagePath());
}

void TestRunControls::switchingReruns_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("banks");
    QTest::addColumn<QString>("read");
    QTest::addColumn<int>("expectedBanks");

    QTest::newRow("naive") << "naive" << 0 << "" << 1;
    QTest::newRow("local") << "local" << 0 << "" << 1;
    QTest::newRow("banked, 4 banks") << "banked" << 4 << "" << 4;
    QTest::newRow("cpu, serial, 2 copies") << "cpu" << 2 << "serial" << 2;
}

void TestRunControls::switchingReruns() {
    QFETCH(QString, variant);
    QFETCH(int, banks);
    QFETCH(QString, read);
    QFETCH(int, expectedBanks);

    MainWindow window;
    QVERIFY(openSample(window));
    QVERIFY(waitDevices(window));
    RunPanel* panel = window.panel<RunPanel>();
    QSignalSpy shown(&window, &MainWindow::histogramShown);

    // Each change submits a run at once; the newest wins.
    panel->banksSpin()->setValue(banks);
    if (!read.isEmpty())
        panel->readCombo()->setCurrentIndex(panel->readCombo()->findData(read));
    panel->variantCombo()->setCurrentIndex(panel->variantCombo()->findData(variant));
    QVERIFY(window.isBusy());
    QVERIFY(waitIdle(window));
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 5000);

    const auto& config = window.panel<ImagePanel>()->currentRun().config;
    QCOMPARE(QString::fromLatin1(histlab::variantName(config.variant)), variant);
    QCOMPARE(config.banks, expectedBanks);
    QCOMPARE(QString::fromStdString(config.chosenBy), QStringLiteral("request"));
    QCOMPARE(window.panel<ImagePanel>()->currentRun().verified, std::optional<bool>(true));
    const QString summary = window.panel<ImagePanel>()->runSummary();
    QVERIFY2(summary.contains(QString::fromStdString(config.describe())), qPrintable(summary));
    QVERIFY2(summary.endsWith(QStringLiteral(" · verified")), qPrintable(summary));
    QVERIFY(window.lastError().isEmpty());
}

void TestRunControls::usageErrorKeepsPreviousRun() {
    MainWindow window;
    QVERIFY(openSample(window));
    RunPanel* panel = window.panel<RunPanel>();
    QVERIFY(changeAndWaitShown(window, [panel] {
        panel->variantCombo()->setCurrentIndex(
            panel->variantCombo()->findData(QStringLiteral("cpu")));
    }));
    QCOMPARE(window.panel<ImagePanel>()->currentRun().config.variant, HistogramVariant::Private);
    const QString summary = window.panel<ImagePanel>()->runSummary();
    const auto before = plottedValues(*window.panel<ImagePanel>()->histogramPlot());

    QSignalSpy errors(&window, &MainWindow::errorShown);
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    panel->banksSpin()->setValue(8); // the cpu variant keeps 1, 2 or 4 copies
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, kTimeoutMs);
    QVERIFY(waitIdle(window));
    const QString message = errors.first().first().toString();
    QCOMPARE(window.lastError(), message);
    QVERIFY2(message.contains(QLatin1String("1, 2 or 4")), qPrintable(message));
    // Named as the dock's field, not as the CLI's option.
    QVERIFY2(message.startsWith(QLatin1String("Banks: ")), qPrintable(message));
    QVERIFY2(window.statusBar()->currentMessage().contains(message),
             qPrintable(window.statusBar()->currentMessage()));
    QCOMPARE(panel->problem(), message); // shown by the controls too
    QCOMPARE(shown.count(), 0);
    QCOMPARE(window.panel<ImagePanel>()->currentRun().config.variant, HistogramVariant::Private);
    QCOMPARE(window.panel<ImagePanel>()->runSummary(), summary);
    QCOMPARE(plottedValues(*window.panel<ImagePanel>()->histogramPlot()), before);
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), MainWindow::sampleImagePath());
}

void TestRunControls::f5RunsAgain() {
    MainWindow window;
    QVERIFY(openSample(window));
    QCOMPARE(window.panel<RunPanel>()->runAgainAction()->shortcut(), QKeySequence(Qt::Key_F5));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));

    QSignalSpy shown(&window, &MainWindow::histogramShown);
    QTest::keyClick(&window, Qt::Key_F5);
    QVERIFY2(window.isBusy(), "F5 did not submit a run");
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kTimeoutMs);
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), MainWindow::sampleImagePath());

    // The button does the same.
    auto* button = window.panel<RunPanel>()->findChild<QPushButton*>();
    QVERIFY(button);
    button->click();
    QVERIFY(window.isBusy());
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, kTimeoutMs);
}

void TestRunControls::progressBarWhileRunning() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QAction* cancel = window.panel<RunPanel>()->cancelAction();
    QVERIFY(!window.panel<ImagePanel>()->progressBar()->isVisible());
    QVERIFY(!cancel->isEnabled());

    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openSample();
    QVERIFY(cancel->isEnabled());
    // The bar shows once the worker begins the analysis (at once: nothing else runs).
    QTRY_VERIFY_WITH_TIMEOUT(
        window.panel<ImagePanel>()->progressBar()->isVisible() || shown.count() == 1, kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kTimeoutMs);
    QVERIFY(!window.panel<ImagePanel>()->progressBar()->isVisible());
    QVERIFY(!cancel->isEnabled());
}

void TestRunControls::cancelKeepsPrevious_data() {
    QTest::addColumn<bool>("escape"); // else the status bar's Cancel button
    QTest::newRow("Esc") << true;
    QTest::newRow("Cancel button") << false;
}

void TestRunControls::cancelKeepsPrevious() {
    QFETCH(bool, escape);

    MainWindow window;
    QVERIFY(openSample(window));
    QVERIFY(changeAndWaitShown(window, [&window] {
        window.panel<RunPanel>()->repeatsSpin()->setValue(20); // runs the sample again
    }));
    const auto before = plottedValues(*window.panel<ImagePanel>()->histogramPlot());
    const QString summary = window.panel<ImagePanel>()->runSummary();
    QSignalSpy errors(&window, &MainWindow::errorShown);
    QSignalSpy shown(&window, &MainWindow::histogramShown);

    window.openImage(path("huge.ppm"));
    QTRY_VERIFY_WITH_TIMEOUT(window.panel<ImagePanel>()->progressBar()->isVisible(), kTimeoutMs);
    // Past loading (10 %): the histogram passes are running.
    QTRY_VERIFY_WITH_TIMEOUT(window.panel<ImagePanel>()->progressBar()->value() > 100, kTimeoutMs);
    QVERIFY2(window.isBusy(), "the large run finished before it could be cancelled");

    QElapsedTimer clock;
    clock.start();
    if (escape) {
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_Escape);
    } else {
        auto* button =
            window.statusBar()->findChild<QToolButton*>(QStringLiteral("cancelAnalysisButton"));
        QVERIFY(button);
        QVERIFY(button->isVisible());
        button->click();
    }
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 5000);
    qInfo("cancelled after %lld ms", clock.elapsed());

    QVERIFY2(window.statusBar()->currentMessage().contains(QLatin1String("cancelled")),
             qPrintable(window.statusBar()->currentMessage()));
    QVERIFY(!window.panel<ImagePanel>()->progressBar()->isVisible());
    QTest::qWait(200); // a late answer would arrive about now
    QCOMPARE(shown.count(), 0);
    QCOMPARE(errors.count(), 0);
    QVERIFY(window.lastError().isEmpty());
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), MainWindow::sampleImagePath());
    QCOMPARE(window.panel<ImagePanel>()->runSummary(), summary);
    QCOMPARE(plottedValues(*window.panel<ImagePanel>()->histogramPlot()), before);
}

void TestRunControls::rememberedDeviceRoundTrips() {
    QString name;
    {
        MainWindow window;
        QCOMPARE(window.deviceSelector(), QStringLiteral("auto")); // nothing remembered yet
        QVERIFY(waitDevices(window));
        QComboBox* combo = window.panel<RunPanel>()->deviceCombo();
        const int row = poclRow(*combo);
        QVERIFY(row > 0);
        combo->setCurrentIndex(row);
        name = QString::fromStdString(
            window.panel<RunPanel>()->devices()[std::size_t(row - 1)].info.name);
        QCOMPARE(settings().value(QStringLiteral("device")).toString(), name);
        QCOMPARE(window.deviceSelector(), combo->itemData(row).toString());
    }
    {
        MainWindow window; // restores it: by name until the list arrives, then in the combo
        QCOMPARE(window.deviceSelector(), name);
        QVERIFY(waitDevices(window));
        QComboBox* combo = window.panel<RunPanel>()->deviceCombo();
        QCOMPARE(combo->currentIndex(), poclRow(*combo));
        combo->setCurrentIndex(0); // back to auto
        QCOMPARE(settings().value(QStringLiteral("device")).toString(), QStringLiteral("auto"));
    }
    {
        MainWindow window;
        QVERIFY(waitDevices(window));
        QCOMPARE(window.panel<RunPanel>()->deviceCombo()->currentIndex(), 0);
    }
    {
        // An explicit selector (histlab --device) wins and is not remembered.
        settings().setValue(QStringLiteral("device"), name);
        MainWindow window;
        window.setDeviceSelector(QStringLiteral("auto"));
        QVERIFY(waitDevices(window));
        QCOMPARE(window.panel<RunPanel>()->deviceCombo()->currentIndex(), 0);
        QCOMPARE(window.deviceSelector(), QStringLiteral("auto"));
        QCOMPARE(settings().value(QStringLiteral("device")).toString(), name);
    }
}

// The work-group spin box goes no higher than the chosen device's largest work-group (two
// made-up devices: the panel only reads their properties).
void TestRunControls::workGroupSizeIsCappedByTheDevice() {
    histlab::ui::RunPanel panel;
    std::vector<histlab::DeviceListing> devices(2);
    devices[0].info.index = 0;
    devices[0].info.name = "Big GPU";
    devices[0].info.type = histlab::DeviceType::Gpu;
    devices[0].info.maxWorkGroupSize = 1024;
    devices[1].info.index = 1;
    devices[1].info.name = "Small CPU";
    devices[1].info.type = histlab::DeviceType::Cpu;
    devices[1].info.maxWorkGroupSize = 600; // not a power of two: 512 is the largest usable
    panel.setDevices(devices);
    QSpinBox* wg = panel.workGroupSizeSpin();
    panel.deviceCombo()->setCurrentIndex(0); // auto: the first GPU
    QCOMPARE(wg->maximum(), 1024);
    wg->setValue(1024);
    QSignalSpy changed(&panel, &histlab::ui::RunPanel::requestChanged);
    panel.deviceCombo()->setCurrentIndex(2); // the CPU
    QCOMPARE(wg->maximum(), 512);
    QCOMPARE(wg->value(), 512);   // clamped
    QCOMPARE(changed.count(), 1); // one rerun, for the device
    QCOMPARE(panel.histogramRequest().workGroupSize, 512);
    QVERIFY(wg->toolTip().contains(QStringLiteral("at most 512")));
}

// A field the variant does not use, or none of the 256-bin fields when a bin count or a method
// runs the large-bin methods, is greyed out with the reason as its tooltip, and asks nothing:
// no refusal for a value left in it.
void TestRunControls::unusedFieldsAreGreyedOut() {
    RunPanel panel;
    const auto choose = [&panel](const char* variant) {
        panel.variantCombo()->setCurrentIndex(
            panel.variantCombo()->findData(QString::fromLatin1(variant)));
    };
    panel.banksSpin()->setValue(4);
    panel.readCombo()->setCurrentIndex(panel.readCombo()->findData(QStringLiteral("coalesced")));
    choose("banked");
    QVERIFY(panel.banksSpin()->isEnabled() && panel.readCombo()->isEnabled());
    QCOMPARE(panel.histogramRequest().banks, 4);

    choose("naive");
    QVERIFY(!panel.banksSpin()->isEnabled());
    QVERIFY2(panel.banksSpin()->toolTip().startsWith(QStringLiteral("Not used: the naive variant")),
             qPrintable(panel.banksSpin()->toolTip()));
    QCOMPARE(panel.histogramRequest().banks, 0); // the 4 stays in the field, unasked
    QCOMPARE(panel.banksSpin()->value(), 4);
    choose("local");
    QVERIFY(!panel.banksSpin()->isEnabled());

    choose("cpu");
    QVERIFY(panel.banksSpin()->isEnabled());
    QVERIFY(!panel.readCombo()->isEnabled());
    QVERIFY(panel.readCombo()->toolTip().contains(QStringLiteral("reads serially")));
    QVERIFY(!panel.histogramRequest().read.has_value());
    QVERIFY(panel.loadCombo()->isEnabled() && panel.mergeCombo()->isEnabled());

    // A bin count: the large-bin methods run, no 256-bin field has a say; auto gives it back.
    panel.binsSpin()->setValue(1024);
    for (QWidget* field : std::initializer_list<QWidget*>{
             panel.variantCombo(), panel.banksSpin(), panel.groupsPerCuSpin(),
             panel.workGroupSizeSpin(), panel.readCombo(), panel.loadCombo(), panel.mergeCombo()})
        QVERIFY2(!field->isEnabled() && field->toolTip().contains(QStringLiteral("large-bin")),
                 qPrintable(field->toolTip()));
    QVERIFY(panel.methodCombo()->isEnabled() && panel.binsSpin()->isEnabled());
    panel.binsSpin()->setValue(0);
    QVERIFY(panel.variantCombo()->isEnabled() && panel.banksSpin()->isEnabled());
    QVERIFY(!panel.banksSpin()->toolTip().startsWith(QStringLiteral("Not used")));
    panel.methodCombo()->setCurrentIndex(1);
    QVERIFY(!panel.variantCombo()->isEnabled());
}

// The device serves every tab, so it is not in the Run dock, whose histogram settings show with
// the Image tab only: closing the dock (or showing another tab) leaves the device selector.
void TestRunControls::deviceSelectorOutlivesTheDock() {
    MainWindow window;
    QVERIFY(openSample(window));
    QComboBox* combo = window.panel<RunPanel>()->deviceCombo();
    auto* bar = window.findChild<QToolBar*>(QStringLiteral("deviceToolBar"));
    QVERIFY(bar);
    QVERIFY(combo->isVisible());
    QVERIFY(bar->isAncestorOf(combo));
    QVERIFY(!bar->toggleViewAction()->isEnabled()); // it cannot be hidden
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("runDock"));
    QVERIFY(dock && dock->isVisible());
    QVERIFY(!dock->isAncestorOf(combo));

    auto* tabs = window.findChild<QTabWidget*>();
    tabs->setCurrentIndex(2); // Blur: its own settings, in its left column
    QVERIFY(!dock->isVisible());
    QVERIFY(combo->isVisible());
    tabs->setCurrentIndex(0);
    QVERIFY(dock->isVisible());

    dock->close(); // its close button
    QVERIFY(!dock->isVisible());
    QVERIFY(combo->isVisible());
    tabs->setCurrentIndex(2);
    tabs->setCurrentIndex(0);
    QVERIFY2(!dock->isVisible(), "a closed dock came back by itself");
    QAction* show = nullptr;
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text() == QStringLiteral("Show Run &Panel"))
            show = action;
    QVERIFY(show && !show->isChecked());
    tabs->setCurrentIndex(2);
    show->trigger(); // shows the Image tab, where the dock is
    QCOMPARE(tabs->currentIndex(), 0);
    QVERIFY(dock->isVisible());
    QVERIFY(show->isChecked());
}

// The Image tab says what ran in plain words (what was counted, on which device, how fast,
// verified, what the speed means), with the kernel's terms on demand; the status bar does not
// carry the run.
void TestRunControls::summaryInPlainWordsOnTheImageTab() {
    MainWindow window;
    QVERIFY(openSample(window));
    RunSummary* summary = window.panel<ImagePanel>()->runSummaryPanel();
    QVERIFY(summary->isVisible());
    const RunSummary::Content& c = summary->content();
    const HistogramRun& run = window.panel<ImagePanel>()->currentRun();
    QVERIFY2(c.what.startsWith(QStringLiteral("256-bin histograms of 451 × 300 pixels (R, G, B, "
                                              "gray) · ")),
             qPrintable(c.what));
    QVERIFY2(c.what.contains(QString::fromStdString(run.device.name)), qPrintable(c.what));
    QVERIFY2(c.speed.contains(QStringLiteral(" GB/s (median of 5 runs)")), qPrintable(c.speed));
    QCOMPARE(c.check, RunSummary::Check::Verified);
    // The sample is 396 KiB: its low share of the ceiling is explained, not left to alarm.
    QVERIFY2(c.note.contains(QStringLiteral("expected for a small input (396.4 KiB)")),
             qPrintable(c.note));
    QVERIFY(!summary->detailsLabel()->isVisible());
    summary->detailsButton()->click();
    QVERIFY(summary->detailsLabel()->isVisible());
    QVERIFY2(
        summary->detailsLabel()->text().contains(QString::fromStdString(run.config.describe())),
        qPrintable(summary->detailsLabel()->text()));
    QVERIFY(summary->detailsLabel()->text().contains(QStringLiteral("read-only ceiling")));
    QVERIFY2(!window.statusBar()->currentMessage().contains(QStringLiteral("verified")),
             qPrintable(window.statusBar()->currentMessage()));
    QVERIFY(summary->text().contains(QStringLiteral("verified: the CPU counts the same")));
}

QTEST_MAIN(TestRunControls)
#include "tst_runcontrols.moc"
