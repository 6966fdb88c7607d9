#!/usr/bin/env bash
# 2D maps under Xvfb (app/navdebug/map2d_*.cpp, render/map2d_draw.h): a .json map opens in the
# orthographic top view with its triangulation (constraint edges yellow), the clipped free space
# (outer rings green, holes red), the merged convex polygons (a hue each), the Weiler-Atherton
# trace at a step (intersection lists: entering green, leaving red; later the result rings cyan),
# the CDT after a step (the step's edge magenta), the path tool with Polyanya's optimal path
# (green) beside the A* + funnel path (magenta) and its search (intervals yellow), a .mesh file;
# a bad map file and a malformed .mesh exit 2 naming the file.
# usage: screenshots_map2d.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

# render/map2d_draw.h map2d_colors and map2d_optimal.cpp
constraint=255,210,40 entering=60,230,90 leaving=240,50,60 ring=40,240,250 stepmark=255,60,230
free_outer=60,220,110 free_hole=240,60,70
optimal=20,255,120 funnel=255,30,200 interval=250,250,40

SHOT_MESH=$src/assets/map2d_obstacles.json
shot map_navmesh navmesh
shot map_cdt navmesh,map_cdt --color $constraint:0.004 --differs "$out/map_navmesh.png:0.01"
# the clipped free space: the outline's ring green, the 26 obstacle holes red; no triangulation
shot map_clipped navmesh,map_clipped --color $free_outer:0.002 --color $free_hole:0.004 \
  --max-color $constraint:0.0005 --differs "$out/map_navmesh.png:0.005"
# the merged convex polygons (132 on this map), each filled with its own hue, over nothing else
shot map_merged map_merged --hues 8 --differs "$out/map_cdt.png:0.05"
# Weiler-Atherton, union of the obstacles: step 12 has intersection-list entries marked; the last
# step (clamped) shows the clip's result rings
shot map_wa_early map_input --wa-step 12 -- --color $entering:0.00005 --color $leaving:0.00005
shot map_wa_last map_input --wa-step 100000 -- --color $ring:0.002 --differs "$out/map_wa_early.png:0.002"
# Polyanya: start top left, goal bottom right; the optimal path leaves the funnel's corridor
path="--path 2,0,3:57,0,56"
shot map_path navmesh,path $path --
shot map_optimal navmesh,path $path --path-mode optimal -- --color $optimal:0.001 --color $funnel:0.001 \
  --differs "$out/map_path.png:0.001"
shot map_search navmesh,path $path --polyanya-step 30 -- --color $interval:0.002 --color $optimal:0.001 \
  --differs "$out/map_optimal.png:0.0005"

SHOT_MESH=$src/assets/map2d_rooms.json
shot map_cdt_step map_input --cdt-step 60 -- --color $stepmark:0.0005

# a .mesh file (Polyanya's format, version 2): two squares side by side
mesh=$out/two_squares.mesh
printf 'mesh\n2\n6 2\n0 0 1 0\n4 0 2 0 1\n8 0 1 1\n8 4 1 1\n4 4 2 1 0\n0 4 1 0\n4 0 1 4 5 -1 -1 1 -1\n4 1 2 3 4 0 -1 -1 -1\n' > "$mesh"
SHOT_MESH=$mesh shot mesh_file navmesh --hues 1

printf '{"outline": [[0,0],[1,0]]}\n' > "$out/bad_map.json"
expect_exit2 bad_map "bad_map.json: outline" "$out/bad_map.json"
printf 'mesh\n2\n4 1\n0 0\n' > "$out/bad.mesh"
expect_exit2 bad_mesh "bad.mesh:4" "$out/bad.mesh"
finish
