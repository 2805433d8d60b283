// The Equalize tab offscreen, on PoCL: the image the window shows equalized on the device equals
// equalizeReference byte for byte (8-bit gray, 8-bit RGB through its luma, 16-bit gray with
// 65,536 bins); the stage table is filled and says verified; the plot holds the histogram
// before and after and their CDFs (in % on the right axis); Save Result writes the full-depth
// output and it reloads equal, Export Plot and Export CSV write their files, and a save that
// cannot succeed says why and leaves no file; a run that fails says why in the tab.
#include "bridge/logging.h"
#include "panels/equalizepanel.h"
#include "uitestsupport.h"
#include "views/compareview.h"

#include <pipelines/equalize/equalize.h>

#include <qcustomplot.h>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

#include <cmath>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

class TestEqualizePanel : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase();
    void withoutAnImageRunIsDisabled();
    void equalsReference_data();
    void equalsReference();
    void ctrlEnterRunsInTheTab();
    void saveAndExportsWriteFiles();
    void failedSaveSaysWhyAndLeavesNoFile();
    void failedRunSaysWhyInTheTab();
};

/// A window showing `image`, on the Equalize tab (opened with Ctrl+Shift+E), two timed
/// runs.
static EqualizePanel* prepare(MainWindow& window, const QString& image) {
    EqualizePanel* panel = showWindow(window, image)
                               ? openTab(window, window.panel<EqualizePanel>(),
                                         Qt::ControlModifier | Qt::ShiftModifier | Qt::Key_E)
                               : nullptr;
    if (panel)
        panel->repeatsSpin()->setValue(2);
    return panel;
}

void TestEqualizePanel::initTestCase() {
    QVERIFY(setUpFolder());
}

void TestEqualizePanel::withoutAnImageRunIsDisabled() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    EqualizePanel* panel = window.panel<EqualizePanel>();
    QVERIFY(!panel->runButton()->isEnabled());
    QVERIFY(!panel->saveResultButton()->isEnabled());
    QVERIFY(!panel->exportPlotButton()->isEnabled());
    QSignalSpy problems(panel, &EqualizePanel::problem);
    panel->startRun();
    QCOMPARE(problems.count(), 1);
    QVERIFY(!panel->isRunning());
    QVERIFY(panel->compareView()->placeholder().contains(QStringLiteral("Open an image")));
    QVERIFY(!panel->plot()->legend->visible()); // no key over an empty plot
}

void TestEqualizePanel::equalsReference_data() {
    QTest::addColumn<QString>("image");
    QTest::addColumn<int>("bins");
    QTest::newRow("gray8") << "gray8.png" << 256;
    QTest::newRow("rgb8 (luma)") << "rgb8.png" << 256;
    QTest::newRow("gray16") << "gray16.png" << 65536;
}

