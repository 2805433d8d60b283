// The Experiments tab offscreen, on PoCL with 64 KiB inputs: a small sweep grows the plot point
// by point and ends with the expected number of points, every one verified; cancel stops it;
// a run saved as JSON opens again with the same points; a saved run laid under a new one as a
// baseline draws the matching curves; exports write valid files; bad files are refused with
// the reason; the bins experiment offers its own data and bin counts and draws one curve per
// large-bin method on a log2 axis of bins.
#include "panels/experimentpanel.h"
#include "panels/runpanel.h"
#include "plots/experimentplot.h"
#include "uitestsupport.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QtTest>

#include <cmath>
#include <tuple>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

class TestExperiments : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(setUpFolder()); }
    void smallSweepGrowsThePlot();
    void cancelStopsTheSweep();
    void timeLeftFollowsThePace();
    void savedRunOpensAgainAndServesAsBaseline();
    void badFilesAreRefused();
    void imageDistributionNeedsAnImage();
    void binsDrawsACurvePerMethod();
    void emptyPlotAndHeatmapStates();
    void legendDragsWithoutPanning();
};

/// A window with the device list arrived and the tab set for a quick atomics sweep.
static ExperimentPanel* prepare(MainWindow& window, const QStringList& distributions) {
    if (!showWindow(window))
        return nullptr;
    window.tabs()->setCurrentIndex(1);
    ExperimentPanel* panel = window.panel<ExperimentPanel>();
    logProblems(panel);
    // The device list comes from the worker.
    if (!QTest::qWaitFor([&] { return panel->deviceList()->item(0)->data(Qt::UserRole).isValid(); },
                         kTimeoutMs))
        return nullptr;
    panel->experimentCombo()->setCurrentIndex(
        panel->experimentCombo()->findData(int(ExperimentKind::Atomics)));
    choose(panel->distributionList(), distributions);
    panel->sizeSpin()->setValue(0.0625); // 64 KiB
    panel->repeatsSpin()->setValue(1);
    panel->maxRepeatsSpin()->setValue(2);
    return panel;
}

void TestExperiments::smallSweepGrowsThePlot() {
    MainWindow window;
    ExperimentPanel* panel = prepare(window, {"random", "uniform"});
    QVERIFY(panel);
    QSignalSpy ended(panel, &ExperimentPanel::runEnded);
    int pointsSeenWhileRunning = 0;
    connect(panel, &ExperimentPanel::pointAdded, this, [&] {
        if (panel->isRunning())
            pointsSeenWhileRunning = panel->plot()->pointCount();
    });
    QTest::mouseClick(panel->runButton(), Qt::LeftButton);
    QVERIFY(panel->isRunning());
    QVERIFY(!panel->runButton()->isEnabled());
    QVERIFY(ended.wait(kTimeoutMs));
    // 4 variants x 2 distributions, drawn as they came (the plot grew before the end).
    QCOMPARE(panel->plot()->pointCount(), 8);
    QVERIFY2(pointsSeenWhileRunning >= 7, qPrintable(QString::number(pointsSeenWhileRunning)));
    QCOMPARE(panel->plot()->graphCount(), 2); // one curve per distribution
    QCOMPARE(panel->table()->rowCount(), 8);
    QVERIFY(panel->result().has_value());
    for (const histlab::ExperimentPoint& p : panel->result()->points)
        QCOMPARE(p.status, histlab::Status::Verified);
    QVERIFY(panel->runButton()->isEnabled());
    // A tooltip at a drawn point names its parameters.
    const QCPGraph* graph = panel->plot()->graph(0);
    const auto first = graph->data()->constBegin();
    const QPoint at(int(panel->plot()->xAxis->coordToPixel(first->key)),
                    int(panel->plot()->yAxis->coordToPixel(first->value)));
    const QString tip = panel->plot()->toolTipAt(at);
    QVERIFY2(tip.contains(QStringLiteral("variant: naive")) &&
                 tip.contains(QStringLiteral("verified")),
             qPrintable(tip));
}

