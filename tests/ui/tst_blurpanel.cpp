// The Blur tab offscreen, on PoCL: the whole image blurred with each border and variant equals
// the CPU reference byte for byte and the table says verified; the launch demonstration shows
// the reference text's expected outcomes (cl12-16x16 refused on a range that does not divide by
// 16, cl20-16x16 unsupported on PoCL) and the corners of the padded launch; a new run replaces
// the running one, Cancel keeps the previous result; the compare view's split and side-by-side
// modes (one zoom for both panes, a draggable split line, its keys); Save Result writes the
// output at full depth, and a save that cannot succeed says why and leaves no file.
#include "panels/blurpanel.h"
#include "uitestsupport.h"
#include "views/compareview.h"
#include "views/imageview.h"

#include <pipelines/blur/blur.h>
#include <runtime/kernelsource.h>

#include <QAction>
#include <QComboBox>
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

#include <algorithm>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

class TestBlurPanel : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase();
    void withoutAnImageRunIsDisabled();
    void wholeImageEqualsReference_data();
    void wholeImageEqualsReference();
    void launchDemoShowsExpectedOutcomesAndCorners();
    void mismatchIsShownInRed();
    void refusedRunNamesTheField();
    void newRunReplacesRunningOneAndCancelKeepsResult();
    void anotherImageClearsTheResult();
    void compareModes();
    void compareKeysBelongToTheFocusedView();
    void saveWritesTheResultAndReloads();
    void failedSaveSaysWhyAndLeavesNoFile_data();
    void failedSaveSaysWhyAndLeavesNoFile();
};

/// A window showing `image`, on the Blur tab (opened with Ctrl+B).
static BlurPanel* prepare(MainWindow& window, const QString& image) {
    return showWindow(window, image)
               ? openTab(window, window.panel<BlurPanel>(), Qt::ControlModifier | Qt::Key_B)
               : nullptr;
}

void TestBlurPanel::initTestCase() {
    QVERIFY(setUpFolder());
}

void TestBlurPanel::withoutAnImageRunIsDisabled() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    BlurPanel* panel = window.panel<BlurPanel>();
    window.tabs()->setCurrentWidget(panel);
    QVERIFY(!panel->runButton()->isEnabled());
    QVERIFY(!panel->saveResultButton()->isEnabled());
    QSignalSpy problems(panel, &BlurPanel::problem);
    panel->startRun(); // as Ctrl+Enter would, were it enabled
    QCOMPARE(problems.count(), 1);
    QVERIFY2(problems.first().first().toString().contains(QStringLiteral("open one")),
             qPrintable(problems.first().first().toString()));
    QVERIFY(!panel->isRunning());
    QVERIFY(panel->compareView()->placeholder().contains(QStringLiteral("Open an image")));

    // A long status wraps in the column: the image beside it does not move.
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const int left = panel->compareView()->mapTo(panel, QPoint(0, 0)).x();
    const QString words = QStringLiteral("a status line far longer than the column is wide ");
    panel->statusLabel()->setText(words.repeated(6));
    QTest::qWait(50);
    QCOMPARE(panel->compareView()->mapTo(panel, QPoint(0, 0)).x(), left);
    panel->statusLabel()->setText(QStringLiteral("short"));
    QTest::qWait(50);
    QCOMPARE(panel->compareView()->mapTo(panel, QPoint(0, 0)).x(), left);
}

void TestBlurPanel::wholeImageEqualsReference_data() {
    QTest::addColumn<QString>("image");
    QTest::addColumn<QString>("border");
    QTest::addColumn<int>("radius");
    QTest::addColumn<QString>("variant");
    // The case the Blur tab was specified with first; then every border, gray/RGBA/16-bit, and
    // all variants at once.
    QTest::newRow("rgb8 reflect101 r2") << "rgb8.png"
                                        << "reflect101" << 2 << "auto";
    QTest::newRow("rgba8 replicate r1 direct") << "rgba8.png"
                                               << "replicate" << 1 << "direct";
    QTest::newRow("gray8 interior r3 all") << "gray8.png"
                                           << "interior" << 3 << "all (compare)";
    QTest::newRow("gray16 reflect101 r5 all") << "gray16.png"
                                              << "reflect101" << 5 << "all (compare)";
}

