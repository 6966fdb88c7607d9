#!/usr/bin/env bash
# navdebug's bake worker under out-of-memory (issue 12): a bake that throws std::bad_alloc is
# reported, never an abort. The first bake (cell_size 2) is good; the final one (cell_size 0.3 on
# a 2500 m floor, 70 M cells, memory limit off) runs out of the address space navdebug is given
# (ulimit -v) in a stage (a 1500 m floor, 25 M cells, fits since the rasterized pools shrink). The pipeline turns the exception into a failed stage like any other failure: the
# stages before it keep their results, the Stages panel marks the stage FAILED (red) with the
# error, the red banner says it at the top of the view, and navdebug exits 2 with "out of memory"
# (out of memory is bad input by the contract: the level is too big for the memory it is given).
# usage: screenshots_hostile.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

mesh="$out/floor2500.obj"
printf 'v 0 0 0\nv 0 0 2500\nv 2500 0 2500\nv 2500 0 0\nf 1 2 3 4\n' > "$mesh"
png="$out/oom.png" log="$out/oom.log"
rm -f "$png"
# navdebug's own exit code is written to the log: xvfb-run's is its own when its clean-up of the
# temporary directory fails (5), which says nothing of navdebug.
timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" bash -c 'ulimit -v 2500000; "$@"; echo "navdebug exit code $?"' _ "$exe" "$mesh" \
  --set cell_size=0.3 --diff-from-set cell_size=2 --max-memory 1000000 --draw navmesh \
  --screenshot "$png" --size 1280x800 > "$log" 2>&1
code=$(sed -n 's/^navdebug exit code \([0-9]*\)$/\1/p' "$log" | tail -1)
code=${code:-none}
if [ $code -eq 2 ] && grep -q "bake failed: .*out of memory" "$log" && ! grep -q "Aborted\|terminate called" "$log"; then
  ok "oom: exit 2, 'bake failed: ... out of memory'"
else
  bad "oom: exit $code, expected 2 with 'out of memory': $(tail -3 "$log")"
fi
# the Stages panel marks the failing stage FAILED in red (right panel, the stage table)
if msg=$(python3 - "$src/tests/e2e" "$png" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from check_png import read_png
w, h, bpp, rows = read_png(sys.argv[2])
x0, x1, y0, y1 = int(0.75 * w), w, int(0.10 * h), int(0.45 * h)
red = sum(1 for y in range(y0, y1) for x in range(x0, x1)
          if (lambda p: p[0] > 180 and p[1] < 100 and p[2] < 100)(rows[y][x * bpp:x * bpp + 3]))
print(f"{red} red pixels in the stage table")
sys.exit(0 if red > 40 else 1)
PY
); then ok "oom stage FAILED: $msg"; else bad "oom stage FAILED: $msg"; fi
# ... and the error banner (red, top of the view)
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
