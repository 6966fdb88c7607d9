#!/usr/bin/env bash
# Panel frame time (issue 23, not a timed test): under Xvfb with software OpenGL, navdebug's real
# window loop once the first bake is shown (--bench-frames, app/navdebug/bench.h), the camera
# still and orbiting the level, on the three shared meshes and the large generated level; "before"
# draws the scene on the window every frame (--no-view-cache, as navdebug did up to 2f04254),
# "after" draws it into the view's own framebuffer only when it changes. Prints a markdown table of
# frame time p50 / p99 (frame start to frame start: panels, the scene when drawn, the swap) and
# the scene draws of the timed frames.
# Usage: tests/bench/run_panels.sh [FRAMES]   (default 300)
# Env: NAVDEBUG (default build/release/app/navdebug), LARGE (default /tmp/large.obj,
#      made with build/release/tools/gen_scenes --large when absent), OUT (reports; default a temp dir),
#      LAYERS (--draw; default navdebug's).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
FRAMES="${1:-300}"
NAVDEBUG="${NAVDEBUG:-$ROOT/build/release/app/navdebug}"
LARGE="${LARGE:-/tmp/large.obj}"
OUT="${OUT:-$(mktemp -d)}"
SHARED="$ROOT/../shared/meshes"
[ -x "$NAVDEBUG" ] || { echo "run_panels.sh: $NAVDEBUG not built (cmake --build --preset release --target navdebug)" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "run_panels.sh: xvfb-run missing (package xvfb)" >&2; exit 2; }
if [ ! -f "$LARGE" ]; then "$ROOT/build/release/tools/gen_scenes" --large "$LARGE" >&2; fi
export LIBGL_ALWAYS_SOFTWARE=1
draw=()
[ -n "${LAYERS:-}" ] && draw=(--draw "$LAYERS")
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
fmt() { python3 -c "import sys; print('%.1f' % float(sys.argv[1]))" "$1"; }
echo "| level | camera | before p50 / p99 ms | after p50 / p99 ms | after: scene draws / frames, scene p50 ms |"
echo "|---|---|---|---|---|"
for mesh in "$SHARED/dungeon.obj" "$SHARED/nav_test.obj" "$SHARED/undulating.obj" "$LARGE"; do
  [ -f "$mesh" ] || { echo "run_panels.sh: skipped $mesh (absent)" >&2; continue; }
  name=$(basename "$mesh" .obj)
  for cam in still orbit; do
    row="| $name | $cam |"
    for mode in before after; do
      rep="$OUT/$name.$cam.$mode.json"
      flags=()
      [ "$mode" = before ] && flags=(--no-view-cache)
      xvfb-run -a -s "-screen 0 1280x800x24" "$NAVDEBUG" "$mesh" "${draw[@]}" "${flags[@]}" --bench-frames "$FRAMES" \
        --bench-camera "$cam" --bench-report "$rep" >&2
      row="$row $(fmt "$(field "$rep" frame_ms_p50)") / $(fmt "$(field "$rep" frame_ms_p99)") |"
    done
    row="$row $(field "$rep" scene_draws) / $(field "$rep" frames), $(fmt "$(field "$rep" scene_ms_p50)") |"
    echo "$row"
  done
done
