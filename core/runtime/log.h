#pragma once
// The core's one logger: categories ("device", "build", "run", ...) and a replaceable sink, so
// the GUI can route messages to its log panel and the CLI to stderr. Never printf in the core.
#include <functional>
#include <string>

namespace histlab {

enum class LogLevel { Debug, Info, Warning, Error };

struct LogMessage {
    LogLevel level;
    std::string category;
    std::string text;
};

using LogSink = std::function<void(const LogMessage&)>;

/// Replaces the sink (thread-safe); an empty sink drops messages. Returns the previous sink.
LogSink setLogSink(LogSink sink);

/// Messages below this level are dropped before they reach the sink (default Warning).
void setLogLevel(LogLevel level);

/// Sends one message to the sink; callable from any thread.
void log(LogLevel level, const std::string& category, const std::string& text);

inline void logDebug(const std::string& c, const std::string& t) {
    log(LogLevel::Debug, c, t);
}
inline void logInfo(const std::string& c, const std::string& t) {
    log(LogLevel::Info, c, t);
}
inline void logWarning(const std::string& c, const std::string& t) {
    log(LogLevel::Warning, c, t);
}

const char* logLevelName(LogLevel level);

} // namespace histlab
