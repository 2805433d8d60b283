#include "views/checklist.h"

#include <algorithm>

namespace histlab::ui {

CheckList::CheckList(QWidget* parent)
    : QListWidget(parent) {}

QListWidgetItem* CheckList::addCheckable(const QString& text, bool checked,
                                         const QString& toolTip) {
    auto* item = new QListWidgetItem(text);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    if (!toolTip.isEmpty())
        item->setToolTip(toolTip);
    addItem(item);
    return item;
}

QStringList CheckList::checkedTexts() const {
    QStringList texts;
    for (int i = 0; i < count(); ++i)
        if (item(i)->checkState() == Qt::Checked)
            texts << item(i)->text();
    return texts;
}

void CheckList::setCheckedTexts(const QStringList& texts) {
    for (int i = 0; i < count(); ++i)
        item(i)->setCheckState(texts.contains(item(i)->text()) ? Qt::Checked : Qt::Unchecked);
}

void CheckList::setDevices(const std::vector<DeviceListing>& devices, const QStringList& chosen) {
    std::vector<DeviceInfo> infos;
    for (const DeviceListing& d : devices)
        infos.push_back(d.info);
    int preferred = -1;
    try {
        preferred = selectDevice("auto", infos);
    } catch (const std::exception&) {
        // none: nothing is checked, and Run says why
    }
    const bool remembered = std::any_of(infos.begin(), infos.end(), [&](const DeviceInfo& d) {
        return chosen.contains(QString::fromStdString(d.name));
    });
    clear();
    for (const DeviceInfo& d : infos) {
        const QString name = QString::fromStdString(d.name);
        QListWidgetItem* item =
            addCheckable(QStringLiteral("%1: %2").arg(d.index).arg(name),
                         remembered ? chosen.contains(name) : d.index == preferred, name);
        item->setData(Qt::UserRole, d.index);
    }
}

std::vector<int> CheckList::checkedDevices() const {
    std::vector<int> indices;
    for (int i = 0; i < count(); ++i)
        if (item(i)->checkState() == Qt::Checked && item(i)->data(Qt::UserRole).isValid())
            indices.push_back(item(i)->data(Qt::UserRole).toInt());
    return indices;
}

QStringList CheckList::checkedDeviceNames() const {
    QStringList names;
    for (int i = 0; i < count(); ++i)
        if (item(i)->checkState() == Qt::Checked && item(i)->data(Qt::UserRole).isValid())
            names << item(i)->toolTip();
    return names;
}

} // namespace histlab::ui
