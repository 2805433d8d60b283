// The Dashboard tab offscreen, on PoCL with 64 KiB inputs: the pipelines listed are the core's
// registry; Save JSON and Export CSV are disabled until a run is complete and enabled then; a run
// fills the chart bar by bar while it goes on and the table beside it, every result verified
// (the ceilings timed); the bars switch to % of the ceiling; a saved run opens
// again and, laid under the next as a baseline, adds hatched bars and a ratio of 1 for itself;
// CSV and PNG exports write valid files; a bad baseline file is refused with the reason; Cancel
// keeps the results that arrived.
#include "panels/dashboardpanel.h"
#include "plots/dashboardplot.h"
#include "uitestsupport.h"

#include <pipelines/dashboard/dashboard.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

class TestDashboardPanel : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void pipelinesComeFromTheRegistry();
    void filesCanBeSavedOnceARunIsComplete();
    void runFillsBarsAndTableLive();
    void barsShowPercentOfCeiling();
    void savedRunOpensAndServesAsBaseline();
    void exportsCsvAndPlot();
    void badBaselineIsRefused();
    void cancelKeepsWhatArrived();

private:
    /// Runs the panel as set and waits for the end; the results that arrived while it ran.
    int runToTheEnd();
    JobBridge* m_bridge = nullptr;
    DashboardPanel* m_panel = nullptr;
};

void TestDashboardPanel::initTestCase() {
    QVERIFY(setUpFolder());
    m_bridge = new JobBridge;
    m_panel = new DashboardPanel(m_bridge);
    m_panel->setErrorDialogsEnabled(false);
    logProblems(m_panel);
    m_bridge->listDevices();
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->deviceList()->item(0)->data(Qt::UserRole).isValid(),
                             kTimeoutMs);
    m_panel->sizeSpin()->setValue(0.0625); // 64 KiB
    m_panel->repeatsSpin()->setValue(1);
}

void TestDashboardPanel::cleanupTestCase() {
    delete m_panel;
    delete m_bridge;
}

int TestDashboardPanel::runToTheEnd() {
    int whileRunning = 0;
    const auto counting = connect(m_panel, &DashboardPanel::resultAdded, this, [&] {
        if (m_panel->isRunning())
            ++whileRunning;
    });
    const QString ran = watchRun(m_panel); // running with Cancel enabled, then idle
    [&] { QVERIFY2(ran.isEmpty(), qPrintable(ran)); }();
    disconnect(counting);
    return whileRunning;
}

void TestDashboardPanel::pipelinesComeFromTheRegistry() {
    const std::vector<histlab::DashboardPipeline> registered = histlab::dashboardPipelines();
    QCOMPARE(m_panel->pipelineList()->count(), int(registered.size()));
    for (int i = 0; i < m_panel->pipelineList()->count(); ++i) {
        QCOMPARE(m_panel->pipelineList()->item(i)->text(),
                 QString::fromStdString(registered[std::size_t(i)].name));
        QCOMPARE(m_panel->pipelineList()->item(i)->checkState(), Qt::Checked);
    }
    // The default device is checked: PoCL here.
    QCOMPARE(m_panel->request().devices.size(), std::size_t(1));
}

// Guards a bug seen on PoCL: after a complete run (12 results) Save JSON… and Export CSV… stayed
// greyed out, because the buttons were updated before the run was marked complete.
void TestDashboardPanel::filesCanBeSavedOnceARunIsComplete() {
    QVERIFY(!m_panel->hasCompleteRun());
    QVERIFY(!m_panel->saveJsonButton()->isEnabled());
    QVERIFY(!m_panel->saveCsvButton()->isEnabled());
    QVERIFY(!m_panel->exportPlotButton()->isEnabled());
    runToTheEnd();
    QVERIFY(m_panel->hasCompleteRun());
    QCOMPARE(int(m_panel->shownRun().results.size()), m_panel->pipelineList()->count());
    QVERIFY(m_panel->saveJsonButton()->isEnabled());
    QVERIFY(m_panel->saveCsvButton()->isEnabled());
    QVERIFY(m_panel->exportPlotButton()->isEnabled());
}

