#!/usr/bin/env bash
# Builds levelbench and gen_scenes in Release, generates the large level (not committed) and prints
# levelbench's table (OBJ vs GLB vs FBX load times) for the three shared meshes and the large level.
# Usage: tests/bench/run_level.sh [levelbench args...]   e.g. --reps 9
# Env: BUILD_DIR (default <repo>/build/bench), LARGE (default $BUILD_DIR/large.obj).
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_build levelbench
exec "$BUILD_DIR/tests/bench/levelbench" "$@" "${LEVELS[@]}"