void TestExperiments::cancelStopsTheSweep() {
    MainWindow window;
    ExperimentPanel* panel = prepare(window, {"random", "uniform", "skewed", "gradient"});
    QVERIFY(panel);
    panel->sizeSpin()->setValue(16); // slow enough on PoCL to cancel midway
    panel->repeatsSpin()->setValue(3);
    QSignalSpy points(panel, &ExperimentPanel::pointAdded);
    panel->startRun();
    QVERIFY(points.wait(kTimeoutMs)); // the first point
    // An image opened meanwhile waits for the sweep on the one worker, and says so.
    // The status line names the point that runs.
    QTRY_VERIFY2_WITH_TIMEOUT(panel->statusLabel()->text().contains(QStringLiteral(": point ")),
                              qPrintable(panel->statusLabel()->text()), kTimeoutMs);
    QVERIFY(panel->progressBar()->isVisible());
    // An image opened meanwhile waits for the sweep on the one worker, says so, and shows no
    // progress bar of its own until the worker begins it.
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImage(MainWindow::sampleImagePath());
    QVERIFY2(window.statusBar()->currentMessage().contains(
                 QStringLiteral("waits for the running experiment to finish")),
             qPrintable(window.statusBar()->currentMessage()));
    QTest::qWait(200);
    QVERIFY(window.isBusy());
    QVERIFY(!window.panel<ImagePanel>()->progressBar()->isVisible());
    QVERIFY(!window.statusBar()
                 ->findChild<QToolButton*>(QStringLiteral("cancelAnalysisButton"))
                 ->isVisible());
    // Esc with the Experiments tab shown cancels the sweep, not the image.
    QAction* cancel = window.panel<RunPanel>()->cancelAction();
    QVERIFY(cancel->isEnabled());
    QSignalSpy ended(panel, &ExperimentPanel::runEnded);
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(&window, Qt::Key_Escape);
    QVERIFY(ended.count() == 1 || ended.wait(kTimeoutMs));
    QVERIFY2(ended.first().first().toString().contains(QStringLiteral("cancelled")),
             qPrintable(ended.first().first().toString()));
    QVERIFY(panel->plot()->pointCount() < 16);
    QVERIFY(!panel->isRunning());
    QVERIFY(!panel->progressBar()->isVisible());
    QVERIFY(panel->runButton()->isEnabled());
    // The image's job was left alone: it runs next, and ends shown.
    QVERIFY(shown.count() == 1 || shown.wait(kTimeoutMs));
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), MainWindow::sampleImagePath());
    QVERIFY(!cancel->isEnabled());

    // A cancel from the panel's button stops its own run.
    QSignalSpy points2(panel, &ExperimentPanel::pointAdded);
    panel->startRun();
    QVERIFY(points2.wait(kTimeoutMs));
    const QString notCancelled = cancelAndWait(panel);
    QVERIFY2(notCancelled.isEmpty(), qPrintable(notCancelled));
}

void TestExperiments::timeLeftFollowsThePace() {
    QCOMPARE(timeLeftText(0.01, 60000), QString()); // too early to say
    QCOMPARE(timeLeftText(0.5, 1000), QString());
    QCOMPARE(timeLeftText(0.5, 20000), QStringLiteral("about 20 s left"));
    QCOMPARE(timeLeftText(0.25, 60000), QStringLiteral("about 3 min 0 s left"));
    QCOMPARE(timeLeftText(0.999, 5000), QStringLiteral("about 1 s left"));
    QCOMPARE(timeLeftText(1.0, 5000), QString());
}

