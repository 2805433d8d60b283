#pragma once
// The Devices tab: every OpenCL platform and its devices as a tree, and the chosen
// device's properties as a table grouped as a device query shows them (name, vendor, driver,
// versions, compute units, clock, work-group and work-item sizes, local, constant and global
// memory, largest buffer, vector widths, OpenCL 3.0's optional features as reported, extensions)
// with HistLab's own probes (non-uniform work-groups, work_group_scan_exclusive_add: compiled
// and run on the device) and their detail. The rows come from the core (deviceProperties); the
// devices come from the worker (JobBridge::listDevices): the tab never calls OpenCL.
// Copy as Text puts devicesText on the clipboard; Export JSON writes devicesJson, what
// `histlab-cli devices --json` prints, through a temporary file and a rename.
#include "bridge/jobbridge.h"
#include "common/exportdialog.h"
#include "common/exporter.h"

#include <QString>
#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;
class QTreeWidget;

namespace histlab::ui {

class DevicePanel : public QWidget {
    Q_OBJECT
public:
    /// Listens to the bridge's device listings (devicesListed, devicesFailed).
    explicit DevicePanel(JobBridge* bridge, QWidget* parent = nullptr);

    /// What the worker listed last.
    const std::vector<DeviceListing>& devices() const { return m_devices; }
    /// The device whose properties are shown (its DeviceInfo::index), or -1.
    int currentDevice() const;
    /// Shows the properties of the device of this index (selects it in the tree).
    void showDevice(int index);

    /// The text Copy as Text puts on the clipboard: the shown device, or every device when none
    /// is chosen (the core's devicesText).
    QString text() const;
    /// Writes devicesJson of every listed device to `path` (a temporary file and a rename).
    ExportResult exportJsonTo(const QString& path);
    /// How Export JSON asks for a file (QFileDialog by default; tests inject theirs).
    void setSaveFileChooser(FileChooser chooser) { m_saveChooser = std::move(chooser); }

    QTreeWidget* tree() const { return m_tree; }
    QTableWidget* propertyTable() const { return m_table; }
    QPushButton* refreshButton() const { return m_refresh; }
    QPushButton* copyButton() const { return m_copy; }
    QPushButton* exportButton() const { return m_export; }
    QLabel* statusLabel() const { return m_status; }

public slots:
    /// Lists the devices again (on the worker; the answer arrives as devicesListed).
    void refresh();
    /// Copy as Text: text() on the clipboard.
    void copyText();
    /// Export JSON: asks for a file, then exportJsonTo().
    void chooseExportJson();

signals:
    /// A new listing is shown.
    void devicesShown();
    /// Export failed, or the devices could not be listed: the reason.
    void problem(const QString& message);

private:
    void setDevices(const std::vector<DeviceListing>& devices);
    void fillTable(const DeviceListing* device);
    void setStatus(const QString& text, bool bad = false);

    JobBridge* m_bridge;
    QTreeWidget* m_tree;
    QTableWidget* m_table;
    QPushButton* m_refresh;
    QPushButton* m_copy;
    QPushButton* m_export;
    QLabel* m_status;
    std::vector<DeviceListing> m_devices;
    FileChooser m_saveChooser = nativeSaveFileChooser();
};

} // namespace histlab::ui
