#!/usr/bin/env bash
# The stage driver (--stage NAME) and the Layers panel's readability options, headless:
# - --stage for each of the 12 stages, drawn with that stage's own layer: the PNG is not blank and
#   shows the layer's colours (as tests/e2e/screenshots.sh checks them);
# - the Stages timeline on the right shows the stages after the target as not built: fewer "clean"
#   green, more "not built" grey at --stage regions than at --stage navmesh;
# - a bake that fails (a grid over --max-memory) exits 2, keeps drawing the input stage before it
#   and shows the failure in red on the timeline;
# - --xray, --opacity and --lift change the picture; --diff-from-set highlights what changed (over
#   layers turned grey, so its green is never a region's);
# - bad --stage / --opacity / --lift exit 2 naming what was expected.
# usage: screenshots_stages.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

# stage, its layer, the colours check_png must find (layer colours from render/layers.h)
shot stage_input     input        --stage input -- --color 214,116,46:0.01 --color 206,204,196:0.05
shot stage_rasterize voxels       --stage rasterize -- --color 84,150,204:0.05
shot stage_filter    filtered     --stage filter -- --color 96,196,108:0.05 --color 240,152,30:0.003
shot stage_compact   compact      --stage compact -- --color 0,192,255:0.05
shot stage_erode     eroded       --stage erode -- --color 64,160,236:0.05 --color 236,74,58:0.01
shot stage_areas     areas        --stage areas -- --color 0,192,255:0.05 --color 36,84,232:0.003
shot stage_distance  distance     --stage distance -- --greys 20
shot stage_regions   regions      --stage regions -- --hues 8
shot stage_contours  contours     --stage contours -- --hues 6
shot stage_polymesh  polymesh     --stage polymesh -- --color 0,192,255:0.02 --color 36,84,232:0.0005
shot stage_detail    detail       --stage detail -- --hues 8
shot stage_navmesh   navmesh      --stage navmesh -- --color 0,192,255:0.03
# a layer of a later stage than the target is not drawn: polymesh at --stage regions is blank
shot stage_regions_poly regions,polymesh --stage regions -- --hues 8 --same "$out/stage_regions.png" --area 0.30,0.06,0.72,0.94

# timeline (right panel, top): state colours of app/navdebug/timeline.cpp, clean green, not built grey
timeline_states() {  # name, image with fewer built stages, image with more
  local name=$1 few=$2 more=$3
  if msg=$(python3 - "$src/tests/e2e" "$out/$few.png" "$out/$more.png" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from check_png import read_png
def count(path, rgb):
    w, h, bpp, rows = read_png(path)
    n = 0
    for y in range(int(h * 0.10), int(h * 0.45)):
        r = rows[y]
        for x in range(int(w * 0.75), w):
            if all(abs(r[x * bpp + k] - rgb[k]) <= 6 for k in range(3)):
                n += 1
    return n
green, grey = (102, 217, 115), (107, 112, 128)
g1, g2, n1, n2 = count(sys.argv[2], green), count(sys.argv[3], green), count(sys.argv[2], grey), count(sys.argv[3], grey)
print(f"clean-green pixels {g1} vs {g2}, not-built-grey {n1} vs {n2}")
sys.exit(0 if g2 > g1 * 1.2 and n1 > 20 and n2 < n1 * 0.6 else 1)
PY
  ); then ok "$name: $msg"; else bad "$name: $msg"; fi
}
timeline_states timeline_regions_vs_navmesh stage_regions stage_navmesh
timeline_states timeline_input_vs_regions stage_input stage_regions

# a failing bake: rasterize refuses the grid; input stays drawn, the timeline shows the error in red
fail_png="$out/stage_failed.png"
rm -f "$fail_png"
timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" "$exe" "$src/assets/demo.obj" --config "$src/assets/demo.json" \
  --draw input,voxels --set cell_size=0.05 --max-memory 20 --screenshot "$fail_png" --size 1280x800 \
  > "$out/stage_failed.log" 2>&1
code=$?
if [ $code -eq 2 ] && grep -q "over the memory limit of 20 MiB" "$out/stage_failed.log" && [ -s "$fail_png" ]; then
  ok "stage_failed: exit 2, memory limit named"
