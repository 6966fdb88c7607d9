#!/usr/bin/env bash
# Builds savebench in Release and prints its markdown table on stdout: writing Detour tile data,
# ours (write_detour_tile) against Detour's dtCreateNavMeshData on the same tiles, MB/s and ratio,
# solo and tiled (tile 32 and 64), plus the whole MSET file's time.
# Usage: tests/bench/run_save.sh [savebench args...]  e.g. --reps 101 --tiles 0,32 mesh.obj
# Env: BUILD_DIR (default <repo>/build/bench). Build output goes to stderr.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build/bench}"
GEN=()
if command -v ninja >/dev/null 2>&1; then GEN=(-G Ninja); fi
{
  cmake -S "$ROOT" -B "$BUILD_DIR" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DNAV_BUILD_APPS=OFF \
        -DNAV_BUILD_TESTS=ON -DNAV_BUILD_BENCH=ON
  cmake --build "$BUILD_DIR" --target savebench
} 1>&2
BIN="$(find "$BUILD_DIR" -name savebench -type f -perm -u+x | head -n 1)"
if [[ -z "$BIN" ]]; then
  echo "run_save.sh: savebench was not built (is librecast-dev installed?)" >&2
  exit 1
fi
exec "$BIN" "$@"
