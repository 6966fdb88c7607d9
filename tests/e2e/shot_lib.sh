#!/usr/bin/env bash
# Shared by the navdebug screenshot scripts (tests/e2e/screenshots*.sh), which source it after
# setting: exe (navdebug), out (output folder), src (source folder). Provides ok / bad counters,
# shot (render the demo scene, or SHOT_MESH with the demo's config, and check the PNG's colours),
# shot_cfg (the same with a config of the script's), check_shot / check_not (check a PNG already
# made), check_state (a state dump), panel_pixels (a colour's pixels in the right panel),
# expect_exit2 and finish.
set -u
mkdir -p "$out"
check="python3 $src/tests/e2e/check_png.py"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# Renders $out/NAME.png (1280x800) with navdebug ARGUMENTS (the level first), its log in
# $out/NAME.log; when navdebug fails, a FAIL and false.
render_shot() {  # name, navdebug arguments...
  local name=$1; shift
  rm -f "$out/$name.png"
  if ! timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" "$exe" "$@" --screenshot "$out/$name.png" --size 1280x800 \
       > "$out/$name.log" 2>&1; then
    bad "$name: navdebug failed: $(tail -3 "$out/$name.log")"; return 1
  fi
}

# SHOT_ARGS: navdebug arguments every shot of the script takes (word-split), e.g. --floor-tint-auto off
shot() {  # name, --draw list, [navdebug arguments... --], checker arguments; SHOT_MESH: another mesh
  local name=$1 layers=$2; shift 2
  local extra=()
  if [[ " $* " == *" -- "* ]]; then
    while [ "$1" != "--" ]; do extra+=("$1"); shift; done
    shift
  fi
  render_shot "$name" "${SHOT_MESH:-$src/assets/demo.obj}" --config "$src/assets/demo.json" --draw "$layers" ${SHOT_ARGS:-} \
    "${extra[@]}" || return
  check_shot "$name" "$name" "$@"
}
shot_cfg() {  # name, config, [navdebug arguments... --] checker arguments: the demo level with that config
  local name=$1 cfg=$2; shift 2
  local extra=()
  if [[ " $* " == *" -- "* ]]; then
    while [ "$1" != "--" ]; do extra+=("$1"); shift; done
    shift
  fi
  render_shot "$name" "$src/assets/demo.obj" --config "$cfg" "${extra[@]}" || return
  check_shot "$name" "$name" "$@"
}

check_shot() {  # name, image name (in $out, no .png), checker arguments...
  local name=$1 img=$2; shift 2
  local msg
  [ -f "$out/$img.png" ] || { bad "$name: no $img.png"; return; }
  if msg=$($check "$out/$img.png" "$@"); then ok "$name: $msg"; else bad "$name: $msg"; fi
}
check_not() {  # name, image name, checker arguments...: the check must fail (the colour absent, say)
  local name=$1 img=$2; shift 2
  local msg
  if msg=$($check "$out/$img.png" "$@"); then bad "$name: should not match: $msg"; else ok "$name: as expected, $msg"; fi
}
check_state() {  # name, state dump name (in $out, no .json), python expression on s (the dump)
  if python3 - "$out/$2.json" "$3" <<'PY'; then ok "$1: $3"; else bad "$1: $3 is false: $(head -c 600 "$out/$2.json")"; fi
import json, sys
s = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2], {}, {"s": s}) else 1)
PY
}

# Pixels of colour R,G,B (within 24 per channel) in the right panel (x from 75% of the width; y
# from PANEL_TOP of the height, default 0, PANEL_NAME naming that part in the messages). check_png's
# blank test does not suit a text area, so this counts on its own.
panel_pixels() {  # name, image, colour, min count, [max count]
  local name=$1 img=$2 color=$3 min=$4 max=${5:-} part=${PANEL_NAME:-right panel}
  local n
  n=$(python3 - "$src/tests/e2e" "$out/$img.png" "$color" "${PANEL_TOP:-0}" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from check_png import read_png
w, h, bpp, rows = read_png(sys.argv[2])
c = tuple(int(v) for v in sys.argv[3].split(","))
x0, y0 = int(w * 0.75), int(h * float(sys.argv[4]))
print(sum(1 for y in range(y0, h) for x in range(x0, w)
          if all(abs(rows[y][x * bpp + k] - c[k]) <= 24 for k in range(3))))
PY
  ) || { bad "$name: cannot read $img.png"; return; }
  if [ "$n" -ge "$min" ] && { [ -z "$max" ] || [ "$n" -le "$max" ]; }; then ok "$name: $n pixels of $color in the $part"
  else bad "$name: $n pixels of $color in the $part, expected ${min}..${max:-}"; fi
}

expect_exit2() {  # name, expected text, navdebug arguments...
  local name=$1 text=$2; shift 2
  local log="$out/$name.log"
  timeout 120 xvfb-run -a -s "-screen 0 640x480x24" "$exe" "$@" --screenshot "$out/$name.png" > "$log" 2>&1
  local code=$?
  if [ $code -eq 2 ] && grep -q -- "$text" "$log"; then ok "$name: exit 2, '$text'"
  else bad "$name: exit $code, expected 2 with '$text': $(tail -2 "$log")"; fi
}
finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
