#!/usr/bin/env bash
# Inspector (--select x,y,z): the element at the point is pinned headless, highlighted in bright
# yellow (render/inspect.h colors::kInspectPinned) in the 3D view and described in the Inspector
# panel on the right; without --select neither shows. A bad --select exits 2.
# usage: screenshots_inspect.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

pinned=255,255,0
# The Inspector section of the right panel (below the Bake table) differs between two shots by at
# least FRAC of its pixels. check_png's blank test does not suit this text-only area, and the Bake
# table above shows times that differ run to run, so this compares just the section.
inspector_differs() {  # name, image, other image, frac
  local name=$1 a=$2 b=$3 frac=$4
  if msg=$(python3 - "$src/tests/e2e" "$out/$a.png" "$out/$b.png" "$frac" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from check_png import read_png
w, h, bpp, ra = read_png(sys.argv[2])
w2, h2, bpp2, rb = read_png(sys.argv[3])
if (w, h) != (w2, h2):
    print("sizes differ"); sys.exit(1)
x0, x1, y0, y1 = int(w * 0.75), w, int(h * 0.55), int(h * 0.90)
n = sum(1 for y in range(y0, y1) for x in range(x0, x1) if ra[y][x * bpp:x * bpp + 3] != rb[y][x * bpp2:x * bpp2 + 3])
frac = n / ((x1 - x0) * (y1 - y0))
print(f"{100 * frac:.2f}% of the Inspector section differs (need {100 * float(sys.argv[4]):.2f}%)")
sys.exit(0 if frac >= float(sys.argv[4]) else 1)
PY
  ); then ok "$name: $msg"; else bad "$name: $msg"; fi
}
no_highlight() {  # name: the shot without --select shows no pinned-yellow
  if $check "$out/$1.png" --color $pinned:0.0003 > /dev/null; then bad "$1: pinned yellow without --select"
  else ok "$1: no pinned yellow without --select"; fi
}

# a compact span on the plaza (cell centre (0, 0.2, 0)), drawn as the compact layer, seen from close by
near="--camera 2.5,6,5,0,0,0"
shot span_plain   compact $near -- --color 0,192,255:0.05
no_highlight span_plain
shot span_select  compact $near --select 0,0.2,0 -- --color 0,192,255:0.05 --color $pinned:0.001
check_shot span_select_panel span_select --area 0.75,0.0,1.0,1.0 --differs "$out/span_plain.png"
inspector_differs span_select_inspector span_select span_plain 0.02

# a polygon on the mid platform (-7.2, 2.9, 8.1), drawn as the polygon mesh
shot poly_plain   polymesh --color 0,192,255:0.02
no_highlight poly_plain
shot poly_select  polymesh --select -7.2,2.9,8.1 -- --color 0,192,255:0.02 --color $pinned:0.001
check_shot poly_select_panel poly_select --area 0.75,0.0,1.0,1.0 --differs "$out/poly_plain.png"
inspector_differs poly_select_inspector poly_select poly_plain 0.02
# the same point on the regions layer pins the span there instead: a different panel
shot poly_point_regions regions --select -7.2,2.9,8.1 --camera -4,9,14,-7.2,2.9,8.1 -- --hues 3 --color $pinned:0.001
inspector_differs poly_vs_span_inspector poly_point_regions poly_select 0.02

expect_exit2 bad_select "--select: expected three numbers" "$src/assets/demo.obj" --select 1,2
expect_exit2 nan_select "--select" "$src/assets/demo.obj" --select 1,nan,2
finish
