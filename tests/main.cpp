#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include "skip.h"

#ifndef NAV_TEST_LABEL
#define NAV_TEST_LABEL "tests"
#endif

namespace navtest {
namespace {

struct SkipLog {
    std::mutex mutex;
    std::string current;                 // reason the running case skipped, "" none
    std::map<std::string, int> skipped;  // reason -> cases
};
SkipLog& skip_log() {
    static SkipLog log;
    return log;
}

// Counts the test cases that ran and, per reason, those that skipped their check.
struct SkipCounter : doctest::IReporter {
    explicit SkipCounter(const doctest::ContextOptions&) {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats& stats) override {
        SkipLog& log = skip_log();
        std::string lines;
        const unsigned ran = stats.numTestCasesPassingFilters;
        if (log.skipped.empty()) {
            lines = std::string(NAV_TEST_LABEL) + ": " + std::to_string(ran) + " cases, none skipped\n";
        } else {
            for (const auto& [reason, n] : log.skipped)
                lines += std::string(NAV_TEST_LABEL) + ": " + std::to_string(n) + " of " + std::to_string(ran) +
                         " cases skipped: " + reason + "\n";
        }
        std::fputs(lines.c_str(), stdout);
        if (const char* path = std::getenv("NAV_TEST_SUMMARY"); path && *path) {
            if (std::FILE* f = std::fopen(path, "a")) {
                std::fputs(lines.c_str(), f);
                std::fclose(f);
            }
        }
    }
    void test_case_start(const doctest::TestCaseData&) override { skip_log().current.clear(); }
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats&) override {
        SkipLog& log = skip_log();
        std::lock_guard<std::mutex> lock(log.mutex);
        if (!log.current.empty()) ++log.skipped[log.current];
        log.current.clear();
    }
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}
};

}  // namespace

void note_skip(const std::string& reason) {
    SkipLog& log = skip_log();
    std::lock_guard<std::mutex> lock(log.mutex);
    log.current = reason;
}

}  // namespace navtest

DOCTEST_REGISTER_LISTENER("skip_counter", 1, navtest::SkipCounter);
