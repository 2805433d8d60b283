#include "common/settings.h"

namespace histlab::ui {

QSettings histlabSettings() {
    return QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab"));
}

QString errorColor() {
    return QStringLiteral("#c00000");
}

QString errorStyle() {
    return QStringLiteral("color: %1; font-weight: bold;").arg(errorColor());
}

} // namespace histlab::ui
