// The Memory tab offscreen, on PoCL: a small run (reversal of 64 KiB + 3 bytes, ceilings on
// 64 KiB, transfers up to 64 KiB) arrives live on its three pages: every reversal kernel is
// verified with every byte correct, a bar each (the reference's four in one colour, HistLab's
// in another) under the dashed copy line; the ceilings have a point per width for read and copy
// with the best width named; each transfer kind has a point per size, and the launch latency is
// shown. The pages save as JSON and CSV (reverseJson/reverseCsv, memoryJson/memoryCsv) and
// export as PNG; a save before any run is refused with a message and writes nothing; a bad
// size is refused before the run; Cancel stops a longer run.
#include "panels/memorypanel.h"
#include "uitestsupport.h"

#include <pipelines/reverse/reverse.h>
#include <pipelines/transfer/transfer.h>

#include <qcustomplot.h>

#include <QCheckBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

namespace {
constexpr std::uint64_t kReverseBytes = 65536 + 3; // not a multiple of 16 or 64: the tail
} // namespace

class TestMemoryPanel : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(setUpFolder()); }
    void saveBeforeARunIsRefused();
    void badSizeIsAProblem();
    void smallRunFillsEveryPage();
    void cancelStopsTheRun();
};

/// A window on the Memory tab (opened with Ctrl+Shift+M), every part, small sizes, one
/// timed run.
static MemoryPanel* prepare(MainWindow& window) {
    if (!showWindow(window))
        return nullptr;
    MemoryPanel* panel = openTab(window, window.panel<MemoryPanel>(),
                                 Qt::ControlModifier | Qt::ShiftModifier | Qt::Key_M);
    if (!panel)
        return nullptr;
    panel->reverseSizeEdit()->setText(QString::number(kReverseBytes));
    panel->ceilingSizeEdit()->setText(QStringLiteral("64K"));
    panel->transferMaxEdit()->setText(QStringLiteral("64 KiB"));
    panel->repeatsSpin()->setValue(1);
    for (QCheckBox* check :
         {panel->reversalCheck(), panel->ceilingsCheck(), panel->transfersCheck()})
        check->setChecked(true);
    return panel;
}

void TestMemoryPanel::saveBeforeARunIsRefused() {
    MainWindow window;
    MemoryPanel* panel = prepare(window);
    QVERIFY(panel);
    QVERIFY(!panel->saveJsonButton()->isEnabled());
    QVERIFY(!panel->saveCsvButton()->isEnabled());
    QVERIFY(QDir().mkpath(path("early")));
    QSignalSpy problems(panel, &MemoryPanel::problem);
    for (int page : {MemoryPanel::ReversalPage, MemoryPanel::TransfersPage}) {
        panel->pages()->setCurrentIndex(page);
        QVERIFY(!panel->saveJsonTo(path("early/run.json")).ok);
        QVERIFY2(panel->statusLabel()->text().contains(QStringLiteral("nothing to save")),
                 qPrintable(panel->statusLabel()->text()));
        QVERIFY(!panel->saveCsvTo(path("early/run.csv")).ok);
    }
    QCOMPARE(problems.count(), 4);
    QCOMPARE(entries(path("early")), QStringList());
}

void TestMemoryPanel::badSizeIsAProblem() {
    MainWindow window;
    MemoryPanel* panel = prepare(window);
    QVERIFY(panel);
    panel->transferMaxEdit()->setText(QStringLiteral("12 parsecs"));
    QSignalSpy problems(panel, &MemoryPanel::problem);
    panel->startRun();
    QCOMPARE(problems.count(), 1);
    QVERIFY2(problems.first().first().toString().contains(QStringLiteral("transfers up to")),
             qPrintable(problems.first().first().toString()));
    QVERIFY(!panel->isRunning());
    panel->transferMaxEdit()->setText(QStringLiteral("64K"));
    for (QCheckBox* check :
         {panel->reversalCheck(), panel->ceilingsCheck(), panel->transfersCheck()})
        check->setChecked(false);
    panel->startRun();
    QCOMPARE(problems.count(), 2);
    QVERIFY(!panel->isRunning());
}