void TestEqualizePanel::equalsReference() {
    QFETCH(QString, image);
    QFETCH(int, bins);
    MainWindow window;
    EqualizePanel* panel = prepare(window, fixture(image));
    QVERIFY(panel);
    QVERIFY(panel->runButton()->isEnabled());
    QVERIFY(runToEnd(panel));
    QVERIFY(panel->result().has_value());
    QVERIFY(!panel->isRunning());

    // The output is the CPU reference's, byte for byte.
    const HostImage input = load(fixture(image));
    const HostImage reference = histlab::equalizeReference(input);
    const histlab::EqualizeRun& r = panel->result()->run;
    QCOMPARE(r.output.width, input.width);
    QCOMPARE(r.output.height, input.height);
    QCOMPARE(r.output.channels, input.channels);
    QCOMPARE(r.output.depth, input.depth);
    QVERIFY(r.output.data == reference.data);
    QVERIFY(r.verified);
    QCOMPARE(r.bins, bins);

    // The stage table: every stage timed, the apply pass's GB/s, verified in green.
    const QTableWidget* table = panel->timingsTable();
    QCOMPARE(table->rowCount(), int(EqualizePanel::RowCount));
    const QStringList stages = {"histogram", "cdf", "lut", "apply", "total"};
    for (int row = 0; row < EqualizePanel::RowCount; ++row) {
        QCOMPARE(cell(table, row, EqualizePanel::StageColumn), stages[row]);
        bool ok = false;
        QVERIFY(cell(table, row, EqualizePanel::MedianColumn).toDouble(&ok) >= 0 && ok);
        QVERIFY(cell(table, row, EqualizePanel::MinColumn).toDouble(&ok) >= 0 && ok);
    }
    QVERIFY(cell(table, EqualizePanel::ApplyRow, EqualizePanel::GbpsColumn).toDouble() > 0);
    // The stages' tooltips name what ran: the gather always, the histogram kernel for 8-bit.
    const QString applyTip =
        table->item(EqualizePanel::ApplyRow, EqualizePanel::StageColumn)->toolTip();
    QVERIFY2(applyTip.contains(QStringLiteral("\nran: lut=")), qPrintable(applyTip));
    QCOMPARE(applyTip.count(QStringLiteral("ran: ")), 1); // replaced on each run, not appended
    const QString histogramTip =
        table->item(EqualizePanel::HistogramRow, EqualizePanel::StageColumn)->toolTip();
    QCOMPARE(histogramTip.contains(QStringLiteral("\nran: ")), input.depth == 8);
    QVERIFY(panel->verifiedLabel()->text().startsWith(QStringLiteral("verified")));
    QVERIFY(!panel->statusLabel()->styleSheet().contains(QStringLiteral("c00000")));

    // The plot: before and after, each with its CDF in % of the pixels on the right axis.
    const QCustomPlot* plot = panel->plot();
    QCPGraph* cdf = panel->cdfGraph(false);
    QVERIFY(cdf);
    QCOMPARE(cdf->valueAxis(), plot->yAxis2);
    QVERIFY(plot->legend->visible());
    QVERIFY(cdf->name().contains(QStringLiteral("CDF")));
    QCOMPARE(cdf->dataCount(), bins);
    QCOMPARE((cdf->data()->constEnd() - 1)->value, 100.0);
    QCOMPARE(panel->cdfGraph(true)->dataCount(), bins);
    double before = 0, after = 0;
    for (auto it = panel->histogramGraph(false)->data()->constBegin();
         it != panel->histogramGraph(false)->data()->constEnd(); ++it)
        before += it->value;
    for (auto it = panel->histogramGraph(true)->data()->constBegin();
         it != panel->histogramGraph(true)->data()->constEnd(); ++it)
        after += it->value;
    // Per value, in groups wide enough to bridge the values equalization leaves empty (no comb
    // hiding "before"): about 64 steps, each group's count over its width.
    const int group = EqualizePanel::afterGroup(bins);
    QCOMPARE(group, bins / 64);
    QCOMPARE(panel->histogramGraph(false)->dataCount(), bins / group);
    QCOMPARE(panel->histogramGraph(true)->dataCount(), bins / group);
    QCOMPARE(before * group, double(input.pixelCount()));
    QCOMPARE(after * group, double(input.pixelCount()));
    // Both readable: "before" a translucent area, "after" an unfilled line drawn over it, in
    // colours far apart.
    QCPGraph* beforeGraph = panel->histogramGraph(false);
    QCPGraph* afterGraph = panel->histogramGraph(true);
    QVERIFY(beforeGraph->brush().style() != Qt::NoBrush);
    QVERIFY(beforeGraph->brush().color().alpha() < 128);
    QCOMPARE(afterGraph->brush().style(), Qt::NoBrush);
    QVERIFY(afterGraph->pen().widthF() > beforeGraph->pen().widthF());
    QVERIFY(std::abs(afterGraph->pen().color().hue() - beforeGraph->pen().color().hue()) > 90);
    int beforeIndex = -1, afterIndex = -1;
    for (int i = 0; i < plot->graphCount(); ++i) {
        beforeIndex = plot->graph(i) == beforeGraph ? i : beforeIndex;
        afterIndex = plot->graph(i) == afterGraph ? i : afterIndex;
    }
    QVERIFY(afterIndex > beforeIndex);
    // The "after" histogram is that of the output's plane.
    const histlab::EqualizeTables out = histlab::equalizeTables(reference);
    QVERIFY(panel->result()->histogramAfter == out.histogram);

    // The compare view: the original against the equalized image.
    QVERIFY(!panel->compareView()->result().isNull());
    QCOMPARE(panel->compareView()->result().size(), panel->compareView()->original().size());
    QCOMPARE(panel->compareView()->imageSize(), QSize(input.width, input.height));
    QVERIFY(panel->saveResultButton()->isEnabled());
    QVERIFY(panel->exportPlotButton()->isEnabled());
    QVERIFY(panel->saveCsvButton()->isEnabled());
}

void TestEqualizePanel::ctrlEnterRunsInTheTab() {
    MainWindow window;
    EqualizePanel* panel = prepare(window, fixture(QStringLiteral("gray8.png")));
    QVERIFY(panel);
    panel->repeatsSpin()->setFocus();
    QVERIFY(QTest::qWaitFor([&] { return panel->repeatsSpin()->hasFocus(); }, 2000));
    QSignalSpy ended(panel, &EqualizePanel::runEnded);
    QTest::keyClick(panel->repeatsSpin(), Qt::Key_Return, Qt::ControlModifier);
    QVERIFY(panel->isRunning() || ended.count() > 0);
    QVERIFY(ended.count() > 0 || ended.wait(kTimeoutMs));
    QVERIFY(panel->result().has_value());
    // Ctrl+Shift+E again: back to the image.
    QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(window.tabs()->currentIndex(), 0);
}

