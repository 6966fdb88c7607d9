#!/usr/bin/env bash
# The debugger by hand: a real navdebug window under Xvfb, driven by xdotool (package xdotool),
# each check asserted from the window's --state-dump (test only). Frames are slowed to 300 ms
# (--test-frame-ms, test only) so a 20 ms key tap falls inside one frame, as on a big level under
# software OpenGL.
#   a key tap of 20 ms toggles its layer (F1 and ? the shortcut list); a double-click on a file in the Open dialog opens it;
#   the wheel over the Parameters panel scrolls it and leaves the camera; shift+click then click
#   set the path's start, then its end; the volume tool's clicks place a volume (Esc drops the
#   points, a click on the first point closes it), a click selects it, Delete removes it, Ctrl+Z undoes;
#   dragging the selected volume's hull point moves that point (one undo step), dragging inside it moves it.
# usage: window_input.sh NAVDEBUG OUTDIR SRC_DIR [FRAME_MS]
set -euo pipefail
exe=$1 out=$2 src=$3 frame_ms=${4:-300}
name=window_input displays=$(seq 90 140)
source "$src/tests/e2e/window_lib.sh"
# the Open dialog lists this folder: one level mesh to open
levels=$out/levels
mkdir -p "$levels"
cp "$src/assets/demo.obj" "$levels/demo.obj"
cp "$src/assets/stairs.obj" "$levels/stairs.obj"

start_app() {
  rm -f "$dump"
  # no desktop chooser: the Open dialog is the ImGui browser (PATH without zenity / kdialog)
  (cd "$levels" && PATH=/usr/bin:/bin exec "$exe" "$@" --test-frame-ms "$frame_ms" --state-dump "$dump" \
     > "$out/navdebug.log" 2>&1) &
  app_pid=$!
  win=$(timeout 20 xdotool search --sync --name '^navdebug$' | head -1 || true)
  [ -n "$win" ] || { echo "window_input: FAIL: no navdebug window"; cat "$out/navdebug.log"; exit 1; }
  xdotool windowmove "$win" 0 0 windowsize "$win" 1280 800
  wait_for 'not s["bake_busy"] and s["mesh_loaded"]' 60
}
stop_app() {
  kill "$app_pid" 2> /dev/null || true
  wait "$app_pid" 2> /dev/null || true
  app_pid=""
}

t0=$(date +%s.%N)
start_app "$levels/demo.obj"

# 1. a 20 ms tap of 1 toggles the input layer (frames take $frame_ms ms)
xdotool mousemove 800 400
wait_for '"input" in s["layers"]' 5
xdotool keydown 1 sleep 0.02 keyup 1
wait_for '"input" not in s["layers"]' 10
xdotool keydown 1 sleep 0.02 keyup 1
wait_for '"input" in s["layers"]' 10
echo "window_input: ok: a 20 ms tap toggles the input layer at $frame_ms ms frames"
# the shortcut list: F1 shows it, ? (Shift+/) hides it
xdotool keydown F1 sleep 0.02 keyup F1
wait_for 's["shortcuts_shown"]' 10
xdotool key question
wait_for 'not s["shortcuts_shown"]' 10
echo "window_input: ok: F1 shows the shortcut list, ? hides it"

# 2. the wheel over the left panel scrolls it and leaves the camera where it was
cam=$(state 's["camera"]')
xdotool mousemove 150 500
for _ in 1 2 3; do xdotool click 5; done
wait_for 's["params_scroll_y"] > 0' 10
sleep 0.5
[ "$(state 's["camera"]')" = "$cam" ] || { echo "window_input: FAIL: the wheel over the panel moved the camera"; exit 1; }
echo "window_input: ok: the wheel over the panel scrolls it ($(state 's["params_scroll_y"]') px), the camera stays"

# 3. the path tool: Shift+click sets the start, a click the end (the path tool is the default click tool)
xdotool mousemove 700 420
xdotool keydown shift click 1 keyup shift
wait_for 's["path"]["start"] is not None' 10
xdotool mousemove 640 560 click 1
wait_for 's["path"]["end"] is not None' 10
echo "window_input: ok: shift+click then click set the path: $(state 's["path"]')"

# 4. the Open dialog (Files > Browse...): a double-click on a file opens it
# the panel back at its top (the wheel up over it), then Browse... sits under the mesh field at the panel's default width (a fresh config dir); the
# dialog opens centred (520 x 420) on the mesh's folder: ../, demo.obj, stairs.obj, a row each
xdotool mousemove 150 500
for _ in 1 2 3 4 5; do xdotool click 4; done
wait_for 's["params_scroll_y"] == 0' 10
xdotool mousemove 165 83 click 1
wait_for 's["open_dialog"]' 10
xdotool mousemove 470 "${FILE_Y:-280}" click --repeat 2 --delay 80 1
wait_for 's["mesh"].endswith("stairs.obj") and not s["open_dialog"]' 10
wait_for 's["mesh_loaded"] and not s["bake_busy"]' 60
echo "window_input: ok: a double-click in the Open dialog opened $(state 's["mesh"]')"
stop_app