void TestDashboardPanel::runFillsBarsAndTableLive() {
    const int live = runToTheEnd();
    QVERIFY(m_panel->hasCompleteRun());
    const histlab::DashboardRun& run = m_panel->shownRun();
    const int pipelines = m_panel->pipelineList()->count();
    QCOMPARE(int(run.results.size()), pipelines);
    QVERIFY2(live >= pipelines - 1, qPrintable(QString::number(live))); // drawn as they came
    QCOMPARE(m_panel->plot()->barCount(), pipelines);
    QCOMPARE(m_panel->table()->rowCount(), pipelines);
    for (int row = 0; row < pipelines; ++row) {
        const DashboardResult& r = run.results[std::size_t(row)];
        QVERIFY2(r.status == Status::Verified || r.status == Status::Timed,
                 qPrintable(QString::fromStdString(r.pipeline + ": " + r.reason)));
        QVERIFY(r.gbps > 0);
        // Host<->device transfers have no device ceiling; everything else has one.
        QCOMPARE(r.ceilingGbps > 0, r.ceilingKind != "none");
        QCOMPARE(m_panel->table()->item(row, DashboardPanel::PipelineColumn)->text(),
                 QString::fromStdString(r.pipeline));
        QCOMPARE(m_panel->table()->item(row, DashboardPanel::StatusColumn)->text(),
                 QString::fromLatin1(histlab::statusName(r.status)));
        QVERIFY(!m_panel->table()->item(row, DashboardPanel::GbpsColumn)->text().isEmpty());
        // The ceiling's cell names the kernel of its family that won.
        if (r.ceilingGbps > 0)
            QVERIFY(m_panel->table()
                        ->item(row, DashboardPanel::CeilingColumn)
                        ->toolTip()
                        .contains(QString::fromStdString(r.ceilingKernel)));
    }
    // The device's read-only and copy ceilings, timed run for run with the pipelines: each
    // row is judged by the median of the ceiling runs of its own rounds, and the plot's title
    // names the device's ceilings over the run.
    const histlab::DashboardDevice& device = run.devices.front();
    QVERIFY(device.readCeiling.gbps > 0 && device.copyCeiling.gbps > 0);
    for (const DashboardResult& r : run.results)
        if (r.ceilingKind == "read-only" || r.ceilingKind == "copy") {
            const histlab::CeilingResult& c =
                r.ceilingKind == "copy" ? device.copyCeiling : device.readCeiling;
            QVERIFY(qFuzzyCompare(r.ceilingGbps,
                                  histlab::gbPerSecond(c.bytes, r.ceilingStats.medianMs)));
            if (r.pipeline == r.ceilingKind) // the ceiling's own row: every round of the run
                QCOMPARE(r.ceilingGbps, c.gbps);
        }
    QVERIFY2(m_panel->plot()->titleText().contains(QStringLiteral("ceilings")),
             qPrintable(m_panel->plot()->titleText()));
    // The ceiling's own bar stands at its median, as every bar does.
    QCOMPARE(run.results.front().pipeline, std::string("read-only"));
    QVERIFY(m_panel->plot()->deviceSpread(0)->data()->at(0).errorPlus >= 0);
    QVERIFY(m_panel->plot()->deviceSpread(0)->data()->at(0).errorMinus >= 0);
    // Each bar stands at its pipeline's place with its GB/s (its median).
    const QCPBars* bars = m_panel->plot()->deviceBars(0);
    QVERIFY(bars);
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
        const DashboardResult& r = run.results[std::size_t(it->key) - 1];
        QCOMPARE(it->value, r.gbps);
    }
    QVERIFY(m_panel->plot()->deviceBars(0)->barsGroup() != nullptr);
    // A whisker on each bar from its slowest run to its fastest: the bytes over each run time.
    const QCPErrorBars* spread = m_panel->plot()->deviceSpread(0);
    QVERIFY(spread);
    QCOMPARE(spread->dataCount(), bars->dataCount());
    for (int i = 0; i < spread->dataCount(); ++i) {
        const DashboardResult& r =
            run.results[std::size_t((bars->data()->constBegin() + i)->key) - 1];
        const double value = (bars->data()->constBegin() + i)->value;
        QVERIFY(spread->data()->at(i).errorMinus >= 0 && spread->data()->at(i).errorPlus >= 0);
        QVERIFY(qFuzzyCompare(value + spread->data()->at(i).errorPlus,
                              histlab::gbPerSecond(r.bytes, r.stats.minMs)));
        QVERIFY(qFuzzyCompare(value - spread->data()->at(i).errorMinus,
                              histlab::gbPerSecond(r.bytes, r.stats.maxMs)));
    }
    QVERIFY(m_panel->plot()->yAxis->range().upper >=
            (bars->data()->constBegin())->value + spread->data()->at(0).errorPlus);
    // Hovering the first bar names it.
    const auto first = bars->data()->constBegin();
    m_panel->plot()->resize(640, 420);
    m_panel->plot()->replot();
    const QPoint hover(int(m_panel->plot()->xAxis->coordToPixel(first->key)),
                       int(m_panel->plot()->yAxis->coordToPixel(first->value / 2)));
    QVERIFY2(m_panel->plot()->toolTipAt(hover).contains(
                 QString::fromStdString(run.results[std::size_t(first->key) - 1].pipeline)),
             qPrintable(m_panel->plot()->toolTipAt(hover)));
    QVERIFY(m_panel->plot()->toolTipAt(hover).contains(QStringLiteral("runs from")));
}