void TestEqualizePanel::saveAndExportsWriteFiles() {
    MainWindow window;
    EqualizePanel* panel = prepare(window, fixture(QStringLiteral("gray16.png")));
    QVERIFY(panel);
    QVERIFY(runToEnd(panel));
    const HostImage& output = panel->result()->run.output;

    // Save Result through the button and the chooser: the full 16-bit output.
    QString asked;
    panel->setSaveFileChooser([&](QWidget*, const QString&, const QString& start, const QString&) {
        asked = start;
        return path("equalized.png");
    });
    QTest::mouseClick(panel->saveResultButton(), Qt::LeftButton);
    QVERIFY2(asked.endsWith(QStringLiteral("gray16-equalized.png")), qPrintable(asked));
    const HostImage reloaded = load(path("equalized.png"));
    QCOMPARE(reloaded.depth, 16);
    QCOMPARE(reloaded.width, output.width);
    QVERIFY(reloaded.data == output.data);
    QVERIFY(panel->statusLabel()->text().contains(QStringLiteral("Saved")));

    // The plot in each format, and the CSV.
    for (const QString& name :
         {QStringLiteral("plot.png"), QStringLiteral("plot.pdf"), QStringLiteral("plot.svg")}) {
        panel->setSaveFileChooser(
            [&](QWidget*, const QString&, const QString&, const QString&) { return path(name); });
        QTest::mouseClick(panel->exportPlotButton(), Qt::LeftButton);
        QVERIFY2(QFileInfo(path(name)).size() > 0, qPrintable(name));
    }
    QVERIFY(!QImage(path("plot.png")).isNull());
    QVERIFY(panel->saveCsvTo(path("hist.csv")).ok);
    QFile csv(path("hist.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines =
        QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 65536 + 1);
    QCOMPARE(lines.first(), QStringLiteral("bin,count,cdf"));
    const histlab::EqualizeRun& r = panel->result()->run;
    QCOMPARE(lines.last(), QStringLiteral("65535,%1,%2").arg(r.histogram.back()).arg(r.cdf.back()));
    QCOMPARE(qulonglong(r.cdf.back()), qulonglong(output.pixelCount()));
}

void TestEqualizePanel::failedSaveSaysWhyAndLeavesNoFile() {
    const QString dirPath = path(QStringLiteral("fail"));
    QVERIFY(QDir().mkpath(dirPath));
    const QDir dir(dirPath);
    MainWindow window;
    EqualizePanel* panel = prepare(window, fixture(QStringLiteral("rgb8.png")));
    QVERIFY(panel);
    QVERIFY(runToEnd(panel));
    panel->setErrorDialogsEnabled(true); // the message box is part of what is checked
    QSignalSpy problems(panel, &EqualizePanel::problem);
    const histlab::ui::ExportResult saved =
        panel->saveResultTo(dir.filePath(QStringLiteral("missing/equalized.png")));
    QVERIFY(!saved.ok);
    QVERIFY2(saved.message.contains(QStringLiteral("equalized.png")), qPrintable(saved.message));
    QCOMPARE(problems.count(), 1);
    QVERIFY(panel->statusLabel()->text().contains(saved.message));
    QVERIFY(panel->statusLabel()->styleSheet().contains(QStringLiteral("c00000")));
    auto* box = panel->findChild<QMessageBox*>();
    QVERIFY(box);
    QVERIFY(box->isVisible());
    QVERIFY(box->text().contains(saved.message));
    box->close();
    // The CSV likewise.
    QVERIFY(!panel->saveCsvTo(dir.filePath(QStringLiteral("missing/hist.csv"))).ok);
    // Nothing written, not even a temporary file.
    QCOMPARE(entries(dir.path()), QStringList());
}

void TestEqualizePanel::failedRunSaysWhyInTheTab() {
    // The image goes away between opening and equalizing: the run fails with the loader's
    // reason, shown in the tab's status line (in red); nothing crashes, the tab stays usable.
    QVERIFY(QFile::copy(fixture(QStringLiteral("gray8.png")), path("vanishing.png")));
    MainWindow window;
    EqualizePanel* panel = prepare(window, path("vanishing.png"));
    QVERIFY(panel);
    QVERIFY(QFile::remove(path("vanishing.png")));
    QSignalSpy problems(panel, &EqualizePanel::problem);
    QVERIFY(runToEnd(panel));
    QCOMPARE(problems.count(), 1);
    QVERIFY2(problems.first().first().toString().contains(QStringLiteral("vanishing.png")),
             qPrintable(problems.first().first().toString()));
    QVERIFY(panel->statusLabel()->styleSheet().contains(QStringLiteral("c00000")));
    QVERIFY(!panel->result().has_value());
    QVERIFY(!panel->saveResultButton()->isEnabled());
    QVERIFY(panel->runButton()->isEnabled());
}

QTEST_MAIN(TestEqualizePanel)
#include "tst_equalizepanel.moc"
