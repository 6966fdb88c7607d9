// Skipped checks are counted, not hidden: a test case that cannot run its check here (a shared mesh
// absent, a measurement a sanitizer distorts) calls note_skip with the reason. At the end of the run
// the binary prints "LABEL: N of M cases skipped: REASON" per reason (tests/main.cpp), and appends
// the same lines to the file $NAV_TEST_SUMMARY names, for scripts/test.sh's closing summary.
#pragma once
#include <string>

namespace navtest {
void note_skip(const std::string& reason);
}  // namespace navtest
