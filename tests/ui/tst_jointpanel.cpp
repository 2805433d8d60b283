// The Joint tab offscreen, on PoCL: two 8-bit images of the Images list give a heat map whose
// cells are the core's counts (empty cells transparent on a logarithmic colour scale), marginals
// equal to the core's, entropies and MI as the core computes them, a row per method; the CSV
// export is jointCsv (its header first), the JSON jointJson, the plot exports. Two channels of
// one image with a mask leave the masked pairs out. A request the core refuses (images of
// different sizes, a mask of another size or with three channels, a channel an image lacks)
// shows its reason in red, naming the files, and the previous result stays.
#include "panels/jointpanel.h"
#include "plots/jointplot.h"
#include "uitestsupport.h"
#include "window/mainwindow.h"

#include <pipelines/largebin/jointrun.h>

#include <qcustomplot.h>

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>

#include <cmath>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

class TestJointPanel : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase();
    void heatMapNumbersAndFilesEqualTheCore();
    void twoChannelsOfOneImageWithAMask();
    void refusedRequestKeepsThePreviousResult_data();
    void refusedRequestKeepsThePreviousResult();
    void defaultPairIsTwoChannelsOfTheImageShown();

private:
    /// A window showing the Joint tab (Ctrl+J) with every fixture in its Images list, one
    /// timed run per method.
    JointPanel* prepare(MainWindow& window);
    QStringList m_images;
};

void TestJointPanel::initTestCase() {
    QVERIFY(setUpFolder());
    // a: spread 8-bit values; b: a function of a and x (so MI is high but not H(A)); rgb:
    // three channels of the same size; small: another size; mask: zero on the left half.
    const QImage a = makeImage(64, 48, QImage::Format_Grayscale8);
    QImage b(64, 48, QImage::Format_Grayscale8);
    QImage mask(64, 48, QImage::Format_Grayscale8);
    for (int y = 0; y < 48; ++y)
        for (int x = 0; x < 64; ++x) {
            b.scanLine(y)[x] = uchar((a.constScanLine(y)[x] / 2 + x) & 0xFF);
            mask.scanLine(y)[x] = x < 32 ? 0 : 255;
        }
    const QList<QPair<QString, QImage>> images = {
        {QStringLiteral("a.png"), a},
        {QStringLiteral("b.png"), b},
        {QStringLiteral("rgb.png"), makeImage(64, 48, QImage::Format_RGB888)},
        {QStringLiteral("small.png"), makeImage(32, 32, QImage::Format_Grayscale8)},
        {QStringLiteral("mask.png"), mask}};
    for (const auto& [name, image] : images) {
        QVERIFY(image.save(path(name)));
        m_images << path(name);
    }
}

JointPanel* TestJointPanel::prepare(MainWindow& window) {
    if (!showWindow(window))
        return nullptr;
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImages(m_images);
    if (!shown.wait(kTimeoutMs))
        return nullptr;
    JointPanel* panel =
        openTab(window, window.panel<JointPanel>(), Qt::ControlModifier | Qt::Key_J);
    if (panel) {
        // The controls a previous test function left in the settings.
        panel->channelACombo()->setCurrentIndex(0); // gray
        panel->channelBCombo()->setCurrentIndex(0);
        panel->repeatsSpin()->setValue(1);
    }
    return panel;
}

/// The combo box's item for `path` chosen (the test fails if there is none).
static void choosePath(QComboBox* combo, const QString& path) {
    const int index = combo->findData(path);
    QVERIFY2(index >= 0, qPrintable(path));
    combo->setCurrentIndex(index);
}