void TestBlurPanel::wholeImageEqualsReference() {
    QFETCH(QString, image);
    QFETCH(QString, border);
    QFETCH(int, radius);
    QFETCH(QString, variant);
    MainWindow window;
    BlurPanel* panel = prepare(window, fixture(image));
    QVERIFY(panel);
    choose(panel->modeCombo(), QStringLiteral("Whole image"));
    QVERIFY(panel->borderCombo()->isVisible());
    QVERIFY(!panel->launchCombo()->isVisible());
    choose(panel->borderCombo(), border);
    choose(panel->variantCombo(), variant);
    panel->radiusSpin()->setValue(radius);
    panel->repeatsSpin()->setValue(2);
    QVERIFY(panel->runButton()->isEnabled());
    QVERIFY(runToEnd(panel));
    QVERIFY(panel->result().has_value());

    const HostImage input = load(fixture(image));
    const HostImage reference =
        histlab::boxBlurReference(input, radius, histlab::parseBorderMode(border.toStdString()));
    const histlab::ui::BlurShown& result = *panel->result();
    const std::size_t expectedRows = variant == QStringLiteral("all (compare)") ? 3 : 1;
    QCOMPARE(result.runs.size(), expectedRows);
    QCOMPARE(panel->runsTable()->rowCount(), int(expectedRows));
    // The outcome and the speed come right after the variant; the wide build options near the
    // end, so that a 1200-pixel window shows what a person compares.
    QStringList headers;
    for (int c = 0; c < panel->runsTable()->columnCount(); ++c)
        headers << panel->runsTable()->horizontalHeaderItem(c)->text();
    QCOMPARE(headers.mid(0, 6), (QStringList{QStringLiteral("variant"), QStringLiteral("status"),
                                             QStringLiteral("median ms"), QStringLiteral("min ms"),
                                             QStringLiteral("GB/s"), QStringLiteral("verified")}));
    QCOMPARE(headers.indexOf(QStringLiteral("build options")), BlurPanel::OptionsColumn);
    QVERIFY(BlurPanel::OptionsColumn > BlurPanel::LocalColumn);
    int ran = 0;
    for (std::size_t i = 0; i < result.runs.size(); ++i) {
        const histlab::BlurVariantRow& v = result.runs[i];
        const int row = int(i);
        // A variant the device cannot run says so (an expected outcome); every other one ran
        // and equals the reference byte for byte.
        if (v.status == Status::Unsupported || v.status == Status::NotApplicable) {
            QCOMPARE(cell(panel->runsTable(), row, BlurPanel::StatusColumn),
                     QString::fromLatin1(histlab::statusName(v.status)));
            QVERIFY(!cell(panel->runsTable(), row, BlurPanel::DetailColumn).isEmpty());
            continue;
        }
        QVERIFY2(v.status == Status::Verified && v.run,
                 qPrintable(QString::fromLatin1(histlab::statusName(v.status)) +
                            QStringLiteral(": ") + QString::fromStdString(v.detail)));
        ++ran;
        QCOMPARE(v.run->output.width, input.width);
        QCOMPARE(v.run->output.height, input.height);
        QCOMPARE(v.run->output.channels, input.channels);
        QCOMPARE(v.run->output.depth, input.depth);
        QVERIFY2(v.run->output.data == reference.data, histlab::blurVariantName(v.run->variant));
        QVERIFY(v.run->verified);
        QCOMPARE(cell(panel->runsTable(), row, BlurPanel::VerifiedColumn), QStringLiteral("yes"));
        QVERIFY(!cell(panel->runsTable(), row, BlurPanel::MedianColumn).isEmpty());
        QVERIFY(!cell(panel->runsTable(), row, BlurPanel::OptionsColumn).isEmpty());
    }
    QVERIFY(ran >= 1);
    if (expectedRows == 3 && radius > histlab::kTiledMaxRadius) // tiled is for small radii
        QCOMPARE(cell(panel->runsTable(), 1, BlurPanel::StatusColumn),
                 QStringLiteral("not applicable"));
    // The first row that ran is shown against the original, at the image's size.
    QVERIFY(panel->selectedOutput());
    const CompareView* view = panel->compareView();
    QVERIFY(!view->result().isNull());
    QCOMPARE(view->result().size(), view->original().size());
    QCOMPARE(view->imageSize(), QSize(input.width, input.height));
    QVERIFY(panel->timingsLabel()->text().contains(QStringLiteral("median")));
    QVERIFY(panel->timingsLabel()->text().contains(QStringLiteral("verified")));
    QVERIFY(panel->saveResultButton()->isEnabled());
    QVERIFY(!panel->cornersTable()->isEnabled()); // the launch demo's only
}

