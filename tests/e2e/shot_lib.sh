#!/usr/bin/env bash
# Shared by the navdebug screenshot scripts (tests/e2e/screenshots*.sh), which source it after
# setting: exe (navdebug), out (output folder), src (source folder). Provides ok / bad counters,
# shot (render the demo scene, or SHOT_MESH with the demo's config, and check the PNG's colours),
# expect_exit2 and finish.
set -u
mkdir -p "$out"
check="python3 $src/tests/e2e/check_png.py"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# SHOT_ARGS: navdebug arguments every shot of the script takes (word-split), e.g. --floor-tint-auto off
shot() {  # name, --draw list, [navdebug arguments... --], checker arguments; SHOT_MESH: another mesh
  local name=$1 layers=$2; shift 2
  local extra=()
  if [[ " $* " == *" -- "* ]]; then
    while [ "$1" != "--" ]; do extra+=("$1"); shift; done
    shift
  fi
  local png="$out/$name.png"
  rm -f "$png"
  if ! timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" "$exe" "${SHOT_MESH:-$src/assets/demo.obj}" \
       --config "$src/assets/demo.json" --draw "$layers" ${SHOT_ARGS:-} "${extra[@]}" --screenshot "$png" --size 1280x800 \
       > "$out/$name.log" 2>&1; then
    bad "$name: navdebug failed: $(tail -3 "$out/$name.log")"; return
  fi
  if msg=$($check "$png" "$@"); then ok "$name: $msg"; else bad "$name: $msg"; fi
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
