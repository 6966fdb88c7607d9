// Thread-safe message log with timestamps (loads, bakes, errors), shown in the log panel.
#pragma once
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

namespace navdebug {

enum class LogLevel { Info, Warn, Error };

struct LogLine {
    std::string stamp;  // local wall-clock time, HH:MM:SS.mmm
    LogLevel level = LogLevel::Info;
    std::string text;
};

class Log {
public:
    void add(LogLevel level, std::string text);
    void info(std::string text) { add(LogLevel::Info, std::move(text)); }
    void warn(std::string text) { add(LogLevel::Warn, std::move(text)); }
    void error(std::string text) { add(LogLevel::Error, std::move(text)); }
    // Appends lines added since `seen` to out and advances seen.
    void fetch(size_t& seen, std::vector<LogLine>& out) const;
    // Also print every line to stderr (headless screenshot runs).
    void set_echo(bool on);

private:
    mutable std::mutex m_;
    std::vector<LogLine> lines_;
    bool echo_ = false;
};

}  // namespace navdebug