void TestBlurPanel::launchDemoShowsExpectedOutcomesAndCorners() {
    MainWindow window;
    BlurPanel* panel = prepare(window, fixture(QStringLiteral("rgb8.png"))); // 41 x 29
    QVERIFY(panel);
    choose(panel->modeCombo(), QStringLiteral("Launch demo"));
    QVERIFY(panel->launchCombo()->isVisible());
    QVERIFY(!panel->borderCombo()->isVisible());
    choose(panel->launchCombo(), QStringLiteral("all"));
    panel->radiusSpin()->setValue(1); // interior 39 x 27: no multiple of 16
    panel->repeatsSpin()->setValue(1);
    QVERIFY(runToEnd(panel));
    QVERIFY(panel->result().has_value());
    const QTableWidget* table = panel->runsTable();
    QCOMPARE(table->rowCount(), 5);
    QCOMPARE(table->horizontalHeaderItem(BlurPanel::NameColumn)->text(), QStringLiteral("launch"));

    // The reference text's outcomes: expected, with their reason, not errors.
    const int cl12 = rowOf(table, BlurPanel::NameColumn, QStringLiteral("cl12-16x16"));
    QVERIFY(cl12 >= 0);
    QCOMPARE(cell(table, cl12, BlurPanel::StatusColumn), QStringLiteral("unsupported"));
    QVERIFY2(cell(table, cl12, BlurPanel::DetailColumn).contains(QStringLiteral("refused")),
             qPrintable(cell(table, cl12, BlurPanel::DetailColumn)));
    QVERIFY2(cell(table, cl12, BlurPanel::DetailColumn).contains(QStringLiteral("divide")),
             qPrintable(cell(table, cl12, BlurPanel::DetailColumn)));
    const int cl20 = rowOf(table, BlurPanel::NameColumn, QStringLiteral("cl20-16x16"));
    QVERIFY(cl20 >= 0);
    QCOMPARE(cell(table, cl20, BlurPanel::StatusColumn), QStringLiteral("unsupported")); // PoCL
    QVERIFY(!cell(table, cl20, BlurPanel::DetailColumn).isEmpty());
    QVERIFY(!panel->statusLabel()->text().contains(QStringLiteral("differ")));

    // Every launch that ran equals the reference on the gray plane (the image's luma).
    const HostImage gray = histlab::blurLaunchPlane(load(fixture(QStringLiteral("rgb8.png"))));
    const HostImage reference = histlab::boxBlurReference(gray, 1, BorderMode::Interior);
    for (const histlab::BlurLaunchResult& r : panel->result()->launches)
        if (histlab::statusRan(r.status)) {
            QVERIFY2(r.output.data == reference.data, histlab::blurLaunchName(r.launch));
            QCOMPARE(cell(table,
                          rowOf(table, BlurPanel::NameColumn,
                                QString::fromLatin1(histlab::blurLaunchName(r.launch))),
                          BlurPanel::VerifiedColumn),
                     QStringLiteral("yes"));
        }
    QCOMPARE(panel->compareView()->original().format(), QImage::Format_Grayscale8);

    // The padded launch: the range rounded up to 16 x 16 groups, corners at the interior's.
    const int padded = rowOf(table, BlurPanel::NameColumn, QStringLiteral("padded-16x16"));
    QVERIFY(padded >= 0);
    QCOMPARE(cell(table, padded, BlurPanel::StatusColumn), QStringLiteral("verified"));
    QCOMPARE(cell(table, padded, BlurPanel::RangeColumn), QStringLiteral("48×32"));
    QCOMPARE(cell(table, padded, BlurPanel::LocalColumn), QStringLiteral("16×16"));
    panel->selectRow(padded);
    QCOMPARE(panel->compareView()->resultLabel(), QStringLiteral("padded-16x16"));
    QVERIFY(!panel->compareView()->result().isNull());
    const QTableWidget* corners = panel->cornersTable();
    QVERIFY(corners->isEnabled());
    const QStringList globalIds = {"(0, 0)", "(38, 0)", "(0, 26)", "(38, 26)"};
    for (int k = 0; k < 4; ++k) {
        QCOMPARE(cell(corners, k, 0), globalIds[k]);
        QCOMPARE(cell(corners, k, 1), QStringLiteral("(16, 16)"));
        QCOMPARE(cell(corners, k, 2), QStringLiteral("n/a (OpenCL C 1.2)"));
    }
    QVERIFY(panel->saveResultButton()->isEnabled());

    // A refused launch has no output: its place says why, there is nothing to save.
    panel->selectRow(cl12);
    QVERIFY(panel->compareView()->result().isNull());
    QVERIFY2(panel->compareView()->placeholder().contains(QStringLiteral("refused")),
             qPrintable(panel->compareView()->placeholder()));
    QVERIFY(!panel->saveResultButton()->isEnabled());
    QVERIFY(!panel->selectedOutput());
    QCOMPARE(cell(corners, 0, 0), QString());
}

