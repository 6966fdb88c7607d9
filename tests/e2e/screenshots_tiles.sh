#!/usr/bin/env bash
# Tiled bakes under Xvfb (render/layers.cpp: build_layer draws the per-grid layers tile by tile,
# build_tiles_layer): the demo baked with tile_size 32 shows its regions and polygons from every
# tile; the tiles layer fills each tile by its bake time (green fastest, red slowest) in a grid
# of white lines; the same layers on the solo bake differ; a tile smaller than its border exits 2.
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
expect_exit2 tile_below_border "tile border" "$src/assets/demo.obj" --set tile_size=3
finish
