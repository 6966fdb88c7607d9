# Sourced by the run_*.sh benchmark scripts that time a bench over the shared meshes and the large
# level. Sets ROOT (the repository), BUILD_DIR (default <repo>/build/bench), LARGE (default
# $BUILD_DIR/large.obj) and LEVELS (the three shared meshes and the large level), and provides
#   bench_build TARGET...   configures a Release build with the benches (no apps), builds the
#                           targets and gen_scenes, and generates the large level when missing;
#                           its output goes to stderr, so the script's stdout is the bench's table.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build/bench}"
LARGE="${LARGE:-$BUILD_DIR/large.obj}"
SHARED="$ROOT/../shared/meshes"
LEVELS=("$SHARED/dungeon.obj" "$SHARED/nav_test.obj" "$SHARED/undulating.obj" "$LARGE")

bench_build() {
  local gen=()
  if command -v ninja >/dev/null 2>&1; then gen=(-G Ninja); fi
  {
    cmake -S "$ROOT" -B "$BUILD_DIR" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DNAV_BUILD_APPS=OFF \
          -DNAV_BUILD_TESTS=ON -DNAV_BUILD_BENCH=ON
    cmake --build "$BUILD_DIR" --target "$@" gen_scenes
    [ -f "$LARGE" ] || "$BUILD_DIR/tools/gen_scenes" --large "$LARGE"
  } 1>&2
}
