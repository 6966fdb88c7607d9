#!/usr/bin/env bash
# Installs what is missing, builds and runs every test, phase by phase, each phase's time printed:
#   release   build, then ctest: unit, property, end-to-end, differential against Recast/Detour,
#             the layering check, the installed package and its examples, navdebug screenshots
#             under Xvfb, the large generated level
#   asan      ASan + UBSan: the unit and differential tests again
#   tsan      ThreadSanitizer: the pipeline, tile and task-hook tests (navtests_threads, only them)
#   fuzz      each libFuzzer target for FUZZ_SECONDS (default 30) under ASan + UBSan (clang; a
#             finding prints its symbolized stack: llvm-symbolizer comes with setup.sh)
# and closes with a summary: each phase's time, the tests counted, every skipped case and why.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=$(nproc)
summary_dir="$root/build/summary"
mkdir -p "$summary_dir"
export NAV_TEST_SUMMARY="$summary_dir/skips.txt"  # tests/main.cpp appends its skip counts here
: >"$NAV_TEST_SUMMARY"
phases=() passed=0
t_all=$(date +%s)

phase() {  # phase NAME COMMAND...: runs it, prints "== NAME: N s" and keeps it for the summary
  local name="$1" t0 t1
  shift
  echo "== $name"
  t0=$(date +%s)
  "$@"
  t1=$(date +%s)
  echo "== $name: $((t1 - t0)) s"
  phases+=("$(printf '%-16s %5d s' "$name" $((t1 - t0)))")
}

count_ctest() {  # count_ctest LOG: adds the tests ctest passed to $passed
  local n
  n=$(grep -Eo 'tests passed, 0 tests failed out of [0-9]+' "$1" | grep -Eo '[0-9]+$' | tail -1)
  passed=$((passed + ${n:-0}))
}

setup() { bash scripts/setup.sh; }

release_build() {
  cmake --preset release >/dev/null
  cmake --build --preset release -j "$jobs"
}
release_tests() {
  echo "release tests:" >>"$NAV_TEST_SUMMARY"
  ctest --preset release -j "$jobs" | tee "$summary_dir/release.log"
  count_ctest "$summary_dir/release.log"
}

asan_build() {
  cmake --preset asan >/dev/null
  cmake --build --preset asan -j "$jobs" --target navtests navdiff navdiff2d navbake
}
asan_tests() {
  echo "asan tests:" >>"$NAV_TEST_SUMMARY"
  # The screenshots, the window and shortcut tests (navdebug), the memory estimate against peak RSS
  # (ASan's shadow memory would count), the large level (7 M spans), the install check, the Slurm / xargs split bake
  # and the npm glTF validator (scripts and outside tools; the split and the export themselves are
  # in the unit tests, which run here) run in the release build only.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --preset asan -j "$jobs" -E "screenshots|large_scene|stress_large|memory_estimate|window_|shortcuts_readme|install|layers|split_bake|gltf_validator" | tee "$summary_dir/asan.log"
  count_ctest "$summary_dir/asan.log"
}

tsan() {
  echo "tsan:" >>"$NAV_TEST_SUMMARY"
  cmake --preset tsan >/dev/null
  cmake --build --preset tsan -j "$jobs" --target navtests_threads
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    build/tsan/tests/navtests_threads -tc='tiles:*,tiles threads:*,pipeline:*,task hook:*,landmarks deferred:*' -tce='*navbake*'
  passed=$((passed + 1))
}

fuzz_one() {  # fuzz_one TARGET SECONDS: one libFuzzer target; non-zero with its finding printed
  local t=$1 secs=$2 work log
  work="build/fuzz/corpus_$t"  # what the run finds stays out of the tree; the seeds are in it
  mkdir -p "$work"
  log="build/fuzz/fuzz_$t.log"
  local lsan=""  # fuzz_level: assimp's own leaks on malformed files are suppressed (tests/fuzz/lsan_assimp.supp)
  [ "$t" = level ] && lsan="suppressions=$PWD/tests/fuzz/lsan_assimp.supp"
  if ! ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="$lsan" UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
       "build/fuzz/tests/fuzz/fuzz_$t" -max_total_time="$secs" -max_len=4096 -timeout=20 -rss_limit_mb=2048 \
       -artifact_prefix="build/fuzz/$t-" "$work" "tests/fuzz/corpus/$t" >"$log" 2>&1; then
    echo "fuzz_$t: FOUND A PROBLEM (build/fuzz/$t-* holds the input; the stack is in $log):"
    grep -E "ERROR|runtime error|SUMMARY|#[0-9]+ " "$log" | head -20
    return 1
  fi
  echo "fuzz_$t: $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1)s, no finding" >"build/fuzz/fuzz_$t.done"
}

fuzz() {
  # Every target gets FUZZ_SECONDS of its own; $jobs targets run side by side (each libFuzzer run
  # is one thread), so the phase takes about targets / jobs x FUZZ_SECONDS.
  local secs=${FUZZ_SECONDS:-30} t failed=0 pids=() names=() i
  # fuzz_level (assimp's formats) is built and run by hand only: libassimp 5.2.5 itself has heap
  # faults on hostile PLY and GLB files that no check of ours can prevent (README, "Level formats").
  local targets=(obj config pairs pipeline session map2d args navmesh)
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz -j "$jobs" --target "${targets[@]/#/fuzz_}"
  for t in "${targets[@]}"; do
    rm -f "build/fuzz/fuzz_$t.done"
    fuzz_one "$t" "$secs" &
    pids+=($!) names+=("$t")
    if [ "${#pids[@]}" -ge "$jobs" ]; then
      wait "${pids[0]}" || failed=1
      pids=("${pids[@]:1}") names=("${names[@]:1}")
    fi
  done
  for i in "${pids[@]}"; do wait "$i" || failed=1; done
  for t in "${targets[@]}"; do
    if [ -f "build/fuzz/fuzz_$t.done" ]; then
      tee -a "$summary_dir/fuzz.txt" <"build/fuzz/fuzz_$t.done"
      passed=$((passed + 1))
    fi
  done
  [ "$failed" -eq 0 ] || exit 1
}

: >"$summary_dir/fuzz.txt"
phase setup setup
phase "release build" release_build
phase "release tests" release_tests
phase "asan build" asan_build
phase "asan tests" asan_tests
phase "tsan" tsan
if command -v clang++ >/dev/null 2>&1; then
  phase "fuzz" fuzz
else
  echo "fuzz: skipped, clang++ not installed (scripts/setup.sh installs it)" | tee -a "$summary_dir/fuzz.txt"
fi

echo "== summary"
printf '%s\n' "${phases[@]}"
printf '%-16s %5d s\n' "total" $(($(date +%s) - t_all))
cat "$NAV_TEST_SUMMARY" "$summary_dir/fuzz.txt"
echo "suite: $passed passed, 0 failed"
