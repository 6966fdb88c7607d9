// A benchmark step that must succeed (a parameter or input set, a navmesh built): the benchmark
// stops with the reason and exit 1 rather than time what a failed step left behind.
#pragma once
#include <cstdio>
#include <cstdlib>

#include "core/common.h"

inline void bench_must(const nav::Status& st, const char* what) {
    if (st) return;
    std::fprintf(stderr, "benchmark step failed: %s: %s\n", what, st.message.c_str());
    std::exit(1);
}