void TestDashboardPanel::barsShowPercentOfCeiling() {
    QVERIFY(m_panel->hasCompleteRun());
    m_panel->measureCombo()->setCurrentIndex(1); // % of ceiling
    QCOMPARE(m_panel->plot()->measure(), DashboardPlot::Measure::PercentOfCeiling);
    const histlab::DashboardRun& run = m_panel->shownRun();
    const QCPBars* bars = m_panel->plot()->deviceBars(0);
    QCOMPARE(bars->data()->size(), int(run.results.size()));
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
        const DashboardResult& r = run.results[std::size_t(it->key) - 1];
        QCOMPARE(it->value, r.percentOfCeiling);
        if (r.pipeline == "read-only" || r.pipeline == "copy")
            QCOMPARE(it->value, 100.0); // the ceiling is its own 100 %
    }
    m_panel->measureCombo()->setCurrentIndex(0);
    QCOMPARE(m_panel->plot()->measure(), DashboardPlot::Measure::Gbps);
}

void TestDashboardPanel::savedRunOpensAndServesAsBaseline() {
    QVERIFY(m_panel->hasCompleteRun());
    const histlab::DashboardRun saved = m_panel->shownRun();
    const QString file = path("run.json");
    QVERIFY(m_panel->saveJsonTo(file).ok);
    QVERIFY(QFile::exists(file));

    QVERIFY(m_panel->openRunFrom(file).ok);
    QCOMPARE(m_panel->shownRun().date, saved.date);
    QCOMPARE(m_panel->shownRun().results.size(), saved.results.size());
    QCOMPARE(m_panel->plot()->barCount(), int(saved.results.size()));

    // The run as its own baseline: a hatched bar beside each, and a ratio of 1.
    QVERIFY(m_panel->openBaselineFrom(file).ok);
    QVERIFY(m_panel->plot()->hasBaseline());
    QCOMPARE(m_panel->plot()->baselineBarCount(), int(saved.results.size()));
    QCOMPARE(m_panel->plot()->baselineBars(0)->brush().style(), Qt::BDiagPattern);
    for (int row = 0; row < m_panel->table()->rowCount(); ++row)
        QCOMPARE(m_panel->table()->item(row, DashboardPanel::RatioColumn)->text(),
                 QStringLiteral("×1.00"));
    m_panel->clearBaseline();
    QCOMPARE(m_panel->plot()->baselineBarCount(), 0);
    QVERIFY(m_panel->table()->item(0, DashboardPanel::RatioColumn)->text().isEmpty());
    QVERIFY(m_panel->openBaselineFrom(file).ok); // kept for the exports
}

void TestDashboardPanel::exportsCsvAndPlot() {
    QVERIFY(m_panel->hasCompleteRun());
    const QString csv = path("run.csv");
    QVERIFY(m_panel->saveCsvTo(csv).ok);
    QFile in(csv);
    QVERIFY(in.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(in.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), int(m_panel->shownRun().results.size()) + 1);
    QVERIFY(lines.first().startsWith(QStringLiteral("date,device,driver,pipeline,")));
    QVERIFY(lines.first().endsWith(QStringLiteral(",ratio_to_baseline")));
    for (int i = 1; i < lines.size(); ++i)
        QVERIFY2(lines[i].endsWith(QStringLiteral(",1")), qPrintable(lines[i]));

    histlab::ui::PlotExportOptions options;
    options.width = 640;
    options.height = 420;
    const QString png = path("run.png");
    QVERIFY(m_panel->exportPlotTo(png, options).ok);
    const QImage image(png);
    QCOMPARE(image.size(), QSize(640, 420));
}

void TestDashboardPanel::badBaselineIsRefused() {
    const QString bad = path("bad.json");
    {
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("{\"histlab_experiment\": 1}");
    }
    QSignalSpy problems(m_panel, &DashboardPanel::problem);
    const histlab::ui::ExportResult result = m_panel->openBaselineFrom(bad);
    QVERIFY(!result.ok);
    QVERIFY2(result.message.contains(QStringLiteral("not a HistLab dashboard file")),
             qPrintable(result.message));
    QCOMPARE(problems.count(), 1);
    QVERIFY(m_panel->baseline().has_value()); // the one before stays
    QVERIFY(!m_panel->openRunFrom(path("missing.json")).ok);
}

void TestDashboardPanel::cancelKeepsWhatArrived() {
    m_panel->sizeSpin()->setValue(16); // long enough to cancel on the way
    m_panel->repeatsSpin()->setValue(3);
    QSignalSpy ended(m_panel, &DashboardPanel::runEnded);
    connect(m_panel, &DashboardPanel::resultAdded, m_panel, &DashboardPanel::cancelRun,
            Qt::SingleShotConnection);
    QTest::mouseClick(m_panel->runButton(), Qt::LeftButton);
    QVERIFY(ended.wait(kTimeoutMs));
    QVERIFY2(ended.first().first().toString().contains(QStringLiteral("cancelled")),
             qPrintable(ended.first().first().toString()));
    QVERIFY(!m_panel->hasCompleteRun());
    QVERIFY(!m_panel->shownRun().results.empty());
    QCOMPARE(m_panel->plot()->barCount(), int(m_panel->shownRun().results.size()));
    QVERIFY(int(m_panel->shownRun().results.size()) < m_panel->pipelineList()->count());
}

QTEST_MAIN(TestDashboardPanel)
#include "tst_dashboardpanel.moc"
