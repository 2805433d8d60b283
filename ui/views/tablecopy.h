#pragma once
// Copying a table's cells as a spreadsheet takes them: tab-separated text, one line per row,
// with the column headers (and the row headers, where the table shows them) around the cells.
#include <QString>

class QTableWidget;

namespace histlab::ui {

/// The cells of `table` as tab-separated lines: the header line first, then each row (its row
/// header first when the vertical header is shown). With `selectedOnly`, only the rows and
/// columns that hold a selected cell (the whole table when nothing is selected).
QString tableText(const QTableWidget& table, bool selectedOnly);

/// Gives `table` Copy (Ctrl+C while it has focus: the selected cells, or all of them when none
/// is selected) and Copy Table (every cell), both also in its context menu; the text is
/// tableText()'s, on the clipboard.
void enableTableCopy(QTableWidget* table);

} // namespace histlab::ui
