#!/usr/bin/env bash
# Issue 23's small things, headless at the default size 1280x800:
# - panels that fit: in many panel states (the first bake, baking, every layer's legend, the path
#   panel's read-outs, islands and a prune, a tiled bake's Tile panel, warnings, the Why panel, a
#   2D map) no item of a panel runs past its edge. navdebug measures it (panel_fit.h: the widest
#   item ImGui laid out against the panel's content edge) and logs "panel fit: PANEL: ..." when a
#   panel's overflow changes; the last such line of each panel must be "fits again" (a report from
#   the first frames, before the first bake is laid out, is allowed: the last frame is what stays).
# - a new level starts with no picks: with a path, a Why point and a clip on demo.obj, --then-open
#   stairs.obj (the second level dropped on the window) saves a session with none of them, while
#   the same run without --then-open keeps them (the check fails on code that carries them over).
# usage: screenshots_fit.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

run() {  # name, navdebug arguments...: $out/NAME.png at the default size, log in $out/NAME.log
  local name=$1; shift
  rm -f "$out/$name.png"
  if timeout 180 xvfb-run -a -s "-screen 0 1280x800x24" "$exe" "$@" --screenshot "$out/$name.png" \
       > "$out/$name.log" 2>&1; then return 0; fi
  bad "$name: navdebug failed: $(tail -3 "$out/$name.log")"
  return 1
}
fits() {  # name, navdebug arguments...: the panels fit in the last frame
  local name=$1; shift
  run "$name" "$@" || return
  if ! grep -q "navdebug: wrote" "$out/$name.log"; then bad "$name: no screenshot written"; return; fi
  local cut
  cut=$(grep -o "panel fit: [^:]*: .*" "$out/$name.log" |
        awk -F': ' '{last[$2] = $0} END {for (p in last) if (last[p] !~ /fits again/) print last[p]}')
  if [ -n "$cut" ]; then bad "$name: $cut"
  else ok "$name: every panel fits 1280x800 ($(grep -c "panel fit" "$out/$name.log") transient reports)"; fi
}

demo=("$src/assets/demo.obj" --config "$src/assets/demo.json")
fits default "${demo[@]}"
fits baking "${demo[@]}" --hold-bake 1
fits all_layers "${demo[@]}" --draw input,voxels,filtered,compact,eroded,areas,distance,regions,raw_contours,contours,polymesh,detail,navmesh,islands,path
fits path_nodes "${demo[@]}" --draw navmesh,path --path 0,0.2,0:10.2,0.2,-12 --path-nodes --funnel-step 3
fits path_optimal "${demo[@]}" --draw navmesh,path --path 0,0.2,0:10.2,0.2,-12 --path-mode optimal
fits pruned "${demo[@]}" --draw islands --prune 0,0.2,0
fits inspector "${demo[@]}" --draw regions --select 0,0.2,0
fits stage_regions "${demo[@]}" --stage regions
fits tiled "${demo[@]}" --set tile_size=48 --tile-select 1,1 --draw regions,tiles
fits warnings "${demo[@]}" --set cell_size=0.05 --set agent_radius=0.02
fits why "${demo[@]}" --why 6,3.2,6 --draw input,navmesh
fits see_inside "${demo[@]}" --floor-tint --clip 0,3 --section 5,0,0,1,0,0
fits map2d "$src/assets/map2d_rooms.json"
fits stairs "$src/assets/stairs.obj"

# a new level starts with no picks
picks=(--draw navmesh,path --path 0,0.2,0:10.2,0.2,-12 --why 6,3.2,6 --clip 0,3)
if run keep_picks "${demo[@]}" "${picks[@]}" --save-session "$out/keep.json" &&
   run new_level "${demo[@]}" "${picks[@]}" --then-open "$src/assets/stairs.obj" --save-session "$out/new.json"; then
  if msg=$(python3 - "$out/keep.json" "$out/new.json" <<'PY'
import json, sys
keep, new = (json.load(open(p)) for p in sys.argv[1:3])
for k in ("path", "why"):
    if k not in keep:
        sys.exit(f"the control run (no second level) lost '{k}': the check would prove nothing")
if not new.get("mesh", "").endswith("stairs.obj"):
    sys.exit(f"the second level was not opened: mesh {new.get('mesh')}")
left = [k for k in ("path", "why") if k in new]
clip = new.get("view", {}).get("clip")
if clip is not None:
    left.append(f"view.clip {clip}")
if left:
    sys.exit("the old level's picks were carried to the new one: " + ", ".join(left))
print("the path, the Why point and the clip of demo.obj are gone on stairs.obj (kept without --then-open)")
PY
  ); then ok "new level: $msg"; else bad "new level: $msg"; fi
fi
finish
