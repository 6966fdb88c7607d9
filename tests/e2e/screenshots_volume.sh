#!/usr/bin/env bash
# The convex volume tool under Xvfb (app/navdebug/volume_tool.h): a config with a custom area
# "lava" (red) and `--add-volume lava:...` (six level points, one inside the others' hull: the tool
# makes their hull a volume after the first bake, as clicks and Enter would). Looking straight
# down at it, the navmesh layer draws the polygons inside the volume red and nothing outside it;
# without the volume no red anywhere. With the volume tool on, the volume is also drawn as a
# translucent prism with the selected volume's yellow outline. The state dump lists the volumes
# (the demo's water one and the new lava one, 5 hull points) and the bake carrying both. Tiled
# (tile_size 32), the second bake re-bakes exactly the tiles whose bordered box the volume meets.
# An unknown area or points on one line exit 2 naming them.
# usage: screenshots_volume.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

# demo.json (its water volume) plus an area table with lava in red
python3 - "$src/assets/demo.json" "$out" <<'PY'
import json, sys
demo = json.load(open(sys.argv[1]))
areas = [{"name": "ground", "id": 63}, {"name": "water", "id": 1, "flags": ["swim"]}, {"name": "road", "id": 2},
         {"name": "door", "id": 3, "flags": ["walk", "door"]}, {"name": "grass", "id": 4},
         {"name": "jump", "id": 5, "flags": ["jump"]}, {"name": "lava", "id": 7, "color": [230, 30, 30], "cost": 5}]
json.dump(dict(demo, areas=areas), open(sys.argv[2] + "/lava.json", "w"))
PY
cfg=$out/lava.json
# open ground south of the hall, west of the pool: hull x 2.5..9.5, z -4.5..1.5 (6,-1 is inside)
vol="lava:3,0,-4:9,0,-4.5:6,0,-1:9.5,0,1:4,0,1.5:2.5,0,-1.5"
down="--camera 6.25,25,2.5,6.25,0,-1.5"  # nearly straight down at the volume's middle

run() {  # name, navdebug arguments...: screenshot NAME.png and state dump NAME.json
  rm -f "$out/$1.json"
  render_shot "$1" "$src/assets/demo.obj" --config "$cfg" "${@:2}" --state-dump "$out/$1.json"
}

# the volume placed through the tool, drawn by the navmesh layer (path tool: no prism drawn)
if run vol_navmesh --draw navmesh $down --add-volume "$vol"; then
  check_shot vol_navmesh_red vol_navmesh --hue 0:0.08 --max-hue 55:0.0005
  # red fills the view's middle (where the volume is) and nothing near the view's left and top edges
  check_shot vol_navmesh_inside vol_navmesh --area 0.45,0.42,0.56,0.58 --hue 0:0.9 --flat-ok
  check_shot vol_navmesh_outside_left vol_navmesh --area 0.30,0.06,0.38,0.94 --max-hue 0:0.0005
  check_shot vol_navmesh_outside_top vol_navmesh --area 0.30,0.06,0.72,0.30 --max-hue 0:0.0005
  check_state vol_navmesh_state vol_navmesh \
    'len(s["volumes"]) == 2 and s["volumes"][1] == {"area": "lava", "hmin": -1.0, "hmax": 5.0, "points": 5, "xz": [[2.5, -1.5], [3, -4], [9, -4.5], [9.5, 1], [4, 1.5]]} and s["bake_volumes"] == 2 and s["volume_points"] == 0'
fi
# the same without the volume: no red anywhere
if run vol_none --draw navmesh $down; then
  check_shot vol_none_no_red vol_none --max-hue 0:0.0005
  check_state vol_none_state vol_none 'len(s["volumes"]) == 1 and s["volumes"][0]["area"] == "water"'
fi
# the volume tool on: the prisms drawn over the navmesh, the new (selected) one outlined yellow
if run vol_tool --draw navmesh $down --tool volume --add-volume "$vol"; then
  check_shot vol_tool_prism vol_tool --hue 0:0.08 --hue 55:0.002 --differs "$out/vol_navmesh.png:0.01"
  check_state vol_tool_state vol_tool 's["tool"] == 8 and s["volume_selected"] == 1'
fi