// The core refuses tiled above its largest radius, naming "--variant" as the CLI spells it;
// the tab names its own field instead.
void TestBlurPanel::refusedRunNamesTheField() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    BlurPanel* panel = prepare(window, fixture(QStringLiteral("rgb8.png")));
    QVERIFY(panel);
    choose(panel->modeCombo(), QStringLiteral("Whole image"));
    choose(panel->variantCombo(), QStringLiteral("tiled"));
    panel->radiusSpin()->setValue(histlab::kTiledMaxRadius + 2);
    QSignalSpy problems(panel, &BlurPanel::problem);
    QVERIFY(runToEnd(panel));
    QCOMPARE(problems.count(), 1);
    const QString message = problems.first().first().toString();
    QVERIFY2(message.startsWith(QStringLiteral("Cannot run: Variant: tiled")), qPrintable(message));
    QVERIFY2(!message.contains(QStringLiteral("--")), qPrintable(message));
    QVERIFY(panel->statusLabel()->text().contains(QStringLiteral("Variant: tiled")));
}

void TestBlurPanel::mismatchIsShownInRed() {
    // A copy of kernels/blur.cl whose interior blur adds 1 to every pixel (through the kernel
    // override folder, as histlab-cli --kernel-dir): verification must fail, and show it.
    QFile original(QStringLiteral(HISTLAB_TEST_DATA_DIR "/../../kernels/blur.cl"));
    QVERIFY(original.open(QIODevice::ReadOnly));
    QString source = QString::fromUtf8(original.readAll());
    const QString store = QStringLiteral("(uchar)((sum + n / 2u) / n);");
    QVERIFY2(source.count(store) == 1, "the interior blur's store moved: update this test");
    source.replace(store, QStringLiteral("(uchar)((sum + n / 2u) / n + 1u);"));
    QVERIFY(QDir().mkpath(path("broken")));
    QFile broken(path("broken/blur.cl"));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write(source.toUtf8());
    broken.close();
    histlab::setKernelDir(QFile::encodeName(path("broken")).toStdString());
    const auto restore = qScopeGuard([] { histlab::setKernelDir({}); });

    MainWindow window;
    BlurPanel* panel = prepare(window, fixture(QStringLiteral("gray8.png")));
    QVERIFY(panel);
    choose(panel->modeCombo(), QStringLiteral("Launch demo"));
    choose(panel->launchCombo(), QStringLiteral("padded-16x16"));
    panel->radiusSpin()->setValue(2);
    panel->repeatsSpin()->setValue(1);
    QVERIFY(runToEnd(panel));
    const QTableWidget* table = panel->runsTable();
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(cell(table, 0, BlurPanel::StatusColumn), QStringLiteral("mismatch"));
    QCOMPARE(cell(table, 0, BlurPanel::VerifiedColumn), QStringLiteral("NO"));
    QCOMPARE(table->item(0, BlurPanel::VerifiedColumn)->foreground().color(), QColor(0xc0, 0, 0));
    QVERIFY2(cell(table, 0, BlurPanel::DetailColumn).contains(QStringLiteral("CPU reference")),
             qPrintable(cell(table, 0, BlurPanel::DetailColumn)));
    QVERIFY(panel->statusLabel()->text().contains(QStringLiteral("differ")));
    QVERIFY(panel->statusLabel()->styleSheet().contains(QStringLiteral("color")));
    QVERIFY(panel->timingsLabel()->text().contains(QStringLiteral("MISMATCH")));
}

