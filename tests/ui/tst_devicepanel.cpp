// The Devices tab offscreen, on PoCL: the worker's listing shows every platform with its devices;
// the chosen device's table has the query's groups and HistLab's probes with their detail
// (PoCL 3.1: no non-uniform work-groups, no work_group_scan_exclusive_add); Copy as Text puts
// the device's properties on the clipboard; Export JSON writes what `histlab-cli devices
// --json` prints, and an export that cannot succeed leaves no file. In the window, Ctrl+Shift+D
// and Ctrl+D open the Devices and Dashboard tabs.
#include "panels/dashboardpanel.h"
#include "panels/devicepanel.h"
#include "uitestsupport.h"

#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeWidget>
#include <QtTest>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

namespace {

/// The value of the table's row named `name` (empty when there is none).
QString propertyValue(const QTableWidget* table, const QString& name) {
    const int row = rowOf(table, 0, name);
    return row < 0 ? QString() : cell(table, row, 1);
}

} // namespace

class TestDevicePanel : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void listsPoclWithItsProbes();
    void copiesTheDeviceAsText();
    void exportsJson();
    void theWindowOpensTheTabs();

private:
    JobBridge* m_bridge = nullptr;
    DevicePanel* m_panel = nullptr;
};

void TestDevicePanel::initTestCase() {
    QVERIFY(setUpFolder());
    m_bridge = new JobBridge;
    m_panel = new DevicePanel(m_bridge);
    QSignalSpy shown(m_panel, &DevicePanel::devicesShown);
    QTest::mouseClick(m_panel->refreshButton(), Qt::LeftButton);
    QVERIFY(!m_panel->refreshButton()->isEnabled()); // until the worker answers
    QVERIFY(shown.wait(kTimeoutMs));
    QVERIFY(m_panel->refreshButton()->isEnabled());
}

void TestDevicePanel::cleanupTestCase() {
    delete m_panel;
    delete m_bridge;
}

void TestDevicePanel::listsPoclWithItsProbes() {
    // PoCL's platform, with its device under it.
    QTreeWidgetItem* pocl = nullptr;
    for (int i = 0; i < m_panel->tree()->topLevelItemCount(); ++i)
        if (m_panel->tree()->topLevelItem(i)->text(0).contains(
                QStringLiteral("Portable Computing Language")))
            pocl = m_panel->tree()->topLevelItem(i);
    QVERIFY2(pocl, "PoCL's platform is listed");
    QVERIFY(pocl->childCount() >= 1);
    const int index = pocl->child(0)->data(0, Qt::UserRole).toInt();
    m_panel->showDevice(index);
    QCOMPARE(m_panel->currentDevice(), index);
    const histlab::DeviceListing* listed = nullptr;
    for (const histlab::DeviceListing& d : m_panel->devices())
        if (d.info.index == index)
            listed = &d;
    QVERIFY(listed && listed->capabilities);

    const QTableWidget* table = m_panel->propertyTable();
    QCOMPARE(propertyValue(table, QStringLiteral("Name")),
             QString::fromStdString(listed->info.name));
    QCOMPARE(propertyValue(table, QStringLiteral("Compute units")),
             QString::number(listed->info.computeUnits));
    QVERIFY(propertyValue(table, QStringLiteral("Max work-item sizes"))
                .contains(QStringLiteral(" x ")));
    QVERIFY(!propertyValue(table, QStringLiteral("Local memory")).isEmpty());
    // Sizes read as a person reads them, the exact bytes grouped beside.
    const QString global = propertyValue(table, QStringLiteral("Global memory"));
    QVERIFY2(
        global.endsWith(
            QStringLiteral(" (%1 bytes)")
                .arg(QLocale(QLocale::English).toString(qulonglong(listed->info.globalMemBytes)))),
        qPrintable(global));
    QVERIFY2(QRegularExpression(QStringLiteral("^\\d+(\\.\\d)? (KiB|MiB|GiB|TiB) \\("))
                 .match(global)
                 .hasMatch(),
             qPrintable(global));
    // The device's name in the tree is whole: its column is as wide as its text.
    QTreeWidgetItem* device = pocl->child(0);
    QVERIFY(m_panel->tree()->columnWidth(0) >=
            m_panel->tree()->fontMetrics().horizontalAdvance(device->text(0)));
    QVERIFY(!propertyValue(table, QStringLiteral("Constant memory")).isEmpty());
    QVERIFY(!propertyValue(table, QStringLiteral("OpenCL C versions")).isEmpty());
    if (!listed->info.optionalFeatures.empty()) // an OpenCL 3.0 device: its reported flags
        QVERIFY(!propertyValue(table, QStringLiteral("non_uniform_work_group_support")).isEmpty());
    // HistLab's probes, with the detail of what was seen: PoCL 3.1 has neither.
    const QString nonUniform = propertyValue(table, QStringLiteral("Non-uniform work-groups"));
    const QString scan = propertyValue(table, QStringLiteral("work_group_scan_exclusive_add"));
    QVERIFY2(nonUniform.startsWith(QStringLiteral("no (")), qPrintable(nonUniform));
    QVERIFY(nonUniform.contains(QString::fromStdString(listed->capabilities->nonUniformDetail)));
    QVERIFY2(scan.startsWith(QStringLiteral("no (")), qPrintable(scan));
    QVERIFY(scan.contains(QString::fromStdString(listed->capabilities->workGroupScanDetail)));
    // The extensions are one long list, wrapped in its cell.
    QVERIFY(table->wordWrap());
    QVERIFY(m_panel->statusLabel()->text().contains(QStringLiteral("device")));
}

