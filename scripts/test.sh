#!/usr/bin/env bash
# Installs what is missing, builds and runs every test: the release build (unit, property,
# end-to-end, differential against Recast, navdebug screenshots under Xvfb), then the unit and
# differential tests again under AddressSanitizer + UBSan, then each libFuzzer target for a bounded
# time (FUZZ_SECONDS, default 40) under ASan + UBSan when clang is there.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc)

echo "== release build"
cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs"

echo "== asan + ubsan build"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs" --target navtests navdiff navdiff2d navbake
# (the screenshots and the 7 M-span large level, large_scene and stress_large, run in the release build only)
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan -j "$jobs" -E "screenshots|large_scene|stress_large"

echo "== tsan build (navtests only): the pipeline and the tiled bake driven from several threads"
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j "$jobs" --target navtests
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  build/tsan/tests/navtests -tc='tiles:*,tiles threads:*,pipeline:*' -tce='*navbake*'

if command -v clang++ >/dev/null 2>&1; then
  echo "== fuzz (libFuzzer, ASan + UBSan + float-cast-overflow)"
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz -j "$jobs" --target fuzz_obj fuzz_config fuzz_pairs fuzz_pipeline fuzz_session fuzz_map2d
  secs=${FUZZ_SECONDS:-40}
  for t in obj config pairs pipeline session map2d; do
    work="build/fuzz/corpus_$t"  # what the run finds stays out of the tree; the seeds are in it
    mkdir -p "$work"
    log="build/fuzz/fuzz_$t.log"
    if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
         "build/fuzz/tests/fuzz/fuzz_$t" -max_total_time="$secs" -max_len=4096 -timeout=20 -rss_limit_mb=2048 \
         -artifact_prefix="build/fuzz/$t-" "$work" "tests/fuzz/corpus/$t" >"$log" 2>&1; then
      echo "fuzz_$t: FOUND A PROBLEM (build/fuzz/$t-* holds the input):"
      grep -E "ERROR|runtime error|SUMMARY" "$log" | head -5
      exit 1
    fi
    echo "fuzz_$t: $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1)s, no finding"
  done
else
  echo "== fuzz skipped: clang++ not installed (scripts/setup.sh installs it)"
fi