void TestMemoryPanel::smallRunFillsEveryPage() {
    MainWindow window;
    MemoryPanel* panel = prepare(window);
    QVERIFY(panel);

    // Results arrive while the run goes on: each is drawn before the run ends.
    int whileRunning = 0;
    connect(panel, &MemoryPanel::resultAdded, panel, [&] {
        if (panel->isRunning())
            ++whileRunning;
    });
    const QString ran = watchRun(panel); // running with Cancel enabled, then idle
    QVERIFY2(ran.isEmpty(), qPrintable(ran));
    QVERIFY2(panel->result().has_value(), qPrintable(panel->statusLabel()->text()));
    const histlab::ui::MemoryLabResult& result = *panel->result();
    QVERIFY(result.reversal.has_value());
    QVERIFY(result.memory.ceilings.has_value());
    QVERIFY(result.memory.transfers.has_value());

    // Reversal: every kernel verified, every byte correct, a row and a bar each.
    const histlab::ReverseRun& reversal = *result.reversal;
    const std::size_t kernels = histlab::reverseVariants().size();
    QCOMPARE(reversal.bytes, kReverseBytes);
    QCOMPARE(reversal.results.size(), kernels);
    QVERIFY(reversal.copy.gbps > 0);
    const QTableWidget* table = panel->reverseTable();
    QCOMPARE(table->rowCount(), int(kernels));
    // The kernels are categories: no solid zero line through the first one's bar.
    QCOMPARE(panel->reversePlot()->xAxis->grid()->zeroLinePen().style(), Qt::NoPen);
    int reference = 0;
    for (int row = 0; row < table->rowCount(); ++row) {
        const ReverseResult& r = reversal.results[std::size_t(row)];
        QVERIFY2(r.status == Status::Verified, qPrintable(QString::fromStdString(r.detail)));
        QCOMPARE(r.correctBytes, kReverseBytes);
        QCOMPARE(cell(table, row, MemoryPanel::KernelColumn), QString::fromStdString(r.name));
        QCOMPARE(cell(table, row, MemoryPanel::StatusColumn), QStringLiteral("verified"));
        QCOMPARE(cell(table, row, MemoryPanel::CorrectColumn),
                 QStringLiteral("%1 of %1").arg(kReverseBytes));
        QVERIFY(cell(table, row, MemoryPanel::GbpsColumn).toDouble() > 0);
        QVERIFY(cell(table, row, MemoryPanel::PercentColumn).toDouble() > 0);
        const bool isReference = histlab::reverseVariantInfo(r.variant).reference;
        QCOMPARE(cell(table, row, MemoryPanel::ReferenceColumn).isEmpty(), !isReference);
        reference += isReference ? 1 : 0;
    }
    QCOMPARE(reference, 4);
    QCOMPARE(panel->referenceBars()->dataCount(), 4);
    QCOMPARE(panel->ownBars()->dataCount(), int(kernels) - 4);
    QVERIFY(panel->referenceBars()->brush().color() != panel->ownBars()->brush().color());
    QCPGraph* copy = panel->copyLine();
    QCOMPARE(copy->dataCount(), 2);
    QCOMPARE(copy->pen().style(), Qt::DashLine);
    QCOMPARE(copy->data()->constBegin()->value, reversal.copy.gbps);

    // Ceilings: read-only and copy at each of the five widths, the best named.
    const histlab::CeilingSweep& ceilings = *result.memory.ceilings;
    QCOMPARE(ceilings.widths.size(), std::size_t(5));
    QCOMPARE(panel->readWidthGraph()->dataCount(), 5);
    QCOMPARE(panel->copyWidthGraph()->dataCount(), 5);
    QCOMPARE(panel->readWidthGraph()->data()->constBegin()->key, 1.0);
    QCOMPARE((panel->readWidthGraph()->data()->constEnd() - 1)->key, 16.0);
    QVERIFY(ceilings.bestReadWidth > 0 && ceilings.bestCopyWidth > 0);
    QVERIFY2(panel->bestWidthLabel()->text().contains(QStringLiteral("Best width")),
             qPrintable(panel->bestWidthLabel()->text()));

    // Transfers: 4, 8, 16, 32, 64 KiB for each kind on a log2 axis; the launch latency.
    const histlab::TransferSweep& transfers = *result.memory.transfers;
    QCOMPARE(transfers.sizes.size(), std::size_t(5));
    QCOMPARE(transfers.points.size(), std::size_t(5 * 5));
    for (TransferKind kind : histlab::allTransferKinds()) {
        QCPGraph* graph = panel->transferGraph(kind);
        QVERIFY(graph);
        QCOMPARE(graph->dataCount(), 5);
        QCOMPARE(graph->data()->constBegin()->key, 4096.0);
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            QVERIFY(std::isfinite(it->value) && it->value > 0);
    }
    QCOMPARE(panel->transfersPlot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(panel->transfersPlot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(transfers.launch && transfers.launch->ran);
    const QString launch = panel->launchLabel()->text();
    QVERIFY2(launch.contains(QStringLiteral("launch latency")) &&
                 launch.contains(QStringLiteral("µs")) &&
                 launch.contains(QStringLiteral("Pinned / pageable")),
             qPrintable(launch));

    // 7 kernels, the ceilings, 25 transfer points: all drawn while the run went on.
    QCOMPARE(whileRunning, int(kernels) + 1 + 25);

    // Saving: the Reversal page writes the reversal, the others the ceilings and transfers.
    QVERIFY(panel->saveJsonButton()->isEnabled());
    panel->pages()->setCurrentIndex(MemoryPanel::ReversalPage);
    panel->setSaveFileChooser([&](QWidget*, const QString&, const QString&, const QString&) {
        return path("reverse.json");
    });
    QTest::mouseClick(panel->saveJsonButton(), Qt::LeftButton);
    const Json reverseJson = readJson(path("reverse.json"));
    QCOMPARE(reverseJson.at("results").size(), kernels);
    QCOMPARE(reverseJson.at("bytes").get<std::uint64_t>(), std::uint64_t(kReverseBytes));
    QVERIFY(panel->saveCsvTo(path("reverse.csv")).ok);
    QCOMPARE(lineCount(path("reverse.csv")), 1 + int(kernels));

    panel->pages()->setCurrentIndex(MemoryPanel::CeilingsPage);
    QVERIFY(panel->saveJsonTo(path("memory.json")).ok);
    const Json memoryJson = readJson(path("memory.json"));
    QCOMPARE(memoryJson.at("ceilings").at("widths").size(), std::size_t(5));
    QCOMPARE(memoryJson.at("transfers").at("points").size(), std::size_t(25));
    QVERIFY(memoryJson.at("launch").at("ran").get<bool>());
    QVERIFY(panel->saveCsvTo(path("memory.csv")).ok);
    // Header, read and copy per width, the transfer points, the launch.
    QCOMPARE(lineCount(path("memory.csv")), 1 + 2 * 5 + 25 + 1);

    // A save that cannot succeed: the reason, and no file (nor a temporary one).
    const QString saved = refusedSaveLeavesNothing(panel, path("fail"));
    QVERIFY2(saved.isEmpty(), qPrintable(saved));

    // The plot of the page shown exports.
    panel->pages()->setCurrentIndex(MemoryPanel::TransfersPage);
    QVERIFY(panel->exportPlotTo(path("transfers.png"), {}).ok);
    QVERIFY(!QImage(path("transfers.png")).isNull());
}

void TestMemoryPanel::cancelStopsTheRun() {
    MainWindow window;
    MemoryPanel* panel = prepare(window);
    QVERIFY(panel);
    // A larger reversal, many repeats: long enough to cancel after its first kernel.
    panel->reverseSizeEdit()->setText(QStringLiteral("4M"));
    panel->repeatsSpin()->setValue(20);
    QSignalSpy added(panel, &MemoryPanel::resultAdded);
    panel->startRun();
    QVERIFY(added.wait(kTimeoutMs));
    const QString notCancelled = cancelAndWait(panel);
    QVERIFY2(notCancelled.isEmpty(), qPrintable(notCancelled)); // and idle, Cancel disabled
    QVERIFY(!panel->result().has_value());
    QVERIFY(!panel->saveJsonButton()->isEnabled());
    const int kept = int(panel->reverseResults().size());
    QVERIFY(kept >= 1 && kept < int(histlab::reverseVariants().size()));
    QCOMPARE(panel->reverseTable()->rowCount(), kept);
    QVERIFY(panel->transferPoints().empty());
    QVERIFY(panel->statusLabel()->text().contains(QStringLiteral("cancelled")));
    QTest::qWait(100); // nothing of the cancelled run arrives after it ended
    QCOMPARE(int(panel->reverseResults().size()), kept);
}

QTEST_MAIN(TestMemoryPanel)
#include "tst_memorypanel.moc"
