// The Scans tab offscreen, on PoCL: a small sweep (1 MiB, work-groups 16 to 256) draws its
// points as they arrive, one curve per per-segment scan and a line per whole-array scan and for
// the copy kernel; naive and blelloch are verified, wgscan (PoCL has no
// work_group_scan_exclusive_add) is shown unsupported with its reason, in italics; the plot
// exports as PNG, the run saves as JSON and CSV (and a save that cannot succeed leaves no
// file); Cancel stops a longer sweep and keeps the points that finished.
#include "panels/scanpanel.h"
#include "uitestsupport.h"

#include <pipelines/scan/scan.h>

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

class TestScanPanel : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(setUpFolder()); }
    void sweepArrivesLiveAndIsVerified();
    void noVariantIsAProblem();
    void cancelKeepsThePointsThatFinished();
};

/// A window on the Scans tab (opened with Ctrl+Shift+S), 1 MiB, one timed run per point.
static ScanPanel* prepare(MainWindow& window) {
    ScanPanel* panel = showWindow(window)
                           ? openTab(window, window.panel<ScanPanel>(),
                                     Qt::ControlModifier | Qt::ShiftModifier | Qt::Key_S)
                           : nullptr;
    if (panel) {
        panel->sizeSpin()->setValue(1);
        panel->repeatsSpin()->setValue(1);
    }
    return panel;
}