else bad "stage_failed: exit $code: $(tail -2 "$out/stage_failed.log")"; fi
if msg=$($check "$fail_png" --color 214,116,46:0.01 --color 206,204,196:0.05); then ok "stage_failed_input_drawn: $msg"
else bad "stage_failed_input_drawn: $msg"; fi
# the view (below the error banner) is the picture of a bake stopped after input with the same layers
shot stage_input_voxels input,voxels --stage input -- --color 206,204,196:0.05
if msg=$($check "$fail_png" --same "$out/stage_input_voxels.png" --area 0.30,0.10,0.72,0.94); then
  ok "stage_failed_view: input drawn as at --stage input, no voxels: $msg"
else bad "stage_failed_view: $msg"; fi
if msg=$($check "$fail_png" --area 0.75,0.06,1.0,0.75 --color 255,89,82:0.002); then ok "stage_failed_timeline_red: $msg"
else bad "stage_failed_timeline_red: $msg"; fi

# readability options against the default picture of the same layers
shot read_default  input,regions,polymesh -- --hues 6
shot read_xray     input,regions,polymesh --xray -- --hues 6 --differs "$out/read_default.png:0.002"
# 5 hues: with the input's back faces culled (default) fewer blends show through it
shot read_opacity  input,regions,polymesh --opacity input=0.25,regions=0.5 -- --hues 5 --differs "$out/read_default.png:0.05"
shot read_lift     input,regions,polymesh --lift 0.6 -- --hues 6 --differs "$out/read_default.png:0.02"
# change highlight: polygons the re-bake added (green) and removed (red) outlined; none without it
shot diff_none     polymesh -- --color 0,192,255:0.02
shot diff_polys    polymesh --diff-from-set verts_per_poly=3 -- --color 60,230,90:0.002 --color 255,40,40:0.002
if $check "$out/diff_none.png" --color 60,230,90:0.002 > /dev/null; then bad "diff_none: highlight green without --diff-from-set"
else ok "diff_none: no highlight without --diff-from-set"; fi
if grep -q "changes bake #[0-9]* -> #[0-9]*: .*polygons" "$out/diff_polys.log"; then ok "diff_polys: $(grep -o 'changes bake.*' "$out/diff_polys.log")"
else bad "diff_polys: no change summary in the log"; fi
# the highlight's "added" green is a region colour too (hash_color spans every hue but the path's
# magenta, 285..345 degrees: the plain
# regions match it); under the highlight the layers turn grey, so the one region that
# region_min_size 20 -> 8 adds is the only colour in the view: no other hue, and far less green
# than the regions' own
shot regions_plain regions -- --hues 5 --color 60,230,90:0.005 --hue 240:0.005 --hue 270:0.005 --max-hue 315:0.0005
shot diff_added    regions --diff-from-set region_min_size=20 -- --color 60,230,90:0.0008 --max-hue 120:0.010 \
  --max-hue 0:0.0005 --max-hue 60:0.0005 --max-hue 180:0.0005 --max-hue 240:0.0005 --max-hue 300:0.0005
if grep -q "changes bake #[0-9]* -> #[0-9]*: regions +1 ~0 -0" "$out/diff_added.log"; then ok "diff_added: one region added"
else bad "diff_added: expected 'regions +1 ~0 -0' in the log: $(grep -o 'changes bake.*' "$out/diff_added.log")"; fi

expect_exit2 bad_stage "expected one of: input, rasterize, filter, compact, erode, areas, distance, regions, contours, polymesh, detail, navmesh" \
  "$src/assets/demo.obj" --stage regoins
expect_exit2 bad_opacity_layer "--opacity: 'regoins=0.5': expected LAYER=F" "$src/assets/demo.obj" --opacity regoins=0.5
expect_exit2 bad_opacity_value "expected an opacity between 0 and 1" "$src/assets/demo.obj" --opacity regions=1.5
expect_exit2 bad_lift "--lift: expected metres between 0 and 10" "$src/assets/demo.obj" --lift -1
expect_exit2 bad_diff_from "--diff-from-set verts_per_poly=99" "$src/assets/demo.obj" --diff-from-set verts_per_poly=99
finish
