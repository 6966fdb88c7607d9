#!/usr/bin/env bash
# Builds obstaclebench and gen_scenes in Release, generates the large level (not committed) and prints
# obstaclebench's table (time from adding one obstacle to the new navmesh, ours against
# DetourTileCache, tile size 32 and 64; then the trimmed bake without and with the LZ4 obstacle
# cache) for the three shared meshes and the large level.
# Usage: tests/bench/run_obstacles.sh [obstaclebench args...]   e.g. --reps 51 --tile-size 32
# Env: BUILD_DIR (default <repo>/build/bench), LARGE (default $BUILD_DIR/large.obj).
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_build obstaclebench
exec "$BUILD_DIR/tests/bench/obstaclebench" "$@" "${LEVELS[@]}"
