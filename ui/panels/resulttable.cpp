#include "panels/resulttable.h"

#include <QHeaderView>
#include <QTableWidget>

#include <algorithm>

namespace histlab::ui {

void setUpResultTable(QTableWidget* table, const QStringList& headers) {
    table->setColumnCount(int(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->setVisible(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setWordWrap(false);
}

int appendResultRow(QTableWidget* table, const QStringList& cells,
                    const std::function<QString(int column)>& toolTip,
                    std::initializer_list<int> rightAligned) {
    const int row = table->rowCount();
    table->insertRow(row);
    for (int c = 0; c < int(cells.size()); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        item->setToolTip(toolTip(c));
        if (std::find(rightAligned.begin(), rightAligned.end(), c) != rightAligned.end())
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(row, c, item);
    }
    return row;
}

void growColumnsToContents(QTableWidget* table) {
    const int last = table->columnCount() - 1;
    for (int c = 0; c < table->columnCount(); ++c) {
        if (c == last && table->horizontalHeader()->stretchLastSection())
            continue; // it takes what is left
        // The view's measure of the column's cells (public through the base class).
        const QAbstractItemView* view = table;
        const int wanted =
            std::max(view->sizeHintForColumn(c), table->horizontalHeader()->sectionSizeHint(c));
        if (wanted > table->columnWidth(c))
            table->setColumnWidth(c, wanted);
    }
}

void setUpFixedTable(QTableWidget* table) {
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->setWordWrap(false);
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    table->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void markRowStatus(QTableWidget* table, int row, Status status, int statusColumn,
                   std::initializer_list<int> alarmColumns) {
    if (status == Status::Unsupported) {
        // Expected where the device lacks something: the reason, in italics, not an error.
        for (int c = 0; c < table->columnCount(); ++c) {
            QTableWidgetItem* item = table->item(row, c);
            QFont italic = item->font();
            italic.setItalic(true);
            item->setFont(italic);
            item->setForeground(QColor(100, 100, 100));
        }
    } else if (statusOk(status)) {
        table->item(row, statusColumn)->setForeground(QColor(0, 0x80, 0));
    } else {
        for (int c : alarmColumns) {
            QTableWidgetItem* item = table->item(row, c);
            QFont bold = item->font();
            bold.setBold(true);
            item->setFont(bold);
            item->setForeground(QColor(0xc0, 0, 0));
        }
    }
}

QString gbpsText(double gbps) {
    return QString::number(gbps, 'f', gbps >= 100 ? 0 : 2);
}

QString msText(double ms) {
    return QString::number(ms, 'f', ms >= 100 ? 1 : ms >= 1 ? 3 : 4);
}

} // namespace histlab::ui
