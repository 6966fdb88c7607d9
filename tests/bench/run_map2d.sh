#!/usr/bin/env bash
# Builds navbench2d in Release and prints its markdown tables on stdout: our CDT against CGAL's
# (build times on random maps of growing size), then path queries per second, Polyanya against
# A* + funnel on the same pairs (random and generated 2D maps, the shared 3D meshes), with the
# distribution of funnel / optimal length ratios (xz).
# Usage: tests/bench/run_map2d.sh [navbench2d args...]   e.g. --pairs 2000 --reps 5
# Env: BUILD_DIR (default <repo>/build/release, the release preset's tree). Build output goes to stderr.
# Needs libcgal-dev (test/benchmark-only); without it CMake leaves navbench2d out.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build/release}"
GEN=()
if command -v ninja >/dev/null 2>&1 && [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then GEN=(-G Ninja); fi
{
  cmake -S "$ROOT" -B "$BUILD_DIR" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DNAV_BUILD_BENCH=ON
  cmake --build "$BUILD_DIR" --target navbench2d
} 1>&2
BIN="$BUILD_DIR/tests/bench/navbench2d"
if [[ ! -x "$BIN" ]]; then
  echo "run_map2d.sh: navbench2d was not built (is libcgal-dev installed?)" >&2
  exit 1
fi
exec "$BIN" "$@"
