#!/usr/bin/env bash
# Builds linkbench and gen_scenes in Release, generates the large level (not committed) and prints
# linkbench's table (automatic link generation times) for the three shared meshes and the large level.
# Usage: tests/bench/run_links.sh [linkbench args...]   e.g. --reps 9 --drop 3 --jump 2
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
  cmake --build "$BUILD_DIR" --target linkbench gen_scenes
  [ -f "$LARGE" ] || "$BUILD_DIR/tools/gen_scenes" --large "$LARGE"
} 1>&2
SHARED="$ROOT/../shared/meshes"
exec "$BUILD_DIR/tests/bench/linkbench" "$@" "$SHARED/dungeon.obj" "$SHARED/nav_test.obj" "$SHARED/undulating.obj" "$LARGE"