void TestScanPanel::sweepArrivesLiveAndIsVerified() {
    MainWindow window;
    ScanPanel* panel = prepare(window);
    QVERIFY(panel);
    choose(panel->minWorkGroupCombo(), QStringLiteral("16"));
    choose(panel->maxWorkGroupCombo(), QStringLiteral("256"));
    for (ScanVariant v : histlab::allScanVariants())
        panel->variantCheck(v)->setChecked(true);

    // Points arrive while the run goes on: each one is in the plot before the run ends.
    int whileRunning = 0;
    connect(panel, &ScanPanel::pointAdded, panel, [&](const ScanPoint&) {
        if (panel->isRunning())
            ++whileRunning;
    });
    QSignalSpy points(panel, &ScanPanel::pointAdded);
    const QString ran = watchRun(panel); // running with Cancel enabled, then idle
    QVERIFY2(ran.isEmpty(), qPrintable(ran));
    QVERIFY(panel->result().has_value());
    const histlab::ScanRun& run = panel->result()->run;

    // 16, 32, 64, 128, 256 for each per-segment scan; one point per whole-array scan.
    const std::vector<std::size_t> sizes = {16, 32, 64, 128, 256};
    QCOMPARE(panel->result()->plan.workGroupSizes, sizes);
    QCOMPARE(run.points.size(), std::size_t(3 * 5 + 2));
    QCOMPARE(points.count(), 17);
    QCOMPARE(whileRunning, 17);
    QCOMPARE(run.elements, std::size_t(1) << 18);
    QVERIFY(run.copy.gbps > 0);

    const QTableWidget* table = panel->pointsTable();
    QCOMPARE(table->rowCount(), 17);
    for (int row = 0; row < table->rowCount(); ++row) {
        const ScanPoint& p = run.points[std::size_t(row)];
        QCOMPARE(cell(table, row, ScanPanel::VariantColumn),
                 QString::fromLatin1(histlab::scanVariantName(p.variant)));
        QCOMPARE(cell(table, row, ScanPanel::StatusColumn),
                 QString::fromLatin1(statusName(p.status)));
        switch (p.variant) {
        case ScanVariant::Naive:
        case ScanVariant::Blelloch:
        case ScanVariant::ReduceThenScan:
        case ScanVariant::Lookback:
            QVERIFY2(p.status == Status::Verified,
                     qPrintable(QString::fromLatin1(statusName(p.status)) + QStringLiteral(": ") +
                                QString::fromStdString(p.detail)));
            QVERIFY(cell(table, row, ScanPanel::GbpsColumn).toDouble() > 0);
            QVERIFY(cell(table, row, ScanPanel::PercentColumn).toDouble() > 0);
            break;
        case ScanVariant::WgScan:
            // PoCL 3.1 has no work_group_scan_exclusive_add: unsupported, with the reason, in
            // italics; never replaced by another variant.
            QCOMPARE(p.status, Status::Unsupported);
            QVERIFY(!cell(table, row, ScanPanel::DetailColumn).isEmpty());
            QVERIFY(table->item(row, ScanPanel::StatusColumn)->font().italic());
            QVERIFY(cell(table, row, ScanPanel::GbpsColumn).isEmpty());
            break;
        case ScanVariant::Auto:
            QFAIL("auto is never a point");
        }
    }

    // The figure: a curve per per-segment scan over the sizes, a level for each whole-array
    // scan and for the copy kernel (dashed), on a log2 axis.
    QCOMPARE(panel->plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(panel->variantGraph(ScanVariant::Naive)->dataCount(), 5);
    QCOMPARE(panel->variantGraph(ScanVariant::Blelloch)->dataCount(), 5);
    QCOMPARE(panel->variantGraph(ScanVariant::WgScan)->dataCount(), 0);
    QVERIFY(
        panel->variantGraph(ScanVariant::WgScan)->name().contains(QStringLiteral("unsupported")));
    QCOMPARE(panel->variantGraph(ScanVariant::Naive)->data()->constBegin()->key, 16.0);
    QCOMPARE(panel->variantGraph(ScanVariant::Lookback)->dataCount(), 2);
    QCOMPARE(panel->variantGraph(ScanVariant::ReduceThenScan)->dataCount(), 2);
    QCPGraph* copy = panel->copyGraph();
    QCOMPARE(copy->dataCount(), 2);
    QCOMPARE(copy->pen().style(), Qt::DashLine);
    QCOMPARE(copy->data()->constBegin()->value, run.copy.gbps);
    QVERIFY(panel->plot()->yAxis->range().upper >= run.copy.gbps);

    // Export the plot and save the run.
    QVERIFY(panel->exportPlotTo(path("scans.png"), {}).ok);
    QVERIFY(!QImage(path("scans.png")).isNull());
    panel->setSaveFileChooser(
        [&](QWidget*, const QString&, const QString&, const QString&) { return path("run.json"); });
    QTest::mouseClick(panel->saveJsonButton(), Qt::LeftButton);
    QVERIFY(QFile::exists(path("run.json")));
    QCOMPARE(readJson(path("run.json")).at("points").size(), std::size_t(17));
    QVERIFY(panel->saveCsvTo(path("run.csv")).ok);
    QCOMPARE(lineCount(path("run.csv")), 18);

    // A save that cannot succeed: the reason, and no file (nor a temporary one).
    const QString saved = refusedSaveLeavesNothing(panel, path("fail"));
    QVERIFY2(saved.isEmpty(), qPrintable(saved));
}

void TestScanPanel::noVariantIsAProblem() {
    MainWindow window;
    ScanPanel* panel = prepare(window);
    QVERIFY(panel);
    for (ScanVariant v : histlab::allScanVariants())
        panel->variantCheck(v)->setChecked(false);
    QSignalSpy problems(panel, &ScanPanel::problem);
    panel->startRun();
    QCOMPARE(problems.count(), 1);
    QVERIFY(!panel->isRunning());
    QVERIFY(!panel->saveJsonButton()->isEnabled());
}

void TestScanPanel::cancelKeepsThePointsThatFinished() {
    MainWindow window;
    ScanPanel* panel = prepare(window);
    QVERIFY(panel);
    // Every size up to the device's maximum, 4 MiB, many repeats: long enough to cancel.
    panel->sizeSpin()->setValue(4);
    panel->repeatsSpin()->setValue(20);
    choose(panel->minWorkGroupCombo(), QStringLiteral("16"));
    choose(panel->maxWorkGroupCombo(), QStringLiteral("device max"));
    for (ScanVariant v : histlab::allScanVariants())
        panel->variantCheck(v)->setChecked(v != ScanVariant::WgScan);
    QSignalSpy points(panel, &ScanPanel::pointAdded);
    panel->startRun();
    QVERIFY(points.wait(kTimeoutMs));
    const QString notCancelled = cancelAndWait(panel);
    QVERIFY2(notCancelled.isEmpty(), qPrintable(notCancelled)); // and idle, Cancel disabled
    QVERIFY(!panel->result().has_value());
    QVERIFY(!panel->saveJsonButton()->isEnabled());
    const int kept = int(panel->points().size());
    QVERIFY(kept >= 1);
    QCOMPARE(panel->pointsTable()->rowCount(), kept);
    QVERIFY(panel->statusLabel()->text().contains(QStringLiteral("cancelled")));
    QTest::qWait(100); // nothing of the cancelled run arrives after it ended
    QCOMPARE(int(panel->points().size()), kept);
}

QTEST_MAIN(TestScanPanel)
#include "tst_scanpanel.moc"