# a hull point moved as the panel's field (or a handle drag) moves it: point 3 (9.5, 1) to (11, 2.5)
# grows the volume to the south-east, the navmesh red there too (where vol_navmesh has none); to
# (6, -1), inside the others' hull, the point drops out: 4 points, no red at its old corner
if run vol_moved --draw navmesh $down --add-volume "$vol" --move-volume-point 1:3:11,2.5; then
  check_state vol_moved_state vol_moved \
    's["volumes"][1]["xz"] == [[2.5, -1.5], [3, -4], [9, -4.5], [11, 2.5], [4, 1.5]] and s["bake_volumes"] == 2 and s["volume_selected"] == 1'
  check_shot vol_moved_red vol_moved --area 0.60,0.62,0.625,0.64 --hue 0:0.9 --flat-ok
  check_shot vol_moved_was_not vol_navmesh --area 0.60,0.62,0.625,0.64 --max-hue 0:0.0005 --flat-ok
  check_shot vol_moved_differs vol_moved --differs "$out/vol_navmesh.png:0.005"
fi
if run vol_dropped --draw navmesh $down --add-volume "$vol" --move-volume-point 1:3:6,-1; then
  check_state vol_dropped_state vol_dropped 's["volumes"][1]["xz"] == [[2.5, -1.5], [3, -4], [9, -4.5], [4, 1.5]] and s["bake_volumes"] == 2'
  check_shot vol_dropped_corner vol_dropped --area 0.585,0.56,0.605,0.58 --max-hue 0:0.0005 --flat-ok
  check_shot vol_dropped_corner_was vol_navmesh --area 0.585,0.56,0.605,0.58 --hue 0:0.3 --flat-ok
fi
expect_exit2 vol_move_no_point "--move-volume-point 1:5: volume 1 has 5 hull points" "$src/assets/demo.obj" --config "$cfg" \
  --add-volume "$vol" --move-volume-point 1:5:0,0
expect_exit2 vol_move_no_volume "--move-volume-point 2:0: no volume 2" "$src/assets/demo.obj" --config "$cfg" \
  --add-volume "$vol" --move-volume-point 2:0:0,0
expect_exit2 vol_move_bad "expected VOLUME:POINT:x,z" "$src/assets/demo.obj" --move-volume-point 0:1:2

# tiled: the bake with the volume re-bakes only the tiles whose bordered box meets it
if run vol_tiled --draw navmesh $down --set tile_size=32 --add-volume "$vol"; then
  check_shot vol_tiled_red vol_tiled --hue 0:0.08
  want=$(python3 - "$src/assets/demo.obj" <<'PY'
import math, sys
xs, zs = [], []
for line in open(sys.argv[1]):
    if line.startswith("v "):
        _, x, y, z = line.split()[:4]
        xs.append(float(x)); zs.append(float(z))
cs, ts, border = 0.3, 32, math.ceil(0.6 / 0.3) + 3  # defaults: walkable_radius + 3
bx, bz = min(xs), min(zs)
w = int((max(xs) - bx) / cs + 0.5)
h = int((max(zs) - bz) / cs + 0.5)
cols, rows = (w + ts - 1) // ts, (h + ts - 1) // ts
vx0, vx1, vz0, vz1 = 2.5, 9.5, -4.5, 1.5  # the hull's box
hit = []
for tz in range(rows):
    for tx in range(cols):
        x0, x1 = bx + (tx * ts - border) * cs, bx + ((tx + 1) * ts + border) * cs
        z0, z1 = bz + (tz * ts - border) * cs, bz + ((tz + 1) * ts + border) * cs
        if not (vx1 < x0 or vx0 > x1 or vz1 < z0 or vz0 > z1):
            hit.append(tx + tz * cols)
print(cols, rows, ",".join(map(str, hit)))
PY
  )
  read -r cols rows tiles <<< "$want"
  check_state vol_tiled_grid vol_tiled "s[\"tile_grid\"] == {\"cols\": $cols, \"rows\": $rows}"
  check_state vol_tiled_rebaked vol_tiled "s[\"tiles_rebaked\"] == [$tiles] and 0 < len(s[\"tiles_rebaked\"]) < $cols * $rows"
  echo "     tiles re-baked for the volume: [$tiles] of $((cols * rows))"
fi

expect_exit2 vol_unknown_area "--add-volume: unknown area 'magma'" "$src/assets/demo.obj" --config "$cfg" \
  --add-volume "magma:0,0,0:1,0,0:0,0,1"
expect_exit2 vol_collinear "on one line" "$src/assets/demo.obj" --add-volume "water:0,0,0:1,0,1:2,0,2"
expect_exit2 vol_bad_point "point 1: expected three numbers" "$src/assets/demo.obj" --add-volume "water:0,0,0:1,0:2,0,2"
finish
