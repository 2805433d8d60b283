#pragma once
// Copying a table's cells as a spreadsheet takes them: tab-separated text, one line per row,
// with the column headers (and the row headers, where the table shows them) around the cells.
#include <QString>
#include <QtGlobal>

class QTableWidget;

namespace histlab::ui {

/// A cell's text for copying, when it differs from the text shown (a count shown with its
/// thousands grouped is copied without, so that a spreadsheet reads it as a number).
constexpr int kCopyTextRole = Qt::UserRole + 100;

/// A count as the window shows it: digits grouped by thousands with commas ("24,000,000"),
/// whatever the locale, as the window's numbers take a decimal point whatever the locale.
QString groupedCount(quint64 count);

/// The cells of `table` as tab-separated lines: the header line first, then each row (its row
/// header first when the vertical header is shown); a cell's kCopyTextRole where it has one. With
/// `selectedOnly`, only the rows and columns that hold a selected cell (the whole table when
/// nothing is selected).
QString tableText(const QTableWidget& table, bool selectedOnly);

/// Gives `table` Copy (Ctrl+C while it has focus: the selected cells, or all of them when none
/// is selected) and Copy Table (every cell), both also in its context menu; the text is
/// tableText()'s, on the clipboard.
void enableTableCopy(QTableWidget* table);

} // namespace histlab::ui
