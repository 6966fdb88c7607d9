#include "log.h"

#include <cstdio>
#include <ctime>

namespace navdebug {

namespace {
std::string clock_stamp() {
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
    return buf;
}
}  // namespace

void Log::add(LogLevel level, std::string text) {
    LogLine line{clock_stamp(), level, std::move(text)};
    std::lock_guard lk(m_);
    if (echo_) {
        static constexpr const char* tags[3] = {"", "warning: ", "error: "};
        std::fprintf(stderr, "[%s] %s%s\n", line.stamp.c_str(), tags[static_cast<int>(level)], line.text.c_str());
    }
    lines_.push_back(std::move(line));
}

void Log::fetch(size_t& seen, std::vector<LogLine>& out) const {
    std::lock_guard lk(m_);
    for (; seen < lines_.size(); ++seen) out.push_back(lines_[seen]);
}

void Log::set_echo(bool on) {
    std::lock_guard lk(m_);
    echo_ = on;
}

}  // namespace navdebug
