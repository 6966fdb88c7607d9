#!/usr/bin/env bash
# The link tool by hand: a real navdebug window under Xvfb driven by xdotool, each step asserted
# from the window's --state-dump (test only): a click sets a link's start (Esc cancels it), a
# second click its end and the bake's navmesh gets the link (no tile re-baked); Ctrl+Z takes it
# back and Ctrl+Shift+Z redoes it; a press on its end and a drag moves the end; Delete removes it.
# usage: window_links.sh NAVDEBUG OUTDIR SRC_DIR [FRAME_MS]
set -euo pipefail
exe=$1 out=$2 src=$3 frame_ms=${4:-100}
name=window_links displays=$(seq 141 190)
source "$src/tests/e2e/window_lib.sh"

rm -f "$dump"
"$exe" "$src/assets/demo.obj" --config "$src/assets/demo.json" --draw navmesh,links --tool link \
  --camera 0,60,0.01,0,0,0 --test-frame-ms "$frame_ms" --state-dump "$dump" > "$out/navdebug.log" 2>&1 &
app_pid=$!
win=$(timeout 20 xdotool search --sync --name '^navdebug$' | head -1 || true)
[ -n "$win" ] || { echo "window_links: FAIL: no navdebug window"; cat "$out/navdebug.log"; exit 1; }
xdotool windowmove "$win" 0 0 windowsize "$win" 1280 800
wait_for 'not s["bake_busy"] and s["mesh_loaded"] and s["tool"] == 9' 60

# 1. a click sets the start; Esc cancels it
xdotool mousemove 600 400 click 1
wait_for 's["link_pending"] is not None and s["links"] == []' 10
xdotool key Escape
wait_for 's["link_pending"] is None and s["links"] == []' 10
echo "window_links: ok: a click sets a link's start, Esc cancels it"

# 2. two clicks: a link from the first point to the second, in the bake's navmesh, no tile re-baked
xdotool mousemove 600 400 click 1
wait_for 's["link_pending"] is not None' 10
xdotool mousemove 700 470 click 1
wait_for 'len(s["links"]) == 1 and s["link_pending"] is None and s["link_selected"] == 0' 10
wait_for 's["bake_links"] == 1 and s["navmesh_links"] == 1 and not s["bake_busy"]' 30
end0=$(state 's["links"][0]["end"]')
echo "window_links: ok: two clicks place a link ($(state 's["links"][0]["start"]') -> $end0), the navmesh has it"

# 3. undo takes it back, redo brings it again
xdotool mousemove 800 300
xdotool key ctrl+z
wait_for 's["links"] == [] and s["bake_links"] == 0 and s["navmesh_links"] == 0' 30
xdotool key ctrl+shift+z
wait_for 'len(s["links"]) == 1 and s["bake_links"] == 1' 30
echo "window_links: ok: Ctrl+Z removes the link, Ctrl+Shift+Z brings it back"

# 4. a press on the link's end grabs it; dragging moves the end
xdotool mousemove 700 470 mousedown 1
sleep 0.3
for x in 690 680 670 660; do xdotool mousemove "$x" 470; sleep 0.15; done
xdotool mouseup 1
wait_for "s['links'][0]['end'] != $end0 and s['links'][0]['end'][0] < $end0[0] - 0.5 and s['link_selected'] == 0" 10
echo "window_links: ok: dragging the end moved it from $end0 to $(state 's["links"][0]["end"]')"

# 5. Delete removes the selected link
xdotool key Delete
wait_for 's["links"] == [] and s["link_selected"] == -1' 10
wait_for 's["bake_links"] == 0 and s["navmesh_links"] == 0 and not s["bake_busy"]' 30
echo "window_links: ok: Delete removes the selected link"
echo "window_links: 5 checks passed"
