#!/usr/bin/env bash
# navdebug screenshot tests under Xvfb: every draw layer rendered on the demo scene into a PNG that
# must not be blank and must show the layer's colours (tests/e2e/check_png.py), several layers at
# once, and bad input that must exit 2 with a message.
# usage: screenshots.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

# colours from render/layers.h (colors::, area_color); lighting scales them, the checker allows it
shot input        input        --color 214,116,46:0.01 --color 206,204,196:0.05
shot voxels       voxels       --color 84,150,204:0.05
shot filtered     filtered     --color 96,196,108:0.05 --color 240,152,30:0.003 --color 224,52,70:0.0001
shot compact      compact      --color 0,192,255:0.05
shot eroded       eroded       --color 64,160,236:0.05 --color 236,74,58:0.01
shot areas        areas        --color 0,192,255:0.05 --color 36,84,232:0.003
shot distance     distance     --greys 20
shot regions      regions      --hues 8
shot raw_contours raw_contours --hues 6:0.0003
shot contours     contours     --hues 6
shot contours_both raw_contours,contours --hues 6
shot polymesh     polymesh     --color 0,192,255:0.02 --color 36,84,232:0.0005
shot detail       detail       --hues 8
shot several      input,regions,polymesh --hues 8 --color 214,116,46:0.005
shot navmesh      navmesh      --color 0,192,255:0.03
# path tool: straight path magenta, start marker green, end marker red (render/path_draw.cpp)
shot path         navmesh,path --path 0,0.2,0:10.2,0.2,-12 --camera 2,24,14,8,0,-6 -- \
                  --color 255,30,200:0.001 --color 40,220,90:0.0001 --color 240,50,40:0.0001 --color 0,192,255:0.03
shot path_partial navmesh,path --path 0,0.2,0:16.5,6.1,16.2 --camera 4,26,30,10,0,7 -- \
                  --color 255,30,200:0.001 --color 240,50,40:0.0001
shot path_funnel  navmesh,path --path -17.1,0.9,-2.7:-3.9,4.1,-15.0 --path-nodes --funnel-step 3 \
                  --camera -8,26,8,-10,0,-10 -- --color 255,30,200:0.0005 --color 255,150,40:0.0003 --color 70,130,255:0.0003
# raycast mode: ray yellow, blocked rest orange, wall normal magenta; wall mode: distance circle violet
shot path_raycast navmesh,path --path 0,0.2,0:10.2,0.2,-12 --camera 2,24,14,8,0,-6 --path-mode raycast -- \
                  --color 255,220,0:0.001 --color 255,120,0:0.0001 --color 255,70,255:0.0001 --color 40,220,90:0.0001
shot path_wall    navmesh,path --path 0,0.2,0:10.2,0.2,-12 --camera 2,24,14,8,0,-6 --path-mode wall -- \
                  --color 190,110,255:0.001 --color 255,140,20:0.0005 --color 40,220,90:0.0001

printf 'this is not a mesh\n' > "$out/not_a_mesh.obj"
expect_exit2 bad_mesh "no faces" "$out/not_a_mesh.obj"
expect_exit2 missing_mesh "file not found" "$out/no_such_mesh.obj"
expect_exit2 bad_param "agent_radius" "$src/assets/demo.obj" --set agent_radius=-1
expect_exit2 bad_layer "unknown draw layer" "$src/assets/demo.obj" --draw regoins
expect_exit2 bad_path "expected sx,sy,sz:ex,ey,ez" "$src/assets/demo.obj" --draw navmesh,path --path 1,2,3:4,5
expect_exit2 nan_path "path" "$src/assets/demo.obj" --draw navmesh,path --path 1,nan,3:4,5,6
expect_exit2 bad_path_mode "path-mode" "$src/assets/demo.obj" --draw navmesh,path --path-mode foo

finish
