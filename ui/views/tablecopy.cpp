#include "views/tablecopy.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLocale>
#include <QTableWidget>

#include <set>

namespace histlab::ui {

namespace {

/// A cell's text as one field: tabs and line breaks inside it would split the row.
QString field(QString text) {
    text.replace(QLatin1Char('\t'), QLatin1Char(' '));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text;
}

QString headerText(const QTableWidget& table, Qt::Orientation orientation, int section) {
    return field(table.model()->headerData(section, orientation, Qt::DisplayRole).toString());
}

/// Ctrl+C reaches the view as a key press when the view claims the shortcut for itself (it
/// would copy the current cell only): the selection is copied instead.
class CopyKeyFilter : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override {
        auto* table = qobject_cast<QTableWidget*>(watched);
        if (table && event->type() == QEvent::KeyPress &&
            static_cast<QKeyEvent*>(event)->matches(QKeySequence::Copy)) {
            QGuiApplication::clipboard()->setText(tableText(*table, true));
            return true;
        }
        return QObject::eventFilter(watched, event);
    }
};

} // namespace

QString groupedCount(quint64 count) {
    static const QLocale english(QLocale::English, QLocale::UnitedStates);
    return english.toString(qulonglong(count)); // English groups with commas by default
}

QString tableText(const QTableWidget& table, bool selectedOnly) {
    std::set<int> rows, columns;
    if (selectedOnly && table.selectionModel()) {
        for (const QModelIndex& index : table.selectionModel()->selectedIndexes()) {
            rows.insert(index.row());
            columns.insert(index.column());
        }
    }
    if (rows.empty()) {
        for (int r = 0; r < table.rowCount(); ++r)
            rows.insert(r);
        for (int c = 0; c < table.columnCount(); ++c)
            columns.insert(c);
    }
    const bool rowHeaders = !table.verticalHeader()->isHidden();
    QStringList lines;
    QStringList header;
    if (rowHeaders)
        header << QString();
    for (int c : columns)
        header << headerText(table, Qt::Horizontal, c);
    lines << header.join(QLatin1Char('\t'));
    for (int r : rows) {
        QStringList cells;
        if (rowHeaders)
            cells << headerText(table, Qt::Vertical, r);
        for (int c : columns) {
            const QTableWidgetItem* item = table.item(r, c);
            const QVariant copied = item ? item->data(kCopyTextRole) : QVariant();
            cells << (item ? field(copied.isValid() ? copied.toString() : item->text())
                           : QString());
        }
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void enableTableCopy(QTableWidget* table) {
    auto* copy = new QAction(QObject::tr("&Copy"), table);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    copy->setStatusTip(QObject::tr("The selected cells (all when none is) as tab-separated text"));
    QObject::connect(copy, &QAction::triggered, table,
                     [table] { QGuiApplication::clipboard()->setText(tableText(*table, true)); });
    auto* copyAll = new QAction(QObject::tr("Copy &Table"), table);
    copyAll->setStatusTip(QObject::tr("Every cell, with the headers, as tab-separated text"));
    QObject::connect(copyAll, &QAction::triggered, table,
                     [table] { QGuiApplication::clipboard()->setText(tableText(*table, false)); });
    table->installEventFilter(new CopyKeyFilter(table));
    table->addAction(copy);
    table->addAction(copyAll);
    table->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace histlab::ui
