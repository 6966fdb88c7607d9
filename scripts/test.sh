#!/usr/bin/env bash
# Installs what is missing, builds and runs every test, phase by phase, each phase's time printed:
#   release   build, then ctest: unit, property, end-to-end, differential against Recast/Detour,
#             the layering check, the installed package and its examples, navdebug screenshots
#             under Xvfb, the large generated level
#   asan      ASan + UBSan: the unit and differential tests again (only those targets are built)
#   tsan      ThreadSanitizer: the pipeline, tile, task-hook, deferred-landmark and crowd-thread tests
#             (navtests_threads, only them)
#   fuzz      each libFuzzer target for FUZZ_SECONDS (default 30) under ASan + UBSan (clang; a
#             finding prints its symbolized stack: llvm-symbolizer comes with setup.sh)
# Every phase runs even when an earlier one failed. The closing summary always prints: each
# phase's time and status, the failing phases with the tail of their logs (all logs in
# build/summary/), every skipped test or case with its reason, and the count line
#   suite: N passed, M failed, K skipped
# A skipped test is never counted as passed. The exit status is 1 when any phase failed.
# For a part of the suite: NAV_TEST_ONLY="setup,release build,release tests" runs only the phases
# named (the others are listed as not run), NAV_TEST_CTEST_ARGS="-R layers" is added to each ctest
# call, and NAV_TEST_FAIL_PHASE="NAME" makes that phase fail at once (to see the failure path).
set -uo pipefail  # no -e here: a failing phase must not stop the later ones (each phase runs under -e)
cd "$(dirname "$0")/.."
root=$PWD
jobs=$(nproc)
summary_dir="$root/build/summary"
rm -rf "$summary_dir"
mkdir -p "$summary_dir"
export NAV_TEST_SUMMARY="$summary_dir/cases.txt"  # tests/main.cpp appends its skip counts here, the scripts their partial skips
counts="$summary_dir/counts.txt"                  # "PASSED FAILED SKIPPED" lines, one per run that counted tests
skips="$summary_dir/skipped.txt"                  # one line per skipped ctest: "NAME: REASON"
: >"$NAV_TEST_SUMMARY"
: >"$counts"
: >"$skips"
phases=() failed_phases=()
t_all=$(date +%s)

phase() {  # phase NAME FUNCTION: runs it under -e with its output also in build/summary/NAME.log
  local name="$1" t0 rc secs log
  shift
  if [ -n "${NAV_TEST_ONLY:-}" ] && [[ ",$NAV_TEST_ONLY," != *",$name,"* ]]; then
    phases+=("$(printf '%-14s     - s   not run (NAV_TEST_ONLY)' "$name")")
    return 0
  fi
  log="$summary_dir/${name// /_}.log"
  echo "== $name"
  t0=$(date +%s)
  (
    set -e
    if [ "${NAV_TEST_FAIL_PHASE:-}" = "$name" ]; then
      echo "NAV_TEST_FAIL_PHASE=$name: failing this phase on purpose"
      false
    fi
    "$@"
  ) 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  secs=$(($(date +%s) - t0))
  if [ "$rc" -eq 0 ]; then
    echo "== $name: $secs s"
    phases+=("$(printf '%-14s %5d s' "$name" "$secs")")
  else
    echo "== $name: FAILED (exit $rc) after $secs s"
    phases+=("$(printf '%-14s %5d s   FAILED (exit %d)' "$name" "$secs" "$rc")")
    failed_phases+=("$name")
  fi
}

count() { echo "$1 $2 $3" >>"$counts"; }  # count PASSED FAILED SKIPPED

