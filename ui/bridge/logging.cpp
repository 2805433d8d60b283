#include "bridge/logging.h"

#include <runtime/log.h>

#include <QLocale>

#include <clocale>

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace histlab::ui {

Q_LOGGING_CATEGORY(lcUi, "histlab.ui")

namespace {

// QLoggingCategory keeps the name's pointer: the strings live as long as their category.
struct CoreCategory {
    std::string name;
    std::unique_ptr<QLoggingCategory> category;
};

const QLoggingCategory& coreCategory(const std::string& core) {
    static std::mutex mutex;
    static std::map<std::string, CoreCategory> categories;
    std::lock_guard lock(mutex);
    auto it = categories.find(core);
    if (it == categories.end()) {
        it = categories.emplace(core, CoreCategory{"histlab.core." + core, nullptr}).first;
        it->second.category = std::make_unique<QLoggingCategory>(it->second.name.c_str());
    }
    return *it->second.category;
}

} // namespace

void routeCoreLogToQt() {
    setLogLevel(LogLevel::Info);
    setLogSink([](const LogMessage& m) {
        const QLoggingCategory& category = coreCategory(m.category);
        const QString text = QString::fromStdString(m.text);
        switch (m.level) {
        case LogLevel::Debug:
            qCDebug(category).noquote() << text;
            break;
        case LogLevel::Info:
            qCInfo(category).noquote() << text;
            break;
        case LogLevel::Warning:
            qCWarning(category).noquote() << text;
            break;
        case LogLevel::Error:
            qCCritical(category).noquote() << text;
            break;
        }
    });
}

void useCNumbers() {
    std::setlocale(LC_NUMERIC, "C");
    QLocale::setDefault(QLocale::c());
}

} // namespace histlab::ui