void TestBlurPanel::newRunReplacesRunningOneAndCancelKeepsResult() {
    MainWindow window;
    BlurPanel* panel = prepare(window, fixture(QStringLiteral("gray8.png")));
    QVERIFY(panel);
    choose(panel->modeCombo(), QStringLiteral("Whole image"));
    choose(panel->variantCombo(), QStringLiteral("direct"));
    panel->repeatsSpin()->setValue(1);

    // Two runs in a row: only the second answers (the lane cancels or drops the first).
    QSignalSpy ended(panel, &BlurPanel::runEnded);
    panel->radiusSpin()->setValue(2);
    panel->startRun();
    panel->radiusSpin()->setValue(4);
    panel->startRun();
    QVERIFY(ended.wait(kTimeoutMs));
    QTest::qWait(200); // a stale answer would arrive about now
    QCOMPARE(ended.count(), 1);
    QCOMPARE(panel->result()->request.radius, 4);
    QVERIFY(!panel->isRunning());

    // A long run (many cheap launches) cancelled after it started: the result stays.
    HostImage big;
    big.width = 1200;
    big.height = 800;
    big.channels = 1;
    big.data.resize(big.byteCount());
    for (std::size_t i = 0; i < big.data.size(); ++i)
        big.data[i] = std::uint8_t((i * 2654435761u) >> 13);
    histlab::saveImage(big, QFile::encodeName(path("big.png")).toStdString());
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImage(path("big.png"));
    QVERIFY(shown.wait(kTimeoutMs));
    QVERIFY(!panel->result().has_value()); // another image: the old result went
    QSignalSpy progress(panel, &BlurPanel::progressChanged);
    const auto launched = [&] {
        return std::any_of(progress.begin(), progress.end(), [](const QList<QVariant>& p) {
            return p.at(1).toString() == QStringLiteral("direct");
        });
    };
    // Cancelled with nothing shown yet: the status speaks of no previous results.
    panel->repeatsSpin()->setValue(1000);
    panel->startRun();
    QVERIFY(QTest::qWaitFor(launched, kTimeoutMs));
    const QString firstCancelled = cancelAndWait(panel);
    QVERIFY2(firstCancelled.isEmpty(), qPrintable(firstCancelled));
    QVERIFY(!panel->result().has_value());
    QVERIFY2(!panel->statusLabel()->text().contains(QStringLiteral("previous")),
             qPrintable(panel->statusLabel()->text()));
    progress.clear();
    panel->repeatsSpin()->setValue(1);
    QVERIFY(runToEnd(panel));
    QVERIFY(panel->result().has_value());
    panel->repeatsSpin()->setValue(1000);
    panel->startRun();
    QVERIFY(panel->isRunning());
    QVERIFY(panel->cancelButton()->isEnabled());
    // Cancelled once the launches have begun (the core checks between timed runs).
    QVERIFY(QTest::qWaitFor(launched, kTimeoutMs));
    QTest::qWait(100);
    const QString notCancelled = cancelAndWait(panel);
    QVERIFY2(notCancelled.isEmpty(), qPrintable(notCancelled)); // and idle, Cancel disabled
    QVERIFY(panel->result().has_value());
    QVERIFY2(panel->statusLabel()->text().contains(QStringLiteral("previous run's")),
             qPrintable(panel->statusLabel()->text()));
    QCOMPARE(panel->result()->request.repeats, 1); // the previous run's
}

