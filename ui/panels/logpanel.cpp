#include "panels/logpanel.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>
#include <atomic>

namespace histlab::ui {

namespace {

std::atomic<LogHub*> g_hub{nullptr};
QtMessageHandler g_previous = nullptr;

void handleMessage(QtMsgType type, const QMessageLogContext& context, const QString& text) {
    if (g_previous)
        g_previous(type, context, text);
    LogHub* hub = g_hub.load();
    const QString category = QString::fromLatin1(context.category ? context.category : "default");
    const bool ours = category.startsWith(QLatin1String("histlab"));
    if (hub && (ours || type == QtWarningMsg || type == QtCriticalMsg || type == QtFatalMsg))
        emit hub->logged(LogEntry{type, category, text, QDateTime::currentDateTime()});
}

/// 0 debug, 1 info, 2 warning and worse (QtMsgType's order is not by severity).
int severity(QtMsgType type) {
    switch (type) {
    case QtDebugMsg:
        return 0;
    case QtInfoMsg:
        return 1;
    default:
        return 2;
    }
}

QString levelName(QtMsgType type) {
    switch (type) {
    case QtDebugMsg:
        return QStringLiteral("debug");
    case QtInfoMsg:
        return QStringLiteral("info");
    case QtWarningMsg:
        return QStringLiteral("warning");
    case QtCriticalMsg:
        return QStringLiteral("error");
    case QtFatalMsg:
        return QStringLiteral("fatal");
    }
    return QStringLiteral("?");
}

/// "12:03:04.123 info    build: built histogram256.cl …" with later lines indented.
QString format(const LogEntry& entry) {
    QString category = entry.category;
    for (const QLatin1String prefix : {QLatin1String("histlab.core."), QLatin1String("histlab.")})
        if (category.startsWith(prefix)) {
            category = category.mid(prefix.size());
            break;
        }
    QString text = entry.text;
    text.replace(QLatin1Char('\n'), QStringLiteral("\n    "));
    return QStringLiteral("%1 %2 %3: %4")
        .arg(entry.time.toString(QStringLiteral("HH:mm:ss.zzz")), levelName(entry.type), category,
             text);
}

} // namespace

LogHub::LogHub(QObject* parent)
    : QObject(parent) {
    qRegisterMetaType<LogEntry>();
    g_hub.store(this);
    g_previous = qInstallMessageHandler(handleMessage);
}

LogHub::~LogHub() {
    g_hub.store(nullptr);
    qInstallMessageHandler(g_previous);
}

LogHub* LogHub::instance() {
    static LogHub* hub = new LogHub(QCoreApplication::instance()); // deleted with the app
    return hub;
}

LogPanel::LogPanel(QWidget* parent)
    : QWidget(parent)
    , m_level(new QComboBox)
    , m_view(new QPlainTextEdit) {
    m_view->setReadOnly(true);
    m_view->setMaximumBlockCount(4 * maxEntries); // lines: a build log spans several
    m_view->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_view->setObjectName(QStringLiteral("logText"));
    m_level->addItems({tr("Everything"), tr("Info and above"), tr("Warnings and errors")});
    m_level->setCurrentIndex(1);
    m_level->setToolTip(tr("Which messages to show"));
    auto* clearButton = new QPushButton(tr("Clear"));
    clearButton->setToolTip(tr("Forget the messages so far"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Show:")));
    bar->addWidget(m_level);
    bar->addStretch(1);
    bar->addWidget(clearButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    connect(m_level, &QComboBox::currentIndexChanged, this, [this] { refill(); });
    connect(clearButton, &QPushButton::clicked, this, &LogPanel::clear);
    connect(LogHub::instance(), &LogHub::logged, this, &LogPanel::append);
}

void LogPanel::append(const LogEntry& entry) {
    m_entries.push_back(entry);
    if (m_entries.size() > std::size_t(maxEntries))
        m_entries.pop_front(); // the view trims itself (maximumBlockCount)
    if (severity(entry.type) < m_level->currentIndex())
        return;
    QScrollBar* scroll = m_view->verticalScrollBar();
    const bool atBottom = scroll->value() == scroll->maximum();
    m_view->appendPlainText(format(entry));
    if (atBottom) // follow the newest unless the person scrolled up to read
        scroll->setValue(scroll->maximum());
}

void LogPanel::refill() {
    QStringList lines;
    for (const LogEntry& entry : m_entries)
        if (severity(entry.type) >= m_level->currentIndex())
            lines << format(entry);
    m_view->setPlainText(lines.join(QLatin1Char('\n')));
    m_view->verticalScrollBar()->setValue(m_view->verticalScrollBar()->maximum());
}

QString LogPanel::text() const {
    return m_view->toPlainText();
}

void LogPanel::setMinimumLevel(int level) {
    m_level->setCurrentIndex(std::clamp(level, 0, m_level->count() - 1));
}

void LogPanel::clear() {
    m_entries.clear();
    m_view->clear();
}

} // namespace histlab::ui
