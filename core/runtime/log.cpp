#include "runtime/log.h"

#include <iostream>
#include <mutex>

namespace histlab {
namespace {
std::mutex g_mutex;
LogLevel g_level = LogLevel::Warning;
LogSink g_sink = [](const LogMessage& m) {
    std::cerr << "histlab." << m.category << ": " << logLevelName(m.level) << ": " << m.text
              << '\n';
};
} // namespace

LogSink setLogSink(LogSink sink) {
    std::lock_guard lock(g_mutex);
    std::swap(g_sink, sink);
    return sink;
}

void setLogLevel(LogLevel level) {
    std::lock_guard lock(g_mutex);
    g_level = level;
}

void log(LogLevel level, const std::string& category, const std::string& text) {
    std::lock_guard lock(g_mutex);
    if (level < g_level || !g_sink)
        return;
    g_sink(LogMessage{level, category, text});
}

const char* logLevelName(LogLevel level) {
    switch (level) {
    case LogLevel::Debug:
        return "debug";
    case LogLevel::Info:
        return "info";
    case LogLevel::Warning:
        return "warning";
    case LogLevel::Error:
        return "error";
    }
    return "?";
}

} // namespace histlab
