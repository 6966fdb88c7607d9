#!/usr/bin/env bash
# A Detour navmesh file in navdebug (issue 20: app/navdebug/map2d_scene.cpp, load_detour_scene):
# the tiny two-tile MSET of the fuzz seeds (made by Detour in tests/diff/test_diff_detour_read.cpp)
# opened as FILE.bin: the islands layer draws one island (both
# tiles stitched), the navmesh layer its polygons in their own colours, the tiles layer the two tiles' squares (kTileFast green) in white outlines, and
# the path tool routes across the tile border; the log says what was opened; a corrupt file exits
# 2 naming the field and its byte offset.
# usage: screenshots_detour.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

bin="$out/tiny.bin"
cp "$src/tests/fuzz/corpus/navmesh/tiny.mset" "$bin"
above="--camera 10,30,30,10,0,5"   # both tiles (x 0..20, z 0..10) from above and in front
export SHOT_MESH=$bin
# island_color(0) (render/islands_draw.cpp): one island over both tiles
shot detour_islands islands $above -- --color 78,142,204:0.05 --max-color 185,225,88:0.001
shot detour_navmesh navmesh $above -- --differs "$out/detour_islands.png:0.05"
if grep -q "opened Detour navmesh $bin (4 polygons)" "$out/detour_navmesh.log"; then ok "log names the Detour navmesh"
else bad "log: $(tail -2 "$out/detour_navmesh.log")"; fi
shot detour_tiles tiles $above -- --hue 130:0.05 --color 235,235,245:0.002
# a route from tile 0 to tile 1: the straight path (magenta)
shot detour_path navmesh,path $above --path 1,0,1:19,0,9 -- --color 255,30,200:0.001
unset SHOT_MESH

# Files > Save navmesh (navdebug --save-navmesh, the button's code) writes the bytes navbake
# --navmesh-out writes for the same mesh and parameters, solo and tiled; the file opens again.
navbake="$(dirname "$exe")/navbake"  # built beside navdebug (app/)
for ts in 0 48; do
  rm -f "$out/saved_$ts.bin" "$out/baked_$ts.bin"
  if timeout 120 xvfb-run -a -s "-screen 0 640x480x24" "$exe" "$src/assets/demo.obj" --config "$src/assets/demo.json" \
       --set tile_size=$ts --screenshot "$out/saved_$ts.png" --size 640x480 --save-navmesh "$out/saved_$ts.bin" \
       > "$out/saved_$ts.log" 2>&1 &&
     "$navbake" "$src/assets/demo.obj" --config "$src/assets/demo.json" --set tile_size=$ts \
       --navmesh-out "$out/baked_$ts.bin" > /dev/null 2>&1 &&
     cmp -s "$out/saved_$ts.bin" "$out/baked_$ts.bin" &&
     "$navbake" --navmesh-in "$out/saved_$ts.bin" > /dev/null 2>&1; then
    ok "Save navmesh (tile_size $ts): the bytes navbake --navmesh-out writes, and they load"
  else
    bad "Save navmesh (tile_size $ts): $(tail -2 "$out/saved_$ts.log")"
  fi
done

# with a Detour navmesh open there is no bake: Save navmesh and Export glTF refuse, saying so
rm -f "$out/resaved.bin"
if ! timeout 120 xvfb-run -a -s "-screen 0 640x480x24" "$exe" "$bin" --screenshot "$out/resaved.png" --size 640x480 \
     --save-navmesh "$out/resaved.bin" > "$out/resaved.log" 2>&1 && [ ! -e "$out/resaved.bin" ] &&
   grep -q "not a bake" "$out/resaved.log"; then
  ok "Save navmesh with a Detour navmesh open: refused, the reason logged"
else
  bad "Save navmesh with a Detour navmesh open: $(tail -2 "$out/resaved.log")"
fi

bad_bin="$out/bad.bin"
python3 - "$bin" "$bad_bin" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
b[48 + 24] = 0xff   # tile 0's polyCount: the counts no longer give the tile's size
open(sys.argv[2], 'wb').write(b)
PY
expect_exit2 detour_bad "byte 72 (tile header counts)" "$bad_bin"
finish