void TestBlurPanel::anotherImageClearsTheResult() {
    MainWindow window;
    BlurPanel* panel = prepare(window, fixture(QStringLiteral("rgba8.png")));
    QVERIFY(panel);
    choose(panel->modeCombo(), QStringLiteral("Whole image"));
    choose(panel->variantCombo(), QStringLiteral("auto"));
    panel->repeatsSpin()->setValue(1);
    QVERIFY(runToEnd(panel));
    QCOMPARE(panel->runsTable()->rowCount(), 1);
    // The same image analysed again (Run Again): the result stays.
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.runAgain();
    QVERIFY(shown.wait(kTimeoutMs));
    QCOMPARE(panel->runsTable()->rowCount(), 1);
    // Another image: the tab shows it, waiting for a run.
    window.openImage(fixture(QStringLiteral("gray8.png")));
    QVERIFY(shown.wait(kTimeoutMs));
    QCOMPARE(panel->imageSource(), fixture(QStringLiteral("gray8.png")));
    QCOMPARE(panel->runsTable()->rowCount(), 0);
    QVERIFY(!panel->saveResultButton()->isEnabled());
    QCOMPARE(panel->compareView()->imageSize(), QSize(37, 23));
    QVERIFY(panel->compareView()->result().isNull());

    // A blur asked for while another image loads is of the image going away: when the new one
    // arrives, that blur is cancelled and its answer never shows.
    QSignalSpy ended(panel, &BlurPanel::runEnded);
    window.openImage(fixture(QStringLiteral("rgb8.png")));
    panel->startRun(); // still gray8.png's tab
    QVERIFY(shown.wait(kTimeoutMs));
    QCOMPARE(panel->imageSource(), fixture(QStringLiteral("rgb8.png")));
    QVERIFY(QTest::qWaitFor([&] { return !panel->isRunning(); }, kTimeoutMs));
    QTest::qWait(100);
    QCOMPARE(ended.count(), 0);
    QVERIFY(!panel->result().has_value());
    QCOMPARE(panel->runsTable()->rowCount(), 0);
}

