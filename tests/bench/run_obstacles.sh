#!/usr/bin/env bash
# Builds obstaclebench and gen_scenes in Release, generates the large level (not committed) and prints
# obstaclebench's table (time from adding one obstacle to the new navmesh, ours against
# DetourTileCache, tile size 32 and 64) for the three shared meshes and the large level.
# Usage: tests/bench/run_obstacles.sh [obstaclebench args...]   e.g. --reps 51 --tile-size 32
# Env: BUILD_DIR (default <repo>/build/bench), LARGE (default $BUILD_DIR/large.obj).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build/bench}"
LARGE="${LARGE:-$BUILD_DIR/large.obj}"
GEN=()
if command -v ninja >/dev/null 2>&1; then GEN=(-G Ninja); fi
{
  cmake -S "$ROOT" -B "$BUILD_DIR" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DNAV_BUILD_APPS=OFF \
        -DNAV_BUILD_TESTS=ON -DNAV_BUILD_BENCH=ON
  cmake --build "$BUILD_DIR" --target obstaclebench gen_scenes
  [ -f "$LARGE" ] || "$BUILD_DIR/tools/gen_scenes" --large "$LARGE"
} 1>&2
SHARED="$ROOT/../shared/meshes"
exec "$BUILD_DIR/tests/bench/obstaclebench" "$@" "$SHARED/dungeon.obj" "$SHARED/nav_test.obj" "$SHARED/undulating.obj" "$LARGE"