# 5. the volume tool: clicks on the level add points, Esc drops them; four clicks and a click on
# the first point close the hull as a volume (the worker bakes it); a click on it selects it,
# Delete removes it, Ctrl+Z brings it back. Looking nearly straight down at open ground.
start_app "$levels/demo.obj" --tool volume --camera 6.25,25,2.5,6.25,0,-1.5
nvol=$(state 'len(s["volumes"])')
corners="560,330 740,330 740,470 560,470"
for c in $corners; do xdotool mousemove "${c%,*}" "${c#*,}" click 1; done
wait_for 's["volume_points"] == 4' 10
xdotool key Escape
wait_for 's["volume_points"] == 0' 10
for c in $corners 560,330; do xdotool mousemove "${c%,*}" "${c#*,}" click 1; done
wait_for "len(s[\"volumes\"]) == $nvol + 1 and s[\"volumes\"][-1][\"points\"] == 4 and s[\"volume_points\"] == 0" 10
wait_for "s[\"bake_volumes\"] == $nvol + 1 and not s[\"bake_busy\"]" 60
echo "window_input: ok: clicks placed a volume: $(state 's["volumes"][-1]')"
xdotool mousemove 450 650 click 1
wait_for 's["volume_points"] == 1 and s["volume_selected"] == -1' 10
xdotool key Escape
xdotool mousemove 650 400 click 1
wait_for "s[\"volume_selected\"] == $nvol and s[\"volume_points\"] == 0" 10
xdotool key Delete
wait_for "len(s[\"volumes\"]) == $nvol and s[\"bake_volumes\"] == $nvol and not s[\"bake_busy\"]" 60
xdotool key ctrl+z
wait_for "len(s[\"volumes\"]) == $nvol + 1 and s[\"bake_volumes\"] == $nvol + 1 and not s[\"bake_busy\"]" 60
echo "window_input: ok: a click selects the volume, Delete removes it, Ctrl+Z brings it back"
# 6. the selected volume's hull points are handles: a press on the corner placed at 740,470 and a
# drag to 800,520 moves that point (down-right on screen: +x, +z); Ctrl+Z puts it back in one step.
# A drag from inside it (650,400) moves the whole volume (up on screen: -z).
xdotool mousemove 650 400 click 1
wait_for "s[\"volume_selected\"] == $nvol" 10
xz0=$(state 's["volumes"][-1]["xz"]')
drag() {  # x0 y0 x1 y1: press, move there in four steps a frame or more apart, release
  xdotool mousemove "$1" "$2" mousedown 1
  sleep "$(python3 -c "print(2 * $frame_ms / 1000)")"
  for f in 1 2 3 4; do
    xdotool mousemove $(($1 + ($3 - $1) * f / 4)) $(($2 + ($4 - $2) * f / 4))
    sleep "$(python3 -c "print(1.5 * $frame_ms / 1000)")"
  done
  xdotool mouseup 1
}
drag 740 470 800 520
wait_for "(lambda p, o: len(p) == 4 and max(x for x, z in p) > max(x for x, z in o) + 0.5 and max(z for x, z in p) > max(z for x, z in o) + 0.5 and sum(q in o for q in p) == 3)(s['volumes'][-1]['xz'], $xz0) and not s['volume_dragging']" 10
wait_for "s[\"bake_volumes\"] == $nvol + 1 and not s[\"bake_busy\"]" 60
echo "window_input: ok: dragging a hull point moved it: $xz0 -> $(state 's["volumes"][-1]["xz"]')"
xdotool key ctrl+z
wait_for "s['volumes'][-1]['xz'] == $xz0" 10
echo "window_input: ok: Ctrl+Z puts the point back in one step"
drag 650 400 650 340
wait_for "(lambda p, o: len(p) == 4 and all(abs(a[0] - b[0]) < 0.05 and a[1] < b[1] - 0.5 for a, b in zip(p, o)))(s['volumes'][-1]['xz'], $xz0) and not s['volume_dragging']" 10
echo "window_input: ok: dragging inside the volume moved it in z: $(state 's["volumes"][-1]["xz"]')"
stop_app
t1=$(date +%s.%N)
echo "window_input: all checks passed in $(python3 -c "print(round($t1 - $t0, 1))") s"
