#!/usr/bin/env bash
# navdebug's bake worker under out-of-memory (issue 12): a bake that throws std::bad_alloc is
# reported, never an abort. The first bake (cell_size 2) is good; the final one (cell_size 0.3 on
# a 1500 m floor, memory limit off) runs out of the address space navdebug is given (ulimit -v)
# in a stage. navdebug must exit 1 with "out of memory", keep drawing the last good navmesh and
# show the failure in the red banner at the top of the view.
# usage: screenshots_hostile.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

mesh="$out/floor1500.obj"
printf 'v 0 0 0\nv 0 0 1500\nv 1500 0 1500\nv 1500 0 0\nf 1 2 3 4\n' > "$mesh"
png="$out/oom.png" log="$out/oom.log"
rm -f "$png"
timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" bash -c 'ulimit -v 2500000; exec "$@"' _ "$exe" "$mesh" \
  --set cell_size=0.3 --diff-from-set cell_size=2 --max-memory 1000000 --draw navmesh \
  --screenshot "$png" --size 1280x800 > "$log" 2>&1
code=$?
if [ $code -eq 1 ] && grep -q "bake failed: out of memory" "$log" && ! grep -q "Aborted\|terminate called" "$log"; then
  ok "oom: exit 1, 'bake failed: out of memory'"
else
  bad "oom: exit $code, expected 1 with 'out of memory': $(tail -3 "$log")"
fi
# the last good navmesh is still drawn (navmesh ground colour) ...
if msg=$($check "$png" --color 0,192,255:0.05); then ok "oom keeps the last navmesh: $msg"; else bad "oom navmesh: $msg"; fi
# ... under the error banner (red, top of the view)
if msg=$(python3 - "$src/tests/e2e" "$png" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from check_png import read_png
w, h, bpp, rows = read_png(sys.argv[2])
x0, x1, y1 = int(0.28 * w), int(0.74 * w), int(0.06 * h)
red = sum(1 for y in range(y1) for x in range(x0, x1)
          if (lambda p: p[0] > 100 and p[1] < 50 and p[2] < 50)(rows[y][x * bpp:x * bpp + 3]))
frac = red / ((x1 - x0) * y1)
print(f"{100 * frac:.0f}% of the top strip is the error banner's red")
sys.exit(0 if frac > 0.3 else 1)
PY
); then ok "oom banner: $msg"; else bad "oom banner: $msg"; fi
finish
