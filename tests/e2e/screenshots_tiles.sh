#!/usr/bin/env bash
# Tiled bakes under Xvfb (render/layers.cpp: build_layer draws the per-grid layers tile by tile,
# build_tiles_layer): the demo baked with tile_size 32 shows its regions and polygons from every
# tile; the tiles layer fills each tile by its bake time (green fastest, red slowest) in a grid
# of white lines; the same layers on the solo bake differ; a tile smaller than its border exits 2;
# a selected tile drawn alone; a bake held half done with its progress shown.
# usage: screenshots_tiles.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

tiled="--set tile_size=32"
top="--camera 0,120,1,0,0,0"
shot tiled_regions regions $tiled -- --hues 6
shot solo_regions regions -- --hues 6
if msg=$($check "$out/tiled_regions.png" --differs "$out/solo_regions.png:0.01"); then ok "tiled regions differ from solo: $msg"
else bad "tiled regions should differ from solo (tile borders cut regions): $msg"; fi
# voxels of every tile (span instances moved onto one grid): the walkable span colour
# (colors::kSolidWalkable) over a good part of the view, as in the solo bake
shot tiled_voxels voxels $tiled -- --color 84,150,204:0.05
shot solo_voxels voxels -- --color 84,150,204:0.05
# polygons of every tile: the ground colour (area_color(63)) over much of the view
shot tiled_polymesh polymesh $tiled -- --hue 195:0.05
# the tiles layer from above: at least the fastest tile green and the slowest red (one tile is
# about 1% of the view; the shares between depend on the timings)
shot tiles_layer tiles $tiled $top -- --hue 130:0.005 --hue 5:0.005
# the grid lines (colors::kTileEdge, near white)
shot tiles_edges tiles $tiled $top -- --color 235,235,245:0.003

# A selected tile alone (--tile-select, --tile-only; app/navdebug/tile_tool.h): its regions lie
# inside its outline (the yellow box drawn over the view, colour 255,200,40) grown by the border
# the tile is baked with, and nothing far outside; with every tile drawn they spread past it
# (the check can fail). No panels: the whole window is the view.
px="python3 $src/tests/e2e/tile_pixels.py"
sel_rgb=255,200,40
near_11="--camera -5.85,28,-5.75,-5.85,0,-5.85"   # over tile 1,1 (x, z in -10.65..-1.05 m)
shot tile_only regions $tiled $near_11 --no-ui --tile-select 1,1 --tile-only -- --hues 2
shot tile_selected_all regions $tiled $near_11 --no-ui --tile-select 1,1 -- --hues 4
if msg=$($px inside "$out/tile_only.png" $sel_rgb 0.25 0.05 0.02); then ok "tile_only_inside: $msg"
else bad "tile_only_inside: $msg"; fi
if msg=$($px outside "$out/tile_selected_all.png" $sel_rgb 0.25 0.30); then ok "all_tiles_outside: $msg"
else bad "all_tiles_outside: $msg"; fi
# the selection is kept in sessions ("tile": {"select", "only"}): saved, then loaded without the
# flags, the same picture
shot tile_session_save regions $tiled $near_11 --no-ui --tile-select 1,1 --tile-only \
  --save-session "$out/tile_session.json" -- --hues 2
if grep -q '"only": true' "$out/tile_session.json"; then ok "tile_session_json: tile saved"
else bad "tile_session_json: no \"tile\" in $(cat "$out/tile_session.json")"; fi
shot tile_session_load regions $tiled --no-ui --session "$out/tile_session.json" -- --same "$out/tile_only.png"

# A bake half done: --hold-tiles N (test only) stops the first tiled bake after N tiles (one
# thread, so exactly N) and the screenshot is taken while it waits. The status box at the top of
# the view and the Stages panel show the progress bar (ImGui's PlotHistogram colour) with
# "tiles N / M"; the tiles drawn so far show their regions, the rest not yet: fewer coloured
# pixels than the finished bake, but some.
bar=230,179,0
shot tiles_half input,regions,tiles $tiled --set threads=1 $top --hold-tiles 5 -- --hues 2
shot tiles_full input,regions,tiles $tiled --set threads=1 $top -- --hues 6
if msg=$($check "$out/tiles_half.png" --area 0.30,0.0,0.72,0.08 --flat-ok --color $bar:0.01); then
  ok "half_status_bar: $msg"; else bad "half_status_bar: $msg"; fi
if msg=$($check "$out/tiles_half.png" --area 0.755,0.06,1.0,0.25 --flat-ok --color $bar:0.002); then
  ok "half_panel_bar: $msg"; else bad "half_panel_bar: $msg"; fi
if msg=$($check "$out/tiles_full.png" --area 0.30,0.0,0.72,0.08 --flat-ok --max-color $bar:0); then
  ok "full_no_bar: $msg"; else bad "full_no_bar: $msg"; fi
view=0.30,0.10,0.72,0.90
half=$($px saturated "$out/tiles_half.png" $view) full=$($px saturated "$out/tiles_full.png" $view)
if python3 -c "import sys; h, f = $half, $full; sys.exit(0 if 0.03 * f < h < 0.75 * f else 1)"; then
  ok "half_some_tiles: coloured share $half of the finished bake's $full"
else bad "half_some_tiles: coloured share $half, finished $full: expected some but clearly fewer"; fi

expect_exit2 tile_below_border "tile border" "$src/assets/demo.obj" --set tile_size=3
expect_exit2 tile_only_alone "--tile-only needs" "$src/assets/demo.obj" --tile-only
expect_exit2 tile_select_bad "--tile-select" "$src/assets/demo.obj" --tile-select 1
finish
