#pragma once
// What the panels' tables of results share: their look (one row per measurement, read-only,
// whole rows selected), the colours of a row's status, and how times and rates are written.
#include <report/status.h>

#include <QString>
#include <QStringList>

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <vector>

class QTableWidget;

namespace histlab::ui {

/// A read-only table of results with these column headers, the last column stretched.
void setUpResultTable(QTableWidget* table, const QStringList& headers);

/// Appends a row of `cells`, each with the tooltip `toolTip` gives for its column, the
/// columns in `rightAligned` aligned right (numbers); returns the row.
int appendResultRow(QTableWidget* table, const QStringList& cells,
                    const std::function<QString(int column)>& toolTip,
                    std::initializer_list<int> rightAligned = {});

/// A small read-only table shown whole in the controls column: no selection, no scroll bars,
/// as tall as its rows.
void setUpFixedTable(QTableWidget* table);

/// Colours row `row` by its status: an unsupported row in gray italics (an expected outcome,
/// with its reason), a row that ran well with its status in green, any other (a mismatch, a
/// failure, not applicable) with `alarmColumns` in bold red.
void markRowStatus(QTableWidget* table, int row, Status status, int statusColumn,
                   std::initializer_list<int> alarmColumns);

/// The highest GB/s among `rows` that ran (their status says so), and `floor`: the top of a
/// plot of them above a reference line at `floor`.
template <typename Row> double highestGbps(const std::vector<Row>& rows, double floor) {
    for (const Row& row : rows)
        if (statusRan(row.status))
            floor = std::max(floor, row.gbps);
    return floor;
}

/// Widens each column to its text as rows arrive, never narrowing one: a table filled while a
/// run goes on neither cuts a longer cell to "…" nor jumps back and forth (the last column,
/// stretched, takes what is left).
void growColumnsToContents(QTableWidget* table);
/// A rate in GB/s: no decimals from 100 up, else two.
QString gbpsText(double gbps);
/// Milliseconds: one decimal from 100 up, three from 1 up, else four.
QString msText(double ms);

} // namespace histlab::ui
