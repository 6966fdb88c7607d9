#!/usr/bin/env bash
# Builds whybench and gen_scenes in Release, generates the large level (not committed) and prints
# whybench's table for the three shared meshes and the large level.
# Usage: tests/bench/run_why.sh [whybench args...]   e.g. --clicks 1000 --fixes 20
# Env: BUILD_DIR (default <repo>/build/bench), LARGE (default $BUILD_DIR/large.obj).
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_build whybench
exec "$BUILD_DIR/tests/bench/whybench" "$@" "${LEVELS[@]}"