void TestDevicePanel::copiesTheDeviceAsText() {
    QClipboard* clipboard = QGuiApplication::clipboard();
    if (!clipboard)
        QSKIP("this platform has no clipboard");
    clipboard->clear();
    const histlab::DeviceListing& first = m_panel->devices().front();
    m_panel->showDevice(first.info.index);
    QTest::mouseClick(m_panel->copyButton(), Qt::LeftButton);
    const QString text = clipboard->text();
    QVERIFY2(text.startsWith(QStringLiteral("device %1: %2")
                                 .arg(first.info.index)
                                 .arg(QString::fromStdString(first.info.name))),
             qPrintable(text.left(200)));
    QVERIFY(text.contains(QStringLiteral("Compute units: %1").arg(first.info.computeUnits)));
    QVERIFY(text.contains(QStringLiteral("Non-uniform work-groups: ")));
    QCOMPARE(text, m_panel->text());
}

void TestDevicePanel::exportsJson() {
    const QString file = path("devices.json");
    QVERIFY(m_panel->exportJsonTo(file).ok);
    QFile in(file);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(in.readAll(), &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonArray devices = doc.object().value(QStringLiteral("devices")).toArray();
    QCOMPARE(devices.size(), qsizetype(m_panel->devices().size()));
    const QJsonObject first = devices.first().toObject();
    QCOMPARE(first.value(QStringLiteral("name")).toString(),
             QString::fromStdString(m_panel->devices().front().info.name));
    QVERIFY(first.value(QStringLiteral("probes"))
                .toObject()
                .contains(QStringLiteral("work_group_scan_detail")));
    QVERIFY(first.value(QStringLiteral("max_work_item_sizes")).toArray().size() >= 3);

    // A folder that does not exist: the reason, and no file (nor a temporary one).
    QSignalSpy problems(m_panel, &DevicePanel::problem);
    const QString bad = path("nosuchfolder/devices.json");
    const histlab::ui::ExportResult failed = m_panel->exportJsonTo(bad);
    QVERIFY(!failed.ok);
    QVERIFY2(failed.message.contains(QStringLiteral("nosuchfolder")), qPrintable(failed.message));
    QCOMPARE(problems.count(), 1);
    QVERIFY(!QFile::exists(bad));
}

void TestDevicePanel::theWindowOpensTheTabs() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(&window, Qt::Key_D, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(window.tabs()->currentWidget(), window.panel<DevicePanel>());
    // The window's own listing reaches the tab (it lists the devices once, at the start).
    QTRY_VERIFY_WITH_TIMEOUT(!window.panel<DevicePanel>()->devices().empty(), kTimeoutMs);
    QTest::keyClick(&window, Qt::Key_D, Qt::ControlModifier);
    QCOMPARE(window.tabs()->currentWidget(), window.panel<DashboardPanel>());
    QTest::keyClick(&window, Qt::Key_D, Qt::ControlModifier); // again: back to the image
    QCOMPARE(window.tabs()->currentIndex(), 0);
}

QTEST_MAIN(TestDevicePanel)
#include "tst_devicepanel.moc"