void TestBlurPanel::compareModes() {
    // The view on its own, at a known size.
    const QImage original = histlab::uitest::makeImage(41, 29, QImage::Format_RGB888);
    const QImage result = original.mirrored(true, false);
    CompareView view;
    view.resize(600, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setImages(original, result);
    QCOMPARE(view.imageSize(), QSize(41, 29));
    QAction* sideBySide = view.modeActions().at(0);
    QAction* split = view.modeActions().at(1);

    // Side by side: two panes, one scale; a pixel sits at the same place in both.
    sideBySide->trigger();
    QCOMPARE(view.mode(), CompareView::Mode::SideBySide);
    QCOMPARE(view.paneCount(), 2);
    QVERIFY(view.isFitted());
    view.zoomBy(2, QPointF(100, 100));
    QVERIFY(!view.isFitted());
    const QPointF pixel(20.5, 14.5);
    const QPointF left = view.mapFromImage(pixel, 0);
    const QPointF right = view.mapFromImage(pixel, 1);
    QCOMPARE(right - left, QPointF(view.paneRect(1).topLeft() - view.paneRect(0).topLeft()));
    QCOMPARE(view.sideAt(left), 0);
    QCOMPARE(view.sideAt(right), 1);
    QCOMPARE(view.mapToImage(right), pixel);
    // Panning one pane pans both.
    QTest::mousePress(&view, Qt::LeftButton, {}, left.toPoint());
    QTest::mouseMove(&view, left.toPoint() + QPoint(-30, -20));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, left.toPoint() + QPoint(-30, -20));
    const QPointF moved = view.mapFromImage(pixel, 0) - left;
    QCOMPARE(view.mapFromImage(pixel, 1) - right, moved);
    QCOMPARE(moved, QPointF(-30, -20));
    // 1:1 applies to both.
    view.actualSize();
    QCOMPARE(view.scale(), 1.0);
    QCOMPARE(view.mapFromImage(QPointF(1, 0), 1) - view.mapFromImage(QPointF(0, 0), 1),
             QPointF(1, 0));

    // Split: one pane; the original left of the line, the result right of it.
    QSignalSpy modes(&view, &CompareView::modeChanged);
    split->trigger();
    QCOMPARE(modes.count(), 1);
    QCOMPARE(view.mode(), CompareView::Mode::Split);
    QVERIFY(split->isChecked() && !sideBySide->isChecked());
    QCOMPARE(view.paneCount(), 1);
    view.fitToWindow();
    QCOMPARE(view.splitX(), 300);
    const int y = 150;
    QCOMPARE(view.sideAt(QPointF(280, y)), 0);
    QCOMPARE(view.sideAt(QPointF(320, y)), 1);
    // Dragging the line moves it, and does not pan.
    QSignalSpy moves(&view, &CompareView::splitPositionChanged);
    QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(301, y));
    QTest::mouseMove(&view, QPoint(360, y));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(360, y));
    QVERIFY(moves.count() >= 1);
    QCOMPARE(view.splitX(), 360);
    QCOMPARE(view.sideAt(QPointF(340, y)), 0);
    QVERIFY(view.isFitted());
    // Left/Right move it too, while the view has the focus.
    QTest::keyClick(&view, Qt::Key_Left);
    QCOMPARE(view.splitX(), 330);
    QTest::keyClick(&view, Qt::Key_Right, Qt::ShiftModifier);
    QCOMPARE(view.splitX(), 336);
    // The hover text names both values.
    QSignalSpy hovered(&view, &CompareView::hovered);
    QTest::mouseMove(&view, QPoint(100, y));
    QVERIFY(hovered.count() >= 1);
    const QString text = hovered.last().at(1).toString();
    QVERIFY2(text.contains(QStringLiteral("original R")) &&
                 text.contains(QStringLiteral("result R")),
             qPrintable(text));
    // A result that is not there: its place says why.
    view.setPlaceholder(QStringLiteral("refused"));
    view.setResult({});
    QVERIFY(view.result().isNull());
    QCOMPARE(view.mode(), CompareView::Mode::Split);

    // In the tab: the tool bar's actions switch it, and the choice is remembered.
    {
        MainWindow window;
        window.panel<BlurPanel>()->compareView()->modeActions().at(1)->trigger();
    }
    MainWindow other;
    QCOMPARE(other.panel<BlurPanel>()->compareView()->mode(), CompareView::Mode::Split);
    other.panel<BlurPanel>()->compareView()->modeActions().at(0)->trigger();
    MainWindow third;
    QCOMPARE(third.panel<BlurPanel>()->compareView()->mode(), CompareView::Mode::SideBySide);
}