void TestExperiments::savedRunOpensAgainAndServesAsBaseline() {
    MainWindow window;
    ExperimentPanel* panel = prepare(window, {"uniform"});
    QVERIFY(panel);
    QSignalSpy ended(panel, &ExperimentPanel::runEnded);
    panel->startRun();
    QVERIFY(ended.wait(kTimeoutMs));
    QVERIFY(panel->saveJsonTo(path("run.json")).ok);
    QVERIFY(panel->saveCsvTo(path("run.csv")).ok);
    histlab::ui::PlotExportOptions png;
    QVERIFY(panel->exportPlotTo(path("run.png"), png).ok);
    QFile image(path("run.png"));
    QVERIFY(image.open(QIODevice::ReadOnly));
    QCOMPARE(image.read(8), QByteArray("\x89PNG\r\n\x1a\n", 8));
    QFile csv(path("run.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
    QCOMPARE(csv.readAll().count('\n'), 5); // header + 4 points

    // Opened in a fresh window: the same points.
    MainWindow other;
    ExperimentPanel* reopened = prepare(other, {"uniform"});
    QVERIFY(reopened);
    QVERIFY(reopened->openRunFrom(path("run.json")).ok);
    QCOMPARE(reopened->plot()->pointCount(), 4);
    QCOMPARE(reopened->table()->rowCount(), 4);
    QCOMPARE(reopened->result()->points.size(), panel->result()->points.size());
    for (std::size_t i = 0; i < 4; ++i)
        QCOMPARE(reopened->result()->points[i].gbps, panel->result()->points[i].gbps);

    // As a baseline under a new run: its curve is drawn dashed, the CSV compares point by point.
    QVERIFY(panel->openBaselineFrom(path("run.json")).ok);
    QVERIFY(panel->plot()->hasBaseline());
    panel->startRun();
    QVERIFY(ended.wait(kTimeoutMs));
    QCOMPARE(panel->plot()->pointCount(), 4);
    QCOMPARE(panel->plot()->baselinePointCount(), 4);
    QCOMPARE(panel->plot()->graphCount(), 2);
    bool dashed = false;
    for (int i = 0; i < panel->plot()->graphCount(); ++i)
        dashed = dashed || (panel->plot()->graph(i)->pen().style() == Qt::DashLine &&
                            panel->plot()->graph(i)->name().contains(QStringLiteral("baseline")));
    QVERIFY(dashed);
    QVERIFY(panel->saveCsvTo(path("compared.csv")).ok);
    QFile compared(path("compared.csv"));
    QVERIFY(compared.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines =
        QString::fromUtf8(compared.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(
        lines.first().endsWith(QStringLiteral("baseline_device,baseline_gbps,ratio_to_baseline")));
    for (int i = 1; i < lines.size(); ++i)
        QVERIFY2(!lines[i].endsWith(QStringLiteral(",,,")), qPrintable(lines[i])); // matched
    panel->clearBaseline();
    QVERIFY(!panel->plot()->hasBaseline());
    QCOMPARE(panel->plot()->graphCount(), 1);
}

void TestExperiments::badFilesAreRefused() {
    MainWindow window;
    ExperimentPanel* panel = prepare(window, {"random"});
    QVERIFY(panel);
    QSignalSpy problems(panel, &ExperimentPanel::problem);
    QFile text(path("notes.json"));
    QVERIFY(text.open(QIODevice::WriteOnly));
    text.write("{\"something\": \"else\"}");
    text.close();
    QVERIFY(!panel->openRunFrom(path("notes.json")).ok);
    QVERIFY(!panel->openRunFrom(path("missing.json")).ok);
    QVERIFY(!panel->saveJsonTo(path("nothing.json")).ok); // nothing has run
    QCOMPARE(problems.count(), 3);
    QVERIFY(problems[0].first().toString().contains(QStringLiteral("not a HistLab experiment")));
    QVERIFY(problems[1].first().toString().contains(QStringLiteral("missing.json")));
    QVERIFY(!QFile::exists(path("nothing.json")));
}

void TestExperiments::imageDistributionNeedsAnImage() {
    MainWindow window;
    ExperimentPanel* panel = prepare(window, {"image"});
    QVERIFY(panel);
    QSignalSpy problems(panel, &ExperimentPanel::problem);
    panel->startRun();
    QCOMPARE(problems.count(), 1);
    QVERIFY(problems.first().first().toString().contains(QStringLiteral("open an image")));
    QVERIFY(!panel->isRunning());

    // With an image shown, its data is one more distribution.
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openSample();
    QVERIFY(shown.wait(kTimeoutMs));
    QSignalSpy ended(panel, &ExperimentPanel::runEnded);
    panel->startRun();
    QVERIFY(ended.wait(kTimeoutMs));
    QCOMPARE(panel->plot()->pointCount(), 4);
    for (const histlab::ExperimentPoint& p : panel->result()->points) {
        QCOMPARE(QString::fromStdString(p.distribution), QStringLiteral("image"));
        QCOMPARE(p.status, histlab::Status::Verified);
    }
}

void TestExperiments::binsDrawsACurvePerMethod() {
    MainWindow window;
    ExperimentPanel* panel = prepare(window, {"random"});
    QVERIFY(panel);
    panel->experimentCombo()->setCurrentIndex(
        panel->experimentCombo()->findData(int(ExperimentKind::Bins)));
    // Its own data (16-bit samples), its bin counts, and no cap on the repeats to set.
    QStringList data;
    for (int i = 0; i < panel->distributionList()->count(); ++i)
        data << panel->distributionList()->item(i)->text();
    QCOMPARE(data, QStringList({"random", "skewed", "smooth", "image"}));
    QCOMPARE(panel->distributionList()->checkedTexts(), QStringList({"random"})); // kept
    QVERIFY(panel->binsList()->isVisibleTo(panel));
    QCOMPARE(panel->binsList()->checkedTexts().size(), 10);
    QVERIFY(!panel->maxRepeatsSpin()->isEnabled());

    choose(panel->distributionList(), {"random", "smooth"});
    choose(panel->binsList(), {"256", "65536"});
    QSignalSpy ended(panel, &ExperimentPanel::runEnded);
    panel->startRun();
    QVERIFY(ended.wait(kTimeoutMs));
    // 7 methods x 2 bin counts x 2 distributions; one curve per method and distribution, and
    // a legend that is a key: a colour per method, a marker per distribution.
    ExperimentPlot* plot = panel->plot();
    QCOMPARE(plot->pointCount(), 28);
    for (const histlab::ExperimentPoint& p : panel->result()->points)
        QVERIFY2(p.status == histlab::Status::Verified, p.reason.c_str());
    QStringList curves, key;
    for (int i = 0; i < plot->graphCount(); ++i)
        if (!plot->graph(i)->data()->isEmpty())
            curves << plot->graph(i)->name();
    QCOMPARE(curves.size(), 14);
    QVERIFY2(curves.contains(QStringLiteral("random, multipass")) &&
                 curves.contains(QStringLiteral("smooth, private")),
             qPrintable(curves.join(QLatin1Char('|'))));
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
            key << item->plottable()->name();
    QCOMPARE(key, QStringList({"global", "local", "multipass", "local16", "runs16", "private",
                               "tagged", "random", "smooth"}));
    // A tooltip at a drawn point names its method and its samples per second.
    QCPGraph* multipass = nullptr;
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->name() == QStringLiteral("random, multipass"))
            multipass = plot->graph(i);
    QVERIFY(multipass);
    const auto first = multipass->data()->constBegin();
    const QString tip = plot->toolTipAt(QPoint(int(plot->xAxis->coordToPixel(first->key)),
                                               int(plot->yAxis->coordToPixel(first->value))));
    QVERIFY2(tip.contains(QStringLiteral("method: ")) &&
                 tip.contains(QStringLiteral("G samples/s")),
             qPrintable(tip));
    const QCPAxis* x = plot->xAxis;
    QCOMPARE(x->scaleType(), QCPAxis::stLogarithmic);
    const auto ticker = x->ticker().dynamicCast<QCPAxisTickerLog>();
    QVERIFY(ticker);
    QCOMPARE(ticker->logBase(), 2.0);
    QVERIFY(x->range().contains(256) && x->range().contains(65536));

    // Back to a 256-bin experiment: its data again, no bin counts.
    panel->experimentCombo()->setCurrentIndex(
        panel->experimentCombo()->findData(int(ExperimentKind::Atomics)));
    QVERIFY(!panel->binsList()->isVisibleTo(panel));
    QVERIFY(panel->maxRepeatsSpin()->isEnabled());
    QCOMPARE(panel->distributionList()->item(1)->text(), QStringLiteral("uniform"));
}

// Before any point: no empty legend box, and log axes with whole ticks over the experiment's
// usual span. The groups heatmap leaves cells not measured blank and spans the palette from
// zero, so that close throughputs look alike.
void TestExperiments::emptyPlotAndHeatmapStates() {
    ExperimentPlot plot;
    plot.resize(640, 480);
    for (ExperimentKind kind : {ExperimentKind::Banks, ExperimentKind::Reads,
                                ExperimentKind::Atomics, ExperimentKind::Stages}) {
        plot.reset(kind, {}, 0);
        QVERIFY(!plot.legend->visible());
        QVERIFY2(plot.xAxis->range().lower > 0 || plot.xAxis->scaleType() == QCPAxis::stLinear,
                 experimentKindName(kind));
        if (plot.xAxis->scaleType() == QCPAxis::stLogarithmic)
            QVERIFY(plot.xAxis->range().upper / plot.xAxis->range().lower > 16);
    }
    plot.reset(ExperimentKind::Bins, {}, 0);
    QVERIFY(plot.legend->visible()); // the key of the methods, before any point
    QCOMPARE(plot.xAxis->range().lower, 256 / 1.25);

    plot.reset(ExperimentKind::Banks, {}, 0);
    ExperimentPoint point;
    point.device = 0;
    point.distribution = "random";
    point.series = "banked";
    point.x = 4;
    point.gbps = 2.5;
    point.status = Status::Verified;
    plot.addPoint(point);
    QVERIFY(plot.legend->visible());

    plot.reset(ExperimentKind::Groups, {}, 0);
    QVERIFY(plot.heatmap());
    QCOMPARE(plot.heatmap()->gradient().nanHandling(), QCPColorGradient::nhTransparent);
    // The fastest cell stands out from the white plot.
    QVERIFY(QColor(plot.heatmap()->gradient().color(1.0, QCPRange(0, 1))).lightness() < 200);
    for (const auto& [wg, groups, gbps] : {std::tuple{64, 2, 0.385}, std::tuple{128, 4, 0.32}}) {
        point.x = wg;
        point.y = groups;
        point.gbps = gbps;
        plot.addPoint(point);
    }
    QCOMPARE(plot.pointCount(), 2);
    QCOMPARE(plot.heatmap()->dataRange().lower, 0.0);
    QCOMPARE(plot.heatmap()->dataRange().upper, 0.385);
    QVERIFY(std::isnan(plot.heatmap()->data()->cell(0, 0))); // 32 wide, 1 group: not measured
    QVERIFY(!plot.legend->visible());
}

// The legend, translucent over the curves, moves where it is dropped; the axes stay put.
void TestExperiments::legendDragsWithoutPanning() {
    ExperimentPlot plot;
    plot.resize(640, 480);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.reset(ExperimentKind::Banks, {}, 0);
    ExperimentPoint point;
    point.device = 0;
    point.distribution = "random";
    point.series = "banked";
    point.status = Status::Verified;
    for (double x : {1.0, 2.0, 4.0}) {
        point.x = x;
        point.gbps = x;
        plot.addPoint(point);
    }
    plot.replot();
    QVERIFY(plot.legend->visible());
    QVERIFY(plot.legend->brush().color().alpha() < 255);
    const QCPRange x = plot.xAxis->range(), y = plot.yAxis->range();
    const QRect before = plot.legend->outerRect();
    const QPoint grab = before.center();
    // Away from the corner the legend was placed in (where it covers least), across the plot.
    const QPoint centre = plot.axisRect()->rect().center();
    const QPoint away(grab.x() < centre.x() ? 150 : -150, grab.y() < centre.y() ? 150 : -150);
    const QPoint to = grab + away;
    sendMouse(&plot, QEvent::MouseButtonPress, grab, Qt::LeftButton, Qt::LeftButton);
    sendMouse(&plot, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
    sendMouse(&plot, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
    plot.replot();
    const QRect after = plot.legend->outerRect();
    QVERIFY2(std::abs(after.top() - before.top()) > 100 &&
                 std::abs(after.left() - before.left()) > 100,
             qPrintable(QStringLiteral("%1,%2 -> %3,%4")
                            .arg(before.left())
                            .arg(before.top())
                            .arg(after.left())
                            .arg(after.top())));
    QVERIFY(plot.axisRect()->rect().contains(after.adjusted(1, 1, -1, -1)));
    QCOMPARE(plot.xAxis->range(), x);
    QCOMPARE(plot.yAxis->range(), y);
}

QTEST_MAIN(TestExperiments)
#include "tst_experiments.moc"
