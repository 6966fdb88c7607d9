#!/usr/bin/env bash
# Installs what is missing, builds and runs every test: the release build (unit, property,
# end-to-end, differential against Recast, navdebug screenshots under Xvfb), then the unit and
# differential tests again under AddressSanitizer + UBSan.
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
cmake --build --preset asan -j "$jobs" --target navtests navdiff navbake
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan -j "$jobs" -E screenshots

echo "== tsan build (navtests only): the pipeline and the tiled bake driven from several threads"
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j "$jobs" --target navtests
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  build/tsan/tests/navtests -tc='tiles:*,tiles threads:*,pipeline:*' -tce='*navbake*'