void TestBlurPanel::compareKeysBelongToTheFocusedView() {
    // Ctrl+1 and Ctrl+0 are the View menu's (the Image tab's view); while the compare view has
    // the focus they act on it instead, and the Image tab's view keeps its zoom.
    MainWindow window;
    BlurPanel* panel = prepare(window, fixture(QStringLiteral("rgb8.png")));
    QVERIFY(panel);
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    CompareView* view = panel->compareView();
    const double imageScale = window.panel<ImagePanel>()->imageView()->scale();
    view->setFocus();
    QVERIFY(QTest::qWaitFor([&] { return view->hasFocus(); }, 2000));
    QTest::keyClick(view, Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(view->scale(), 1.0);
    QVERIFY(!view->isFitted());
    QTest::keyClick(view, Qt::Key_0, Qt::ControlModifier);
    QVERIFY(view->isFitted());
    QCOMPARE(window.panel<ImagePanel>()->imageView()->scale(), imageScale);
    // Ctrl+B goes back to the image.
    QTest::keyClick(&window, Qt::Key_B, Qt::ControlModifier);
    QCOMPARE(window.tabs()->currentIndex(), 0);
}

void TestBlurPanel::saveWritesTheResultAndReloads() {
    MainWindow window;
    BlurPanel* panel = prepare(window, fixture(QStringLiteral("gray16.png")));
    QVERIFY(panel);
    choose(panel->modeCombo(), QStringLiteral("Whole image"));
    choose(panel->borderCombo(), QStringLiteral("reflect101"));
    choose(panel->variantCombo(), QStringLiteral("auto"));
    panel->radiusSpin()->setValue(2);
    panel->repeatsSpin()->setValue(1);
    QVERIFY(runToEnd(panel));
    const HostImage* output = panel->selectedOutput();
    QVERIFY(output);
    QCOMPARE(output->depth, 16);

    // Through the button and the file chooser: a PNG of the full 16-bit output.
    QString asked;
    panel->setSaveFileChooser([&](QWidget*, const QString&, const QString& start, const QString&) {
        asked = start;
        return path("blurred.png");
    });
    QTest::mouseClick(panel->saveResultButton(), Qt::LeftButton);
    QVERIFY2(asked.contains(QStringLiteral("gray16-blur-r2-")) &&
                 asked.endsWith(QStringLiteral(".png")),
             qPrintable(asked));
    QVERIFY(QFile::exists(path("blurred.png")));
    HostImage reloaded = load(path("blurred.png"));
    QCOMPARE(reloaded.width, output->width);
    QCOMPARE(reloaded.height, output->height);
    QCOMPARE(reloaded.depth, 16);
    QVERIFY(reloaded.data == output->data);

    // TIFF by its suffix, straight through saveResultTo.
    QVERIFY(panel->saveResultTo(path("blurred.tif")).ok);
    reloaded = load(path("blurred.tif"));
    QVERIFY(reloaded.data == output->data);
    QVERIFY(panel->statusLabel()->text().contains(QStringLiteral("Saved")));
}

void TestBlurPanel::failedSaveSaysWhyAndLeavesNoFile_data() {
    QTest::addColumn<QString>("target");
    QTest::newRow("missing folder") << "missing/blurred.png";
    QTest::newRow("a folder's name") << "folder.png";
    QTest::newRow("unknown format") << "blurred.nosuchformat";
}

void TestBlurPanel::failedSaveSaysWhyAndLeavesNoFile() {
    QFETCH(QString, target);
    const QString dirPath = path(QStringLiteral("fail-%1").arg(QTest::currentDataTag()));
    QVERIFY(QDir().mkpath(dirPath));
    QDir dir(dirPath);
    QVERIFY(dir.mkpath(QStringLiteral("folder.png"))); // a folder where the file would go
    MainWindow window;
    BlurPanel* panel = prepare(window, fixture(QStringLiteral("rgb8.png")));
    QVERIFY(panel);
    choose(panel->modeCombo(), QStringLiteral("Whole image"));
    panel->repeatsSpin()->setValue(1);
    QVERIFY(runToEnd(panel));
    panel->setErrorDialogsEnabled(true); // the message box is part of what is checked
    QSignalSpy problems(panel, &BlurPanel::problem);
    const histlab::ui::ExportResult saved = panel->saveResultTo(dir.filePath(target));
    QVERIFY(!saved.ok);
    QVERIFY2(saved.message.contains(target.section(QLatin1Char('/'), -1)),
             qPrintable(saved.message));
    QCOMPARE(problems.count(), 1);
    QVERIFY(panel->statusLabel()->text().contains(saved.message));
    auto* box = panel->findChild<QMessageBox*>();
    QVERIFY(box);
    QVERIFY(box->isVisible());
    QVERIFY(box->text().contains(saved.message));
    box->close();
    // Nothing written, not even a temporary file; the folder is still a folder.
    QCOMPARE(dir.entryList(QDir::Files | QDir::Hidden | QDir::System), QStringList());
    QVERIFY(QFileInfo(dir.filePath(QStringLiteral("folder.png"))).isDir());
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("missing"))));
}

QTEST_MAIN(TestBlurPanel)
#include "tst_blurpanel.moc"
