#!/usr/bin/env bash
# Builds navbench in Release and prints its markdown tables on stdout: the bake per stage, Recast
# against ours, then path queries per second, Detour against ours.
# Usage: tests/bench/run.sh [navbench args...]   e.g. --reps 31 --pairs 2000 --set cell_size=0.2 mesh.obj
#        (--only bake or --only queries prints one of the two)
#        tests/bench/run.sh --levels [navbench args...]   adds issue 24's generated levels (arena,
#        house, terrain: gen_scenes --bench, written to $BUILD_DIR/bench_levels) after any meshes given;
#        with no mesh given the shared meshes come first.
# Env: BUILD_DIR (default <repo>/build/bench). Build output goes to stderr.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build/bench}"
GEN=()
LEVELS=0
if [[ "${1:-}" == "--levels" ]]; then LEVELS=1; shift; fi
if command -v ninja >/dev/null 2>&1; then GEN=(-G Ninja); fi
{
  cmake -S "$ROOT" -B "$BUILD_DIR" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DNAV_BUILD_APPS=OFF \
        -DNAV_BUILD_TESTS=ON -DNAV_BUILD_BENCH=ON
  cmake --build "$BUILD_DIR" --target navbench
  if [[ $LEVELS == 1 ]]; then
    cmake --build "$BUILD_DIR" --target gen_scenes
    mkdir -p "$BUILD_DIR/bench_levels"
    "$(find "$BUILD_DIR" -name gen_scenes -type f -perm -u+x | head -n 1)" --bench "$BUILD_DIR/bench_levels"
  fi
} 1>&2
BIN="$(find "$BUILD_DIR" -name navbench -type f -perm -u+x | head -n 1)"
if [[ -z "$BIN" ]]; then
  echo "run.sh: navbench was not built (is librecast-dev installed?)" >&2
  exit 1
fi
ARGS=("$@")
if [[ $LEVELS == 1 ]]; then
  HAVE_MESH=0
  for a in "$@"; do [[ "$a" == *.obj ]] && HAVE_MESH=1; done
  if [[ $HAVE_MESH == 0 ]]; then
    for m in dungeon nav_test undulating; do ARGS+=("$ROOT/../shared/meshes/$m.obj"); done  # navbench's default
  fi
  ARGS+=("$BUILD_DIR/bench_levels/arena.obj" "$BUILD_DIR/bench_levels/house.obj" "$BUILD_DIR/bench_levels/terrain.obj")
fi
exec "$BIN" "${ARGS[@]}"