# ctest_run PRESET LABEL CTEST_ARGS...: runs ctest, counts its tests (a skipped one as skipped, not
# passed) and writes each skipped test's reason (the last line of its output that says "skip").
ctest_run() {
  local preset=$1 label=$2 rc=0 log="$summary_dir/ctest_$1.txt" p f s name reason
  shift 2
  echo "$label:" >>"$NAV_TEST_SUMMARY"
  # shellcheck disable=SC2086  # NAV_TEST_CTEST_ARGS is split into arguments on purpose
  ctest --preset "$preset" -j "$jobs" "$@" ${NAV_TEST_CTEST_ARGS:-} | tee "$log" || rc=$?
  read -r p f s < <(awk '/Test +#[0-9]+: / { if (/\*\*\*Skipped/) s++; else if (/ Passed /) p++; else f++ }
                         END { print p + 0, f + 0, s + 0 }' "$log")
  count "$p" "$f" "$s"
  while read -r name; do
    reason=$(awk -v t="$name" '/^[0-9]+\/[0-9]+ Test: / { cur = substr($0, index($0, ": ") + 2) }
                               cur == t && tolower($0) ~ /skip/ && !/^Test Skipped/ { line = $0 }
                               END { print line }' "build/$preset/Testing/Temporary/LastTest.log")
    echo "$name ($label): ${reason:-no reason printed (see build/$preset/Testing/Temporary/LastTest.log)}" >>"$skips"
  done < <(sed -nE 's/.*Test +#[0-9]+: ([^ ]+) .*\*\*\*Skipped.*/\1/p' "$log")
  return "$rc"
}

setup() { bash scripts/setup.sh; }

# Every target the release ctests run, not the benchmarks (no test runs them; tests/bench/run*.sh
# configure and build them in their own directory).
release_build() {
  cmake --preset release -DNAV_BUILD_BENCH=OFF >/dev/null
  cmake --build --preset release -j "$jobs"
}
release_tests() { ctest_run release "release tests" --timeout 1500; }

# The ASan build compiles only what its ctests run: navtests (unit), navdiff and navdiff2d
# (differential) and navbake (which navtests drives).
asan_build() {
  cmake --preset asan >/dev/null
  cmake --build --preset asan -j "$jobs" --target navtests navdiff navdiff2d navbake
}
asan_tests() {
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest_run asan "asan tests" -R '^(unit|differential|differential_map2d)$'
}

tsan() {
  echo "tsan:" >>"$NAV_TEST_SUMMARY"
  cmake --preset tsan >/dev/null
  cmake --build --preset tsan -j "$jobs" --target navtests_threads
  local rc=0
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    build/tsan/tests/navtests_threads -tc='tiles:*,tiles threads:*,pipeline:*,task hook:*,landmarks deferred:*,crowd: the same scenario*' -tce='*navbake*' || rc=$?
  if [ "$rc" -eq 0 ]; then count 1 0 0; else count 0 1 0; fi
  return "$rc"
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
  # fuzz_level (assimp's formats) is built and run by hand only: libassimp 5.2.5 itself has heap
  # faults on hostile PLY and GLB files that no check of ours can prevent (README, "Level formats").
  local targets=(obj config pairs pipeline session map2d args navmesh)
  if ! command -v clang++ >/dev/null 2>&1; then
    echo "fuzz: skipped: clang++ not installed (scripts/setup.sh installs it)"
    echo "fuzz (${#targets[@]} targets): clang++ not installed (scripts/setup.sh installs it)" >>"$skips"
    count 0 0 "${#targets[@]}"
    return 0
  fi
  # Every target gets FUZZ_SECONDS of its own; $jobs targets run side by side (each libFuzzer run
  # is one thread), so the phase takes about targets / jobs x FUZZ_SECONDS.
  local secs=${FUZZ_SECONDS:-30} t failed=0 pids=() i n_ok=0
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz -j "$jobs" --target "${targets[@]/#/fuzz_}"
  for t in "${targets[@]}"; do
    rm -f "build/fuzz/fuzz_$t.done"
    fuzz_one "$t" "$secs" &
    pids+=($!)
    if [ "${#pids[@]}" -ge "$jobs" ]; then
      wait "${pids[0]}" || failed=1
      pids=("${pids[@]:1}")
    fi
  done
  for i in "${pids[@]}"; do wait "$i" || failed=1; done
  for t in "${targets[@]}"; do
    if [ -f "build/fuzz/fuzz_$t.done" ]; then
      cat "build/fuzz/fuzz_$t.done"
      n_ok=$((n_ok + 1))
    fi
  done
  count "$n_ok" $((${#targets[@]} - n_ok)) 0
  [ "$failed" -eq 0 ]
}

phase setup setup
phase "release build" release_build
phase "release tests" release_tests
phase "asan build" asan_build
phase "asan tests" asan_tests
phase tsan tsan
phase fuzz fuzz

echo "== summary (logs in build/summary/)"
printf '%s\n' "${phases[@]}"
printf '%-14s %5d s\n' "total" $(($(date +%s) - t_all))
for name in "${failed_phases[@]}"; do
  echo "-- $name FAILED; the end of build/summary/${name// /_}.log:"
  tail -n 25 "$summary_dir/${name// /_}.log" | sed 's/^/   | /'
done
# Per binary: the doctest cases run and those skipped (with why); per script: what it left out.
cat "$NAV_TEST_SUMMARY"
cases_skipped=$(grep -Eo ': [0-9]+ of [0-9]+ [a-z]+ skipped' "$NAV_TEST_SUMMARY" | awk '{ s += $2 } END { print s + 0 }')
read -r n_pass n_fail n_skip < <(awk '{ p += $1; f += $2; s += $3 } END { print p + 0, f + 0, s + 0 }' "$counts")
if [ -s "$skips" ]; then
  echo "skipped tests (not counted as passed):"
  sed 's/^/  /' "$skips"
fi
# a phase that failed without a test to show for it (a build, the set-up) counts as one failure
for name in "${failed_phases[@]}"; do
  case "$name" in
    "release tests" | "asan tests" | tsan | fuzz) ;;
    *) n_fail=$((n_fail + 1)) ;;
  esac
done
[ "${#failed_phases[@]}" -eq 0 ] || [ "$n_fail" -gt 0 ] || n_fail=1
echo "suite: $n_pass passed, $n_fail failed, $((n_skip + cases_skipped)) skipped"
[ "${#failed_phases[@]}" -eq 0 ]
