#!/usr/bin/env bash
# The Warnings panel (left, under Files) and the mesh fixes it offers, headless:
# - the demo scene has no warning: no warning colour in the panel, none in the log;
# - --set cell_height=0.6 lists "cell height above half the climb" in the warning colour, and
#   the log names it with its fix;
# - the demo exported Z-up (axes swapped in the OBJ text, no arithmetic) and the demo with every
#   face wound the other way are flagged; with --set mesh_z_up=true / mesh_flip_winding=true the
#   3D view is pixel-identical to the original demo's;
# - a bad value for a mesh fix exits 2 naming the range.
# usage: screenshots_warnings.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"
view=0.30,0.06,0.72,0.94     # the 3D view, between the panels

warn_pixels() {  # PNG: pixels of the warning colour (app.cpp kWarnColor, 1.0 0.8 0.3: header and
                 # titles) in the left panel below Files, where the Warnings section sits
  python3 - "$src/tests/e2e" "$1" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from check_png import read_png
w, h, bpp, rows = read_png(sys.argv[2])
n = 0
for y in range(int(h * 0.22), int(h * 0.62)):
    r = rows[y]
    for x in range(0, int(w * 0.26)):
        if abs(r[x * bpp] - 255) <= 8 and abs(r[x * bpp + 1] - 204) <= 8 and abs(r[x * bpp + 2] - 77) <= 8:
            n += 1
print(n)
PY
}
flagged() {  # name: the panel shows a warning (its colour), as a person reading it would see
  local n
  n=$(warn_pixels "$out/$1.png")
  if [ "${n:-0}" -ge 100 ]; then ok "$1: $n warning-coloured pixels in the Warnings panel"
  else bad "$1: ${n:-?} warning-coloured pixels in the Warnings panel, expected at least 100"; fi
}

logged() {  # name, text that its log must hold
  if grep -qF -- "$2" "$out/$1.log"; then ok "$1: log says '$2'"; else bad "$1: log lacks '$2'"; fi
}

demo="$src/assets/demo.obj"
shot warn_none input,polymesh -- --color 214,116,46:0.01
n=$(warn_pixels "$out/warn_none.png")
if [ "${n:-1}" -eq 0 ]; then ok "warn_none: no warning colour in the panel"
else bad "warn_none: ${n:-?} warning-coloured pixels without a warning"; fi
if grep -q "warning:" "$out/warn_none.log"; then bad "warn_none: $(grep 'warning:' "$out/warn_none.log" | head -1)"
else ok "warn_none: no warning in the log"; fi

shot warn_climb input,polymesh --set cell_height=0.6 -- --color 214,116,46:0.01
flagged warn_climb
logged warn_climb "warning: cell height above half the climb (fix: cell_height 0.6 -> 0.45 m)"

# the demo as a Z-up export and with its winding reversed: text edits only, so the fixes give back
# the very same floats
python3 - "$demo" "$out/demo_zup.obj" "$out/demo_flipped.obj" <<'PY'
import sys
neg = lambda s: s[1:] if s.startswith("-") else "-" + s
zup, flip = [], []
for line in open(sys.argv[1]):
    t = line.split()
    if t and t[0] == "v":
        zup.append(f"v {t[1]} {neg(t[3])} {t[2]}\n")        # (x, y, z) -> (x, -z, y)
        flip.append(line)
    elif t and t[0] == "f":
        zup.append(line)
        flip.append("f " + " ".join([t[1]] + t[2:][::-1]) + "\n")
    else:
        zup.append(line)
        flip.append(line)
open(sys.argv[2], "w").writelines(zup)
open(sys.argv[3], "w").writelines(flip)
PY
shot demo_ref input,polymesh -- --color 214,116,46:0.01
SHOT_MESH="$out/demo_zup.obj" shot warn_zup input,polymesh -- --differs "$out/demo_ref.png:0.05"
flagged warn_zup
logged warn_zup "warning: the mesh looks Z-up (fix: mesh_z_up false -> true)"
SHOT_MESH="$out/demo_zup.obj" shot fixed_zup input,polymesh --set mesh_z_up=true -- --same "$out/demo_ref.png" --area $view
SHOT_MESH="$out/demo_flipped.obj" shot warn_flipped input,polymesh -- --differs "$out/demo_ref.png:0.05"
flagged warn_flipped
logged warn_flipped "warning: the mesh looks wound the wrong way (fix: mesh_flip_winding false -> true)"
SHOT_MESH="$out/demo_flipped.obj" shot fixed_flipped input,polymesh --set mesh_flip_winding=true -- --same "$out/demo_ref.png" --area $view

expect_exit2 bad_mesh_scale "parameter mesh_scale: got 0, expected a number in" "$demo" --set mesh_scale=0
finish
