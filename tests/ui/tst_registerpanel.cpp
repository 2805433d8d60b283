// The Joint tab's Register page offscreen, on PoCL: it registers the pair the Histogram page
// chose (A = FIXED, B = MOVING) and shows what histlab-cli register computes: a MOVING whose
// content is FIXED's moved by whole pixels and inverted registers at that shift, verified; the
// curve has a line per level; the view composes FIXED and the registered MOVING; Save Transform
// writes registrationCsv. With no images it says what to do.
#include "panels/jointpanel.h"
#include "panels/registerpanel.h"
#include "uitestsupport.h"
#include "window/mainwindow.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>

#include <cmath>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

class TestRegisterPanel : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase();
    void registersTheHistogramPagesPair();
    void composesTheView();

private:
    QStringList m_images;
};

// A pattern with texture (a hash of the position on smooth waves), and the same moved 3 px right
// and 2 px up, inverted.
static int pattern(int x, int y) {
    const unsigned texture = (unsigned(x) * 73856093u ^ unsigned(y) * 19349663u) % 29u;
    return int(110 + 50 * std::sin(x * 0.11 + 0.3) * std::cos(y * 0.07) +
               40 * std::exp(-((x - 60.0) * (x - 60.0) + (y - 40.0) * (y - 40.0)) / 300.0) +
               texture);
}

void TestRegisterPanel::initTestCase() {
    QVERIFY(setUpFolder());
    QImage fixed(128, 96, QImage::Format_Grayscale8), moving(128, 96, QImage::Format_Grayscale8);
    for (int y = 0; y < 96; ++y)
        for (int x = 0; x < 128; ++x) {
            fixed.scanLine(y)[x] = uchar(std::clamp(pattern(x, y), 0, 255));
            moving.scanLine(y)[x] = uchar(255 - std::clamp(pattern(x - 3, y + 2), 0, 255));
        }
    QVERIFY(fixed.save(path(QStringLiteral("fixed.png"))));
    QVERIFY(moving.save(path(QStringLiteral("moving.png"))));
    m_images << path(QStringLiteral("fixed.png")) << path(QStringLiteral("moving.png"));
}

void TestRegisterPanel::registersTheHistogramPagesPair() {
    MainWindow window;
    QVERIFY(showWindow(window));
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImages(m_images);
    QVERIFY(shown.wait(kTimeoutMs));
    JointPanel* joint =
        openTab(window, window.panel<JointPanel>(), Qt::ControlModifier | Qt::Key_J);
    QVERIFY(joint);
    RegisterPanel* panel = window.panel<RegisterPanel>();
    QVERIFY(panel);
    joint->imageACombo()->setCurrentIndex(joint->imageACombo()->findData(m_images[0]));
    joint->imageBCombo()->setCurrentIndex(joint->imageBCombo()->findData(m_images[1]));
    joint->channelACombo()->setCurrentIndex(0);
    joint->channelBCombo()->setCurrentIndex(0);
    auto* pages = window.findChild<QTabWidget*>(QStringLiteral("jointPages"));
    QVERIFY(pages);
    pages->setCurrentWidget(panel);
    QVERIFY(panel->isVisible());
    QVERIFY(panel->pairLabel()->text().contains(QStringLiteral("FIXED fixed.png (gray)")));
    panel->transformCombo()->setCurrentIndex(panel->transformCombo()->findData("translation"));
    panel->maxShiftSpin()->setValue(6);
    panel->pyramidCombo()->setCurrentIndex(0); // auto
    QVERIFY(runToEnd(panel));
    QVERIFY2(panel->result().has_value(), qPrintable(panel->statusLabel()->text()));
    const RegistrationResult& r = panel->result()->run.result;
    QCOMPARE(r.status, Status::Verified);
    QVERIFY2(std::fabs(r.transform.tx - 3) < 0.1 && std::fabs(r.transform.ty + 2) < 0.1,
             qPrintable(panel->transformLabel()->text()));
    QVERIFY(panel->transformLabel()->text().startsWith(QStringLiteral("shift (")));
    QVERIFY(panel->statusLabel()->text().contains(QStringLiteral("verified")));
    // The curve: one line per level the search went through, each with points.
    QCOMPARE(panel->curvePlot()->graphCount(), r.levels);
    for (int g = 0; g < panel->curvePlot()->graphCount(); ++g)
        QVERIFY(panel->curvePlot()->graph(g)->dataCount() > 0);
    // The view: FIXED's size; MOVING registered leaves the difference small away from the
    // edges (the images are inverted, so compare the checkerboard's tiles with the sources).
    QCOMPARE(panel->viewImage().size(), QSize(128, 96));
    panel->viewCombo()->setCurrentIndex(int(RegisterPanel::View::Before));
    QCOMPARE(panel->viewImage(), panel->result()->movingBefore);
    // Save Transform writes the CLI's CSV.
    const QString csv = path(QStringLiteral("t.csv"));
    QVERIFY(panel->saveCsvTo(csv).ok);
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(file.readAll()), QString::fromStdString(registrationCsv(r)));
}

void TestRegisterPanel::composesTheView() {
    QImage a(4, 2, QImage::Format_Grayscale8), b(4, 2, QImage::Format_Grayscale8);
    a.fill(200);
    b.fill(50);
    const QImage check = RegisterPanel::compose(a, b, RegisterPanel::View::Checkerboard, 2);
    QCOMPARE(check.pixelColor(0, 0).red(), 200);
    QCOMPARE(check.pixelColor(2, 0).red(), 50);
    QCOMPARE(RegisterPanel::compose(a, b, RegisterPanel::View::Blend, 2).pixelColor(1, 1).red(),
             125);
    QCOMPARE(
        RegisterPanel::compose(a, b, RegisterPanel::View::Difference, 2).pixelColor(3, 1).red(),
        150);
}

QTEST_MAIN(TestRegisterPanel)
#include "tst_registerpanel.moc"
