#!/usr/bin/env bash
# Builds querybench in Release and prints its markdown tables on stdout: path queries per second,
# Detour against ours, solo and tiled (tile 32 and 64), 1 and 2 threads; the landmark bound's
# effect and the landmark table's build time.
# Usage: tests/bench/run_queries.sh [querybench args...]  e.g. --reps 31 --pairs 2000 --tiles 0,32 mesh.obj
# Env: BUILD_DIR (default <repo>/build/bench). Build output goes to stderr.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build/bench}"
GEN=()
if command -v ninja >/dev/null 2>&1; then GEN=(-G Ninja); fi
{
  cmake -S "$ROOT" -B "$BUILD_DIR" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DNAV_BUILD_APPS=OFF \
        -DNAV_BUILD_TESTS=ON -DNAV_BUILD_BENCH=ON
  cmake --build "$BUILD_DIR" --target querybench
} 1>&2
BIN="$(find "$BUILD_DIR" -name querybench -type f -perm -u+x | head -n 1)"
if [[ -z "$BIN" ]]; then
  echo "run_queries.sh: querybench was not built (is librecast-dev installed?)" >&2
  exit 1
fi
exec "$BIN" "$@"
