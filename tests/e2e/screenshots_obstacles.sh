#!/usr/bin/env bash
# Temporary obstacles under Xvfb (core/bake/obstacles.h, app/navdebug/obstacle_tool.cpp), seen from
# straight above the demo level: a cylinder on the straight line of a path and a box turned 30
# degrees, given in the config's "obstacles", with the obstacle tool on.
#  - both are drawn in the obstacle colour (none of it without them), and the Obstacles panel lists
#    them;
#  - the navmesh has a hole under each (the background shows where the path's corridor was yellow);
#  - the path no longer runs straight through the cylinder's middle (it did without it) but round it.
# A config with a negative radius, or an unknown shape, exits 2 naming the item and the field.
# usage: screenshots_obstacles.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

python3 - "$src/assets/demo.json" "$out" <<'PY'
import json, sys
demo = json.load(open(sys.argv[1]))
obstacles = [{"shape": "cylinder", "pos": [0, 0, 2], "radius": 1.5, "height": 2.0},
             {"shape": "rotated_box", "pos": [-4, 1, -6], "half": [2.5, 1, 0.6], "yaw_deg": 30}]
json.dump(dict(demo, obstacles=obstacles), open(sys.argv[2] + "/obstacles.json", "w"))
json.dump(dict(demo, obstacles=[dict(obstacles[0], radius=-1)]), open(sys.argv[2] + "/obstacles_negative.json", "w"))
json.dump(dict(demo, obstacles=[obstacles[0], dict(obstacles[1], shape="sphere")]),
          open(sys.argv[2] + "/obstacles_shape.json", "w"))
PY

# straight down on the level: screen x is world x, screen y world z, 14.3 px a metre, (0, 0) at (652, 414)
view="--draw navmesh,path --tool obstacle --path -10,0,2:10,0,2 --camera 0,60,0.01,0,0,0"

orange=255,120,60
shot_cfg obstacles "$out/obstacles.json" $view -- --color $orange:0.002
shot_cfg no_obstacles "$src/assets/demo.json" $view -- --max-color $orange:0.0002
if [ -s "$out/obstacles.png" ] && [ -s "$out/no_obstacles.png" ]; then
  # the Obstacles panel (right side) lists the two: its rows' remove buttons and the fields
  check_shot obstacles_panel obstacles --area 0.75,0.75,1.0,0.95 --differs "$out/no_obstacles.png:0.05" --flat-ok
  # under the turned box (world -4, -6): the level's background, where the corridor was yellow
  box_hole="--area 0.461,0.404,0.469,0.416 --flat-ok"
  check_shot box_hole obstacles $box_hole --max-hue 55:0.02 --max-hue 195:0.02
  check_shot box_hole_before no_obstacles $box_hole --hue 55:0.5
  # the path's straight line through the cylinder's middle (world 0, 2): magenta without the
  # cylinder, none with it (the path bends round to the north)
  middle="--area 0.500,0.548,0.520,0.560 --flat-ok"
  check_shot path_straight_before no_obstacles $middle --hue 315:0.05
  check_shot path_round obstacles $middle --max-hue 315:0
fi

expect_exit2 obstacles_negative "obstacles\[0\]: radius -1 must be a finite number > 0" \
  "$src/assets/demo.obj" --config "$out/obstacles_negative.json"
expect_exit2 obstacles_shape "obstacles\[1\]" "$src/assets/demo.obj" --config "$out/obstacles_shape.json"
finish
