#!/usr/bin/env bash
# Builds linkbench and gen_scenes in Release, generates the large level (not committed) and prints
# linkbench's table (automatic link generation times) for the three shared meshes and the large level.
# Usage: tests/bench/run_links.sh [linkbench args...]   e.g. --reps 9 --drop 3 --jump 2
# Env: BUILD_DIR (default <repo>/build/bench), LARGE (default $BUILD_DIR/large.obj).
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_build linkbench
exec "$BUILD_DIR/tests/bench/linkbench" "$@" "${LEVELS[@]}"