static QString fileText(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

/// Every cell of the map against the core's counts: the count, or NaN (transparent) for 0.
static QString mapDiffers(JointPlot* plot, const JointHistogram& h) {
    QCPColorMapData* data = plot->colorMap()->data();
    if (data->keySize() != h.binsA || data->valueSize() != h.binsB)
        return QStringLiteral("the map is %1 x %2").arg(data->keySize()).arg(data->valueSize());
    for (int i = 0; i < h.binsA; ++i)
        for (int j = 0; j < h.binsB; ++j) {
            const std::uint64_t count = h.counts[std::size_t(i) * std::size_t(h.binsB) + j];
            const double shown = data->cell(i, j);
            if (count == 0 ? !std::isnan(shown) : shown != double(count))
                return QStringLiteral("cell (%1, %2): %3, the core counts %4")
                    .arg(i)
                    .arg(j)
                    .arg(shown)
                    .arg(count);
        }
    return {};
}

static QList<double> graphValues(const QCPGraph* graph) {
    QList<double> values;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        values << it->value;
    return values;
}

static QList<double> asDoubles(const std::vector<std::uint64_t>& counts) {
    QList<double> values;
    for (std::uint64_t c : counts)
        values << double(c);
    return values;
}

static QString bits(double v) {
    return QString::number(v, 'f', 6) + QStringLiteral(" bits");
}

void TestJointPanel::heatMapNumbersAndFilesEqualTheCore() {
    MainWindow window;
    JointPanel* panel = prepare(window);
    QVERIFY(panel);
    // Every image of the list is a choice; A and B start as the image shown (a.png, gray:
    // against itself), no mask.
    QCOMPARE(panel->imageACombo()->count(), m_images.size());
    QCOMPARE(panel->maskCombo()->count(), m_images.size() + 1);
    QCOMPARE(panel->imageACombo()->currentData().toString(), m_images[0]);
    QCOMPARE(panel->imageBCombo()->currentData().toString(), m_images[0]);
    choosePath(panel->imageBCombo(), m_images[1]);
    QCOMPARE(panel->maskCombo()->currentText(), QStringLiteral("none"));
    // The methods are the core's: auto, each joint method, all.
    QCOMPARE(panel->methodCombo()->count(), int(jointMethods().size()) + 2);
    choose(panel->binsACombo(), QStringLiteral("64"));
    choose(panel->binsBCombo(), QStringLiteral("32"));
    choose(panel->methodCombo(), QStringLiteral("all"));
    const QString ran = watchRun(panel); // running with Cancel enabled, then idle
    QVERIFY2(ran.isEmpty(), qPrintable(ran));
    QVERIFY2(panel->result().has_value(), qPrintable(panel->statusLabel()->text()));
    const JointRun& run = panel->result()->run;

    // The core's own reference of the same files, computed here.
    const HostImage a = load(m_images[0]), b = load(m_images[1]);
    const JointRequest request = makeJointRequest(a, b, "gray", "gray", {64, 32}, std::nullopt,
                                                  std::nullopt, nullptr, {LargeBinMethod::Auto}, 1);
    const JointHistogram expected = jointHistogramReference(request.a, request.b, request.spec);
    const MutualInformation mi = mutualInformation(expected);
    QCOMPARE(run.histogram.counts, expected.counts);
    QCOMPARE(expected.counted(), std::uint64_t(64 * 48));

    // The heat map: every cell is the core's count (0 transparent), on a log colour scale.
    JointPlot* plot = panel->plot();
    const QString differs = mapDiffers(plot, expected);
    QVERIFY2(differs.isEmpty(), qPrintable(differs));

    // Colocalisation: the core's reference of the same planes, verified on the device, in the
    // labels; Costes' line and thresholds drawn on the map in sample values.
    const Colocalisation coloc =
        colocalisationReference(request.a, request.b, request.spec, request.mask);
    QVERIFY(coloc.computed);
    QVERIFY(!std::isnan(coloc.thresholdA));
    QCOMPARE(run.colocStatus, Status::Verified);
    QCOMPARE(run.coloc.pearson, coloc.pearson);
    QCOMPARE(run.coloc.thresholdA, coloc.thresholdA);
    QVERIFY2(panel->pearsonLabel()->text().startsWith(JointPanel::numberText(coloc.pearson) +
                                                      QStringLiteral(" (below ")),
             qPrintable(panel->pearsonLabel()->text()));
    QCOMPARE(panel->mandersLabel()->text(), JointPanel::numberText(coloc.m1) +
                                                QStringLiteral(", ") +
                                                JointPanel::numberText(coloc.m2));
    QCOMPARE(panel->thresholdedMandersLabel()->text(), JointPanel::numberText(coloc.tm1) +
                                                           QStringLiteral(", ") +
                                                           JointPanel::numberText(coloc.tm2));
    QVERIFY2(panel->thresholdsLabel()->text().startsWith(QStringLiteral("A %1, B %2 · b = ")
                                                             .arg(qlonglong(coloc.thresholdA))
                                                             .arg(qlonglong(coloc.thresholdB))),
             qPrintable(panel->thresholdsLabel()->text()));
    QCOMPARE(panel->icqLabel()->text(), JointPanel::numberText(coloc.icq));
    QCOMPARE(panel->colocStatusLabel()->text(), QStringLiteral("verified"));
    QVERIFY(plot->regressionLine()->visible());
    QCOMPARE(plot->thresholdALine()->point1->coords().x(), coloc.thresholdA);
    QCOMPARE(plot->thresholdBLine()->point1->coords().y(), coloc.thresholdB);
    const QPointF p1 = plot->regressionLine()->point1->coords(),
                  p2 = plot->regressionLine()->point2->coords();
    QVERIFY(std::fabs((p2.y() - p1.y()) / (p2.x() - p1.x()) - coloc.slope) < 1e-9);
    QVERIFY2(plot->titleText().contains(QStringLiteral("Pearson's r ") +
                                        JointPanel::numberText(coloc.pearson)),
             qPrintable(plot->titleText()));
    QCOMPARE(plot->colorScale()->dataScaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(plot->colorMap()->colorScale(), plot->colorScale());
    QCOMPARE(plot->colorMap()->dataRange().lower, 1.0);
    const std::uint64_t fullest = *std::max_element(expected.counts.begin(), expected.counts.end());
    QVERIFY(plot->colorMap()->dataRange().upper >= double(fullest));
    QCOMPARE(plot->colorMap()->gradient().nanHandling(), QCPColorGradient::nhTransparent);
    // The marginals along the map's axes, the axes named after what they count.
    QCOMPARE(graphValues(plot->marginalA()), asDoubles(expected.marginalA()));
    QCOMPARE(graphValues(plot->marginalB()), asDoubles(expected.marginalB()));
    QVERIFY(plot->marginalA()->keyAxis()->range() == plot->xAxis->range());
    QVERIFY(plot->marginalB()->keyAxis()->range() == plot->yAxis->range());
    QCOMPARE(plot->xAxis->label(), QStringLiteral("A: a.png gray"));
    QCOMPARE(plot->yAxis->label(), QStringLiteral("B: b.png gray"));
    QVERIFY(plot->toolTipText(0, 0).contains(QStringLiteral("A bin 0 [0, 4)")));
    QVERIFY(plot->toolTipText(64, 0).isEmpty());

    // The numbers are the core's.
    QCOMPARE(panel->entropyALabel()->text(), bits(mi.entropyA));
    QCOMPARE(panel->entropyBLabel()->text(), bits(mi.entropyB));
    QCOMPARE(panel->jointEntropyLabel()->text(), bits(mi.jointEntropy));
    QCOMPARE(panel->miLabel()->text(), bits(mi.mi));
    QVERIFY(mi.mi > 0);
    QCOMPARE(panel->nmiStudholmeLabel()->text(), QString::number(mi.nmiStudholme, 'f', 6));
    QCOMPARE(panel->nmiArithmeticLabel()->text(), QString::number(mi.nmiArithmetic, 'f', 6));
    QCOMPARE(panel->nmiGeometricLabel()->text(), QString::number(mi.nmiGeometric, 'f', 6));
    // The plot's title carries them too, so an exported plot shows what the tab shows.
    const QString title = plot->titleText();
    QVERIFY2(title.contains(QStringLiteral("MI ") + bits(mi.mi)), qPrintable(title));
    QVERIFY2(title.contains(QStringLiteral("NMI ") + QString::number(mi.nmiStudholme, 'f', 6)),
             qPrintable(title));
    QVERIFY(panel->pairsLabel()->text().startsWith(QStringLiteral("3,072 counted, 0 left out")));
    QVERIFY2(title.contains(QStringLiteral("3,072 pairs counted")), qPrintable(title));
    QCOMPARE(JointPanel::numberText(NAN), QStringLiteral("—"));

    // A row per method, as the core ran it; global and private are exact on PoCL.
    const QTableWidget* table = panel->methodsTable();
    QCOMPARE(table->rowCount(), int(jointMethods().size()));
    for (int row = 0; row < table->rowCount(); ++row) {
        const JointPoint& p = run.points[std::size_t(row)];
        QCOMPARE(cell(table, row, JointPanel::MethodColumn),
                 QString::fromLatin1(largeBinMethodName(p.method)));
        QCOMPARE(cell(table, row, JointPanel::StatusColumn),
                 QString::fromLatin1(statusName(p.status)));
        if (p.method == LargeBinMethod::Global || p.method == LargeBinMethod::Private) {
            QCOMPARE(p.status, Status::Verified);
            QVERIFY(cell(table, row, JointPanel::MedianColumn).toDouble() > 0);
        }
    }
    const MiEvaluation& e = run.miEvaluation;
    if (statusRan(e.status))
        QVERIFY2(panel->evaluationsLabel()->text().contains(QStringLiteral(" per second")),
                 qPrintable(panel->evaluationsLabel()->text()));
    QVERIFY(panel->evaluationsLabel()->text().contains(
        QString::fromStdString(statusText(e.status, e.detail))));

    // Save CSV… writes jointCsv: the header first, then a row per bin of A.
    QVERIFY(panel->saveCsvButton()->isEnabled());
    panel->setSaveFileChooser([&](QWidget*, const QString&, const QString& start, const QString&) {
        return start.endsWith(QStringLiteral("a-b-joint.csv")) ? path("joint.csv") : QString();
    });
    QTest::mouseClick(panel->saveCsvButton(), Qt::LeftButton);
    const QString csv = fileText(path("joint.csv"));
    QCOMPARE(csv, QString::fromStdString(jointCsv(run)));
    QStringList header = {QStringLiteral("a_bin")};
    for (int j = 0; j < 32; ++j)
        header << QStringLiteral("b%1").arg(j);
    QCOMPARE(csv.section(QLatin1Char('\n'), 0, 0), header.join(QLatin1Char(',')));
    QCOMPARE(lineCount(path("joint.csv")), 1 + 64);
    // Save JSON… writes jointJson; the plot exports in every format.
    QVERIFY(panel->saveJsonTo(path("joint.json")).ok);
    const Json json = readJson(path("joint.json"));
    QCOMPARE(json.at("mi_bits").get<double>(), run.mi.mi);
    QCOMPARE(json.at("a").at("bins").get<int>(), 64);
    // The colocalisation goes with the run's JSON.
    QCOMPARE(json.at("colocalisation").at("pearson").get<double>(), run.coloc.pearson);
    QCOMPARE(json.at("colocalisation").at("threshold_a").get<double>(), run.coloc.thresholdA);
    for (const QString& name :
         {QStringLiteral("joint.png"), QStringLiteral("joint.pdf"), QStringLiteral("joint.svg")}) {
        PlotExportOptions options;
        options.format = *plotFormatForFile(name);
        QVERIFY2(panel->exportPlotTo(path(name), options).ok, qPrintable(name));
        QVERIFY(QFileInfo(path(name)).size() > 0);
    }
    QVERIFY(!QImage(path("joint.png")).isNull());
}

void TestJointPanel::twoChannelsOfOneImageWithAMask() {
    MainWindow window;
    JointPanel* panel = prepare(window);
    QVERIFY(panel);
    choosePath(panel->imageACombo(), m_images[2]);
    choosePath(panel->imageBCombo(), m_images[2]);
    choose(panel->channelACombo(), QStringLiteral("r"));
    choose(panel->channelBCombo(), QStringLiteral("g"));
    choosePath(panel->maskCombo(), m_images[4]);
    choose(panel->binsACombo(), QStringLiteral("16"));
    choose(panel->binsBCombo(), QStringLiteral("16"));
    choose(panel->methodCombo(), QStringLiteral("auto"));
    QVERIFY(runToEnd(panel));
    QVERIFY2(panel->result().has_value(), qPrintable(panel->statusLabel()->text()));

    const HostImage rgb = load(m_images[2]), mask = load(m_images[4]);
    const JointRequest request = makeJointRequest(rgb, rgb, "r", "g", {16, 16}, std::nullopt,
                                                  std::nullopt, &mask, {LargeBinMethod::Auto}, 1);
    const JointHistogram expected =
        jointHistogramReference(request.a, request.b, request.spec, request.mask);
    QCOMPARE(expected.leftOut, std::uint64_t(32 * 48)); // the left half
    const QString differs = mapDiffers(panel->plot(), expected);
    QVERIFY2(differs.isEmpty(), qPrintable(differs));
    QCOMPARE(panel->miLabel()->text(), bits(mutualInformation(expected).mi));
    QVERIFY(panel->pairsLabel()->text().contains(QLocale().toString(qulonglong(32 * 48)) +
                                                 QStringLiteral(" left out")));
    QCOMPARE(panel->plot()->xAxis->label(), QStringLiteral("A: rgb.png r"));
    QCOMPARE(panel->plot()->yAxis->label(), QStringLiteral("B: rgb.png g"));
    QCOMPARE(panel->methodsTable()->rowCount(), 1);
    QCOMPARE(panel->result()->run.points.front().status, Status::Verified);
}

void TestJointPanel::refusedRequestKeepsThePreviousResult_data() {
    QTest::addColumn<int>("imageB");
    QTest::addColumn<int>("mask"); // -1: none
    QTest::addColumn<QString>("channelA");
    QTest::addColumn<QStringList>("named");
    QTest::newRow("images of different sizes")
        << 3 << -1 << "gray"
        << QStringList{QStringLiteral("a.png"), QStringLiteral("small.png"),
                       QStringLiteral("differ in size")};
    QTest::newRow("a mask of another size")
        << 1 << 3 << "gray" << QStringList{QStringLiteral("small.png"), QStringLiteral("mask")};
    QTest::newRow("a mask with three channels")
        << 1 << 2 << "gray" << QStringList{QStringLiteral("rgb.png"), QStringLiteral("channel")};
    QTest::newRow("a channel the image lacks")
        << 1 << -1 << "r" << QStringList{QStringLiteral("a.png"), QStringLiteral("'r'")};
}

void TestJointPanel::refusedRequestKeepsThePreviousResult() {
    QFETCH(int, imageB);
    QFETCH(int, mask);
    QFETCH(QString, channelA);
    QFETCH(QStringList, named);
    MainWindow window;
    JointPanel* panel = prepare(window);
    QVERIFY(panel);
    choose(panel->binsACombo(), QStringLiteral("16"));
    choose(panel->binsBCombo(), QStringLiteral("16"));
    choose(panel->methodCombo(), QStringLiteral("auto"));
    choosePath(panel->imageBCombo(), m_images[1]);
    QVERIFY(runToEnd(panel));
    QVERIFY2(panel->result().has_value(), qPrintable(panel->statusLabel()->text()));
    const QString mi = panel->miLabel()->text();
    const std::vector<std::uint64_t> counts = panel->result()->run.histogram.counts;
    const double cell = panel->plot()->colorMap()->data()->cell(3, 5);

    choosePath(panel->imageBCombo(), m_images[imageB]);
    if (mask >= 0)
        choosePath(panel->maskCombo(), m_images[mask]);
    choose(panel->channelACombo(), channelA);
    QSignalSpy problems(panel, &JobPanel::problem);
    QVERIFY(runToEnd(panel));

    // The reason, in red, naming the files; nothing of the previous result is lost.
    const QString status = panel->statusLabel()->text();
    for (const QString& word : named)
        QVERIFY2(status.contains(word), qPrintable(status));
    QVERIFY(panel->statusLabel()->styleSheet().contains(QStringLiteral("c00000")));
    QCOMPARE(problems.count(), 1);
    QVERIFY(panel->result().has_value());
    QCOMPARE(panel->result()->run.histogram.counts, counts);
    QCOMPARE(panel->result()->request.sourceB, m_images[1]);
    QCOMPARE(panel->miLabel()->text(), mi);
    const double kept = panel->plot()->colorMap()->data()->cell(3, 5);
    QVERIFY(kept == cell || (std::isnan(kept) && std::isnan(cell)));
    QVERIFY(panel->saveCsvButton()->isEnabled());
    QVERIFY(panel->saveCsvTo(path("kept.csv")).ok);
    QCOMPARE(fileText(path("kept.csv")), QString::fromStdString(jointCsv(panel->result()->run)));
}

// A and B default to two channels of the image the Image tab shows (R and G of a colour image,
// a gray image against itself); every entry names its size; an unreadable file is not offered;
// the bundled sample is never named by its resource path, in the combos or in a refusal.
void TestJointPanel::defaultPairIsTwoChannelsOfTheImageShown() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    QVERIFY(showWindow(window));
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openSample();
    QVERIFY(shown.wait(kTimeoutMs));
    const QString broken = path(QStringLiteral("broken.png"));
    {
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a PNG at all");
    }
    window.openImages({m_images[2], broken, m_images[3]});
    QVERIFY(shown.wait(kTimeoutMs));
    JointPanel* panel =
        openTab(window, window.panel<JointPanel>(), Qt::ControlModifier | Qt::Key_J);
    QVERIFY(panel);
    QComboBox* a = panel->imageACombo();
    QComboBox* b = panel->imageBCombo();
    QCOMPARE(a->currentData().toString(), m_images[2]); // rgb.png, the image shown
    QCOMPARE(b->currentData().toString(), m_images[2]);
    QCOMPARE(panel->channelACombo()->currentText(), QStringLiteral("r"));
    QCOMPARE(panel->channelBCombo()->currentText(), QStringLiteral("g"));
    QTRY_COMPARE_WITH_TIMEOUT(a->findData(broken), -1, kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(a->itemText(a->findData(m_images[3])),
                              QStringLiteral("small.png (32 × 32)"), kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(a->currentText(), QStringLiteral("rgb.png (64 × 48)"), kTimeoutMs);
    for (QComboBox* combo : {a, b, panel->maskCombo()})
        for (int i = 0; i < combo->count(); ++i) {
            QVERIFY2(!combo->itemText(i).contains(QStringLiteral(":/")),
                     qPrintable(combo->itemText(i)));
            QVERIFY2(!combo->itemData(i, Qt::ToolTipRole).toString().contains(QStringLiteral(":/")),
                     qPrintable(combo->itemData(i, Qt::ToolTipRole).toString()));
        }
    const int sample = a->findData(MainWindow::sampleImagePath());
    QVERIFY(sample >= 0);
    QCOMPARE(a->itemText(sample), QStringLiteral("sample.png (bundled) (451 × 300)"));

    // R against G of one image runs; the sample against another size is refused by name.
    panel->repeatsSpin()->setValue(1);
    QVERIFY(runToEnd(panel));
    QVERIFY2(panel->result().has_value(), qPrintable(panel->statusLabel()->text()));
    a->setCurrentIndex(sample);
    choose(panel->channelACombo(), QStringLiteral("gray"));
    choose(panel->channelBCombo(), QStringLiteral("gray"));
    QVERIFY(runToEnd(panel));
    const QString status = panel->statusLabel()->text();
    QVERIFY2(status.contains(QStringLiteral("sample.png")), qPrintable(status));
    QVERIFY2(!status.contains(QStringLiteral(":/")), qPrintable(status));

    // Another colour image shown: the pair follows it while the person chose no image.
    window.openImage(m_images[0]);
    QVERIFY(shown.wait(kTimeoutMs));
    QCOMPARE(b->currentData().toString(), m_images[0]);
}

QTEST_MAIN(TestJointPanel)
#include "tst_jointpanel.moc"
