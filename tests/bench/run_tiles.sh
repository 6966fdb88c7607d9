#!/usr/bin/env bash
# Builds tilebench, navbake and gen_scenes in Release, generates the large level (not committed)
# and prints tilebench's markdown tables for the three shared meshes and the large level.
# Usage: tests/bench/run_tiles.sh [tilebench args...]   e.g. --reps 3 --tile-size 64
# Env: BUILD_DIR (default <repo>/build/bench), LARGE (default $BUILD_DIR/large.obj).
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_build tilebench navbake
"$BUILD_DIR/tools/gen_scenes" --large "$LARGE" 1>&2  # always made again: the tile tables follow the generator
exec "$BUILD_DIR/tests/bench/tilebench" "$@" "${LEVELS[@]}"
