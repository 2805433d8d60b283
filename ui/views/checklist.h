#pragma once
// A list of checkable items: what a run is made of where several can be chosen (the dashboard's
// devices and pipelines, the experiments' devices and data). Devices come from the worker's
// listing; the list never asks OpenCL itself.
#include <runtime/device.h>

#include <QListWidget>
#include <QString>
#include <QStringList>

#include <vector>

namespace histlab::ui {

class CheckList : public QListWidget {
    Q_OBJECT
public:
    explicit CheckList(QWidget* parent = nullptr);

    /// Adds an item with a check box.
    QListWidgetItem* addCheckable(const QString& text, bool checked, const QString& toolTip = {});
    /// The texts of the checked items, in the list's order.
    QStringList checkedTexts() const;
    /// Checks exactly the items whose text is in `texts`.
    void setCheckedTexts(const QStringList& texts);

    /// Lists `devices` as "index: name" (Qt::UserRole: the DeviceInfo::index, the tooltip: the
    /// name). Checked: those named in `chosen` when any of them is listed, else the default
    /// device (selectDevice's "auto": the first GPU, else the first device).
    void setDevices(const std::vector<DeviceListing>& devices, const QStringList& chosen = {});
    /// The checked devices' indices and names (empty before the listing arrived).
    std::vector<int> checkedDevices() const;
    QStringList checkedDeviceNames() const;
};

} // namespace histlab::ui
