#include "panels/devicepanel.h"
#include "common/settings.h"
#include "views/tablecopy.h"

#include "bridge/logging.h"

#include <report/report.h>

#include <QClipboard>
#include <QDir>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace histlab::ui {

namespace {

constexpr int kIndexRole = Qt::UserRole; // a device item's DeviceInfo::index

QString deviceLabel(const DeviceInfo& d) {
    return QStringLiteral("%1: %2 [%3]")
        .arg(d.index)
        .arg(QString::fromStdString(d.name), QString::fromLatin1(deviceTypeName(d.type)));
}

/// A byte count as the core lists it, "23128674304 (22586596 KiB)", as a person reads it:
/// "21.5 GiB (23,128,674,304 bytes)". Other values are left as they are.
QString readableBytes(const QString& value) {
    static const QRegularExpression bytes(QStringLiteral("^(\\d+) \\([\\d.]+ ?(B|[KMGTPE]iB)\\)$"));
    const QRegularExpressionMatch match = bytes.match(value);
    if (!match.hasMatch())
        return value;
    const quint64 n = match.captured(1).toULongLong();
    const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    double size = double(n);
    int unit = -1;
    while (size >= 1024 && unit < 3) {
        size /= 1024;
        ++unit;
    }
    const QString bytesText = QObject::tr("%1 bytes").arg(groupedCount(n));
    if (unit < 0)
        return bytesText;
    QString number = QString::number(size, 'f', 1);
    if (number.endsWith(QLatin1String(".0")))
        number.chop(2); // "64 KiB", not "64.0 KiB"
    return QStringLiteral("%1 %2 (%3)").arg(number, QString::fromLatin1(units[unit]), bytesText);
}

} // namespace

DevicePanel::DevicePanel(JobBridge* bridge, QWidget* parent)
    : QWidget(parent)
    , m_bridge(bridge)
    , m_tree(new QTreeWidget)
    , m_table(new QTableWidget)
    , m_refresh(new QPushButton(tr("&Refresh")))
    , m_copy(new QPushButton(tr("&Copy as Text")))
    , m_export(new QPushButton(tr("Export &JSON…")))
    , m_status(new QLabel) {
    m_tree->setHeaderLabel(tr("Platforms and devices"));
    m_tree->setMinimumWidth(220);
    // A device's name is what tells it: the column takes its width, the tree scrolls.
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);
    m_tree->setRootIsDecorated(true);
    m_refresh->setToolTip(tr("List the devices again and run HistLab's probes"));
    m_copy->setToolTip(tr("The shown device's properties as text on the clipboard (every "
                          "device when none is chosen)"));
    m_export->setToolTip(tr("Every device as JSON, as histlab-cli devices --json prints it"));
    m_copy->setEnabled(false);
    m_export->setEnabled(false);
    m_status->setWordWrap(true);
    m_status->setText(tr("listing devices…"));

    m_table->setColumnCount(2);
    m_table->setHorizontalHeaderLabels({tr("property"), tr("value")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(true); // the extensions are a long list: wrapped at the spaces

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_refresh);
    buttons->addWidget(m_copy);
    buttons->addWidget(m_export);
    buttons->addStretch(1);
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_tree, 1);
    leftLayout->addWidget(m_status);
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(left);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(splitter, 1);

    connect(m_refresh, &QPushButton::clicked, this, &DevicePanel::refresh);
    connect(m_copy, &QPushButton::clicked, this, &DevicePanel::copyText);
    connect(m_export, &QPushButton::clicked, this, &DevicePanel::chooseExportJson);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        const int index = item ? item->data(0, kIndexRole).toInt() : -1;
        const DeviceListing* shown = nullptr;
        for (const DeviceListing& d : m_devices)
            if (item && item->data(0, kIndexRole).isValid() && d.info.index == index)
                shown = &d;
        fillTable(shown);
    });
    connect(m_bridge, &JobBridge::devicesListed, this,
            [this](quint64, const std::vector<DeviceListing>& devices) { setDevices(devices); });
    connect(m_bridge, &JobBridge::devicesFailed, this, [this](quint64, const JobError& error) {
        const QString message = tr("No device list: %1").arg(QString::fromStdString(error.message));
        setStatus(message, true);
        m_refresh->setEnabled(true);
        emit problem(message);
    });
}

void DevicePanel::refresh() {
    m_refresh->setEnabled(false);
    setStatus(tr("listing devices…"));
    m_bridge->listDevices();
}

