#pragma once
// The UI's logging categories, and the bridge that routes the core's log sink into Qt logging
// (category "histlab.core.<core category>", so QT_LOGGING_RULES can filter them).
#include <QLoggingCategory>

namespace histlab::ui {

Q_DECLARE_LOGGING_CATEGORY(lcUi)

/// Installs a core log sink that forwards every message to Qt logging (from any thread) and
/// lets Info and above through the core's own filter.
void routeCoreLogToQt();

} // namespace histlab::ui
