#!/usr/bin/env bash
# Shared by the real-window tests (tests/e2e/window_*.sh), which source it after `set -euo pipefail`
# and setting: name (the test's name in its messages), exe (navdebug), out (output folder), src
# (source folder), displays (the X display numbers to try, e.g. "$(seq 90 140)": each test its own
# range, so two can run at once). It makes the three paths absolute, skips (exit 77) without Xvfb,
# xdotool or python3, starts an Xvfb screen of 1280x800 on the first free display (DISPLAY), kills
# it and the app ($app_pid, when set) on exit, gives the app a config folder of its own
# (XDG_CONFIG_HOME: recent files, imgui.ini), and provides, on the app's state dump $dump:
#   wait_for PYTHON_EXPR TIMEOUT_S  until the dump (as s) makes the expression true; else FAIL, exit 1
#   state PYTHON_EXPR               prints the expression on the dump
mkdir -p "$out"
out=$(cd "$out" && pwd)
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")
src=$(cd "$src" && pwd)
for tool in Xvfb xdotool python3; do
  command -v "$tool" > /dev/null || { echo "$name: skipped: $tool not installed (scripts/setup.sh)"; exit 77; }
done

# a display of our own (xvfb-run -a would do the same; the test then needs no wrapper)
disp=""
for n in $displays; do
  if [ ! -e /tmp/.X$n-lock ]; then disp=":$n"; break; fi
done
[ -n "$disp" ] || { echo "$name: no free X display number"; exit 1; }
Xvfb "$disp" -screen 0 1280x800x24 -nolisten tcp > "$out/xvfb.log" 2>&1 &
xvfb_pid=$!
app_pid=""
cleanup() {
  [ -n "$app_pid" ] && kill "$app_pid" 2> /dev/null || true
  kill "$xvfb_pid" 2> /dev/null || true
  wait 2> /dev/null || true
}
trap cleanup EXIT
export DISPLAY=$disp
up=0
for _ in $(seq 100); do
  if xdotool getmouselocation > /dev/null 2>&1; then up=1; break; fi
  kill -0 "$xvfb_pid" 2> /dev/null || break  # Xvfb exited (the display taken meanwhile, say)
  sleep 0.05
done
[ "$up" = 1 ] || { echo "$name: FAIL: Xvfb on $disp did not start: $(tail -3 "$out/xvfb.log")"; exit 1; }
export XDG_CONFIG_HOME=$out/config
rm -rf "$XDG_CONFIG_HOME"
mkdir -p "$XDG_CONFIG_HOME"

dump=$out/state.json
wait_for() {
  python3 - "$dump" "$1" "$2" <<'PY' || { echo "$name: FAIL: timed out waiting for: $1"; cat "$dump" 2>/dev/null; exit 1; }
import json, sys, time
path, expr, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
end = time.time() + limit
while time.time() < end:
    try:
        with open(path) as f:
            s = json.load(f)
        if eval(expr, {}, {"s": s}):
            sys.exit(0)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        pass
    time.sleep(0.02)
sys.exit(1)
PY
}
state() { python3 -c "import json,sys; s=json.load(open('$dump')); print(eval(sys.argv[1]))" "$1"; }
