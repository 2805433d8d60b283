#pragma once
// The Log dock: what the core and the window reported (devices opened, kernels built with their
// options and build logs, autotune choices, runs, errors), newest at the bottom, filtered by
// level, cleared or copied. Messages come from Qt logging (the core's log reaches it through
// routeCoreLogToQt), from any thread; they are queued to the GUI thread.
#include <QDateTime>
#include <QObject>
#include <QString>
#include <QWidget>

#include <deque>

class QComboBox;
class QPlainTextEdit;

namespace histlab::ui {

struct LogEntry {
    QtMsgType type;
    QString category; ///< e.g. "histlab.core.build", "histlab.ui"
    QString text;
    QDateTime time;
};

/// Receives every Qt log message of the "histlab.*" categories (and any warning or error) once
/// install() has run, and re-emits it. The previous message handler still gets each message.
class LogHub : public QObject {
    Q_OBJECT
public:
    /// The process's hub, created (and the handler installed) on first use; lives as long as
    /// the QCoreApplication.
    static LogHub* instance();

signals:
    /// Emitted on the thread that logged; connect with the default (queued across threads).
    void logged(const histlab::ui::LogEntry& entry);

private:
    explicit LogHub(QObject* parent);
    ~LogHub() override;
};

class LogPanel : public QWidget {
    Q_OBJECT
public:
    /// Entries kept (older ones are dropped).
    static constexpr int maxEntries = 5000;

    explicit LogPanel(QWidget* parent = nullptr);

    void append(const LogEntry& entry);
    /// The text shown, one line per message (continuation lines indented).
    QString text() const;
    /// Shows only entries at or above this level: 0 all, 1 info and above, 2 warnings/errors.
    void setMinimumLevel(int level);
    void clear();

private:
    void refill();

    QComboBox* m_level;
    QPlainTextEdit* m_view;
    std::deque<LogEntry> m_entries;
};

} // namespace histlab::ui

Q_DECLARE_METATYPE(histlab::ui::LogEntry)