void DevicePanel::setDevices(const std::vector<DeviceListing>& devices) {
    const int previous = currentDevice();
    m_devices = devices;
    m_tree->clear();
    std::map<int, QTreeWidgetItem*> platforms;
    QTreeWidgetItem* select = nullptr;
    for (const DeviceListing& d : m_devices) {
        QTreeWidgetItem*& platform = platforms[d.info.platformIndex];
        if (!platform) {
            platform = new QTreeWidgetItem(m_tree, {QString::fromStdString(d.info.platformName)});
            platform->setToolTip(0, QString::fromStdString(d.info.platformVersion));
            platform->setFlags(platform->flags() & ~Qt::ItemIsSelectable);
        }
        auto* item = new QTreeWidgetItem(platform, {deviceLabel(d.info)});
        item->setData(0, kIndexRole, d.info.index);
        item->setToolTip(
            0, QString::fromStdString(d.info.deviceVersion + ", " + d.info.driverVersion));
        if (!select || d.info.index == previous)
            select = item;
    }
    m_tree->expandAll();
    // As wide as the longest name, within reason: the table beside it needs room too.
    int widest = 0;
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it)
        widest = std::max(widest, m_tree->fontMetrics().horizontalAdvance((*it)->text(0)) +
                                      ((*it)->parent() ? 2 : 1) * m_tree->indentation());
    const int wanted = widest + 2 * m_tree->frameWidth() + 8 +
                       m_tree->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    m_tree->setMinimumWidth(std::clamp(wanted, 220, 480));
    m_tree->setCurrentItem(select);
    if (!select)
        fillTable(nullptr);
    m_refresh->setEnabled(true);
    m_copy->setEnabled(!m_devices.empty());
    m_export->setEnabled(!m_devices.empty());
    const bool probed = std::all_of(m_devices.begin(), m_devices.end(), [](const DeviceListing& d) {
        return d.probes == ProbeState::Run;
    });
    setStatus(tr("%n device(s)", nullptr, int(m_devices.size())) +
              tr(" on %n platform(s)", nullptr, int(platforms.size())) +
              (probed ? QString() : tr("; probing them in the background…")));
    emit devicesShown();
}

int DevicePanel::currentDevice() const {
    const QTreeWidgetItem* item = m_tree->currentItem();
    return item && item->data(0, kIndexRole).isValid() ? item->data(0, kIndexRole).toInt() : -1;
}

void DevicePanel::showDevice(int index) {
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it)
        if ((*it)->data(0, kIndexRole).isValid() && (*it)->data(0, kIndexRole).toInt() == index)
            m_tree->setCurrentItem(*it);
}

void DevicePanel::fillTable(const DeviceListing* device) {
    m_table->clearSpans();
    m_table->setRowCount(0);
    if (!device)
        return;
    std::string group;
    for (const DeviceProperty& p : deviceProperties(*device)) {
        int row = m_table->rowCount();
        if (p.group != group) { // a heading row across both columns
            group = p.group;
            m_table->insertRow(row);
            auto* heading = new QTableWidgetItem(QString::fromStdString(group));
            QFont bold = heading->font();
            bold.setBold(true);
            heading->setFont(bold);
            heading->setBackground(palette().alternateBase());
            m_table->setItem(row, 0, heading);
            m_table->setSpan(row, 0, 1, 2);
            ++row;
        }
        m_table->insertRow(row);
        auto* name = new QTableWidgetItem(QString::fromStdString(p.name));
        auto* value = new QTableWidgetItem(readableBytes(QString::fromStdString(p.value)));
        value->setToolTip(QString::fromStdString(p.value));
        // The probes decide which variants run: their answer stands out.
        if (p.group.rfind("HistLab", 0) == 0)
            value->setForeground(p.value.rfind("yes", 0) == 0 ? QColor(0, 0x80, 0)
                                                              : QColor(0xa0, 0x40, 0));
        m_table->setItem(row, 0, name);
        m_table->setItem(row, 1, value);
    }
    m_table->resizeRowsToContents();
}

QString DevicePanel::text() const {
    const int index = currentDevice();
    std::vector<DeviceListing> chosen;
    for (const DeviceListing& d : m_devices)
        if (index < 0 || d.info.index == index)
            chosen.push_back(d);
    return QString::fromStdString(devicesText(chosen));
}

void DevicePanel::copyText() {
    QGuiApplication::clipboard()->setText(text());
    setStatus(currentDevice() >= 0 ? tr("Device %1 copied to the clipboard").arg(currentDevice())
                                   : tr("Every device copied to the clipboard"));
}

void DevicePanel::chooseExportJson() {
    const QString path = askSavePath(m_saveChooser, this, tr("Export Devices as JSON"),
                                     QDir::home().filePath(QStringLiteral("devices.json")),
                                     tr("JSON (*.json);;All files (*)"));
    if (!path.isEmpty())
        exportJsonTo(path);
}

ExportResult DevicePanel::exportJsonTo(const QString& path) {
    ExportResult result =
        m_devices.empty()
            ? ExportResult::failure(tr("%1: nothing to export yet (no device listed)").arg(path))
            : writeFileSafely(path, QByteArray::fromStdString(devicesJson(m_devices)));
    if (!result.ok) {
        setStatus(result.message, true);
        qCWarning(lcUi).noquote() << "devices tab:" << result.message;
        emit problem(result.message);
        return result;
    }
    setStatus(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
    return result;
}

void DevicePanel::setStatus(const QString& text, bool bad) {
    m_status->setText(text);
    m_status->setStyleSheet(bad ? errorStyle() : QString());
}

} // namespace histlab::ui
