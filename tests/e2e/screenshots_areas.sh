#!/usr/bin/env bash
# Area types under Xvfb (core/bake/areas.h, app/navdebug/panels_areas.cpp): a config whose "areas"
# gives water an orange colour (and cost 10) opens the right panel's Areas section by itself: its
# water row's colour swatch is orange, and the navmesh layer draws the demo's water volume in
# orange (the views follow the table); with demo.json alone (default table) the section stays
# closed and no orange shows anywhere. A config with an unknown area name or 64 areas exits 2
# naming the item.
# usage: screenshots_areas.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

orange=255,120,0
top="--camera 15,30,20,15,0,5"  # over the water volume (x 12.1..17.9, z 2.1..7.9)

# demo.json plus "areas": the defaults with water orange and dear; and the bad configs
python3 - "$src/assets/demo.json" "$out" <<'PY'
import json, sys
demo = json.load(open(sys.argv[1]))
areas = [{"name": "ground", "id": 63}, {"name": "water", "id": 1, "color": [255, 120, 0], "cost": 10, "flags": ["swim"]},
         {"name": "road", "id": 2}, {"name": "door", "id": 3, "flags": ["walk", "door"]}, {"name": "grass", "id": 4},
         {"name": "jump", "id": 5, "flags": ["jump"]}, {"name": "mud", "id": 7, "color": [120, 80, 40], "cost": 3}]
json.dump(dict(demo, areas=areas), open(sys.argv[2] + "/areas.json", "w"))
areas[1] = dict(areas[1], cost=1)  # the same colours, water cheap: only the path may differ
json.dump(dict(demo, areas=areas), open(sys.argv[2] + "/areas_cheap.json", "w"))
bad = dict(demo)
bad["volumes"] = [dict(demo["volumes"][0], area="lava")]
json.dump(bad, open(sys.argv[2] + "/areas_unknown.json", "w"))
json.dump(dict(demo, areas=[{"name": "a%d" % i} for i in range(64)]), open(sys.argv[2] + "/areas_64.json", "w"))
PY


# the custom table: the Areas section is open with an orange swatch; the water polygons are orange
# (by hue: the translucent fill over the dark background is not a plain shade of the colour)
shot_cfg areas_panel "$out/areas.json" --draw navmesh $top -- --hue 28:0.02
panel_pixels areas_panel_swatch areas_panel $orange 40
# the default table: the section closed, water in its own blue, no orange
shot_cfg areas_default "$src/assets/demo.json" --draw navmesh $top -- --color 36,84,232:0.02
panel_pixels areas_default_no_swatch areas_default $orange 0 0
check_default() { $check "$out/areas_default.png" --max-hue 28:0.002; }
if msg=$(check_default); then ok "areas_default_no_orange: $msg"; else bad "areas_default_no_orange: $msg"; fi

# the path filter takes the table's costs: with water at cost 10 the path from the west of the water
# to its east goes round it (through the polygon south of it), at cost 1 straight across
cross="--path 10,0,5:20,0,5"
shot_cfg path_dear "$out/areas.json" --draw navmesh,path $top $cross -- --hue 315:0.001
shot_cfg path_cheap "$out/areas_cheap.json" --draw navmesh,path $top $cross -- --hue 315:0.001
check_shot path_dear_differs path_dear --differs "$out/path_cheap.png:0.01"

expect_exit2 areas_unknown "volumes\[0\].area: unknown area 'lava'" "$src/assets/demo.obj" --config "$out/areas_unknown.json"
expect_exit2 areas_64 "areas: 64 area types, at most 63" "$src/assets/demo.obj" --config "$out/areas_64.json"
finish
