#!/usr/bin/env bash
# Builds navbench in Release and prints its markdown tables on stdout: the bake per stage, Recast
# against ours, then path queries per second, Detour against ours.
# Usage: tests/bench/run.sh [navbench args...]   e.g. --reps 31 --pairs 2000 --set cell_size=0.2 mesh.obj
#        (--only bake or --only queries prints one of the two)
# Env: BUILD_DIR (default <repo>/build/bench). Build output goes to stderr.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build/bench}"
GEN=()
if command -v ninja >/dev/null 2>&1; then GEN=(-G Ninja); fi
{
  cmake -S "$ROOT" -B "$BUILD_DIR" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DNAV_BUILD_APPS=OFF \
        -DNAV_BUILD_TESTS=ON -DNAV_BUILD_BENCH=ON
  cmake --build "$BUILD_DIR" --target navbench
} 1>&2
BIN="$(find "$BUILD_DIR" -name navbench -type f -perm -u+x | head -n 1)"
if [[ -z "$BIN" ]]; then
  echo "run.sh: navbench was not built (is librecast-dev installed?)" >&2
  exit 1
fi
exec "$BIN" "$@"
