#pragma once
// The UI's logging categories, and the bridge that routes the core's log sink into Qt logging
// (category "histlab.core.<core category>", so QT_LOGGING_RULES can filter them).
#include <QLoggingCategory>

namespace histlab::ui {

Q_DECLARE_LOGGING_CATEGORY(lcUi)

/// Numbers in the window's process read and written as everywhere else in HistLab: with a
/// point. Qt sets the C library's locale from the environment (LC_ALL=de_DE.UTF-8: a decimal
/// comma), which the core's C parsing and formatting (strtod, snprintf) would then follow,
/// so that a panel's "0.5M" read as 0 and sizes printed as "1,5 KiB"; the numeric part is put
/// back to "C", as Qt's documentation advises, and QLocale's default too, so that the plots'
/// axes agree with the tables and the exported files. Call after the QApplication is made.
void useCNumbers();

/// Installs a core log sink that forwards every message to Qt logging (from any thread) and
/// lets Info and above through the core's own filter.
void routeCoreLogToQt();

} // namespace histlab::ui
