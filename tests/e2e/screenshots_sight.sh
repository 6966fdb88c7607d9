#!/usr/bin/env bash
# The path always in sight and defaults that show the navmesh (issue 23, items 3 and 4), under Xvfb:
# - the path on top: on assets/indoor.obj (tools/gen_scenes.cpp) seen from straight above with its
#   shell drawn (culling off, ceilings shown: the roof covers the building), a path on the ground
#   floor shows through the roof and the upper floors with --path-on-top on (the default), and not
#   at all with it off; its magenta (hue 315, core/bake/palette.h kPalettePath) is a hue no region
#   takes: the regions layer of the demo level shows none of it;
# - the start / end markers are a fixed size in pixels: near and far, the start marker's green
#   covers about the same number of pixels;
# - a house (gen_scenes --bench: house.obj, two storeys, walls, a gable roof) in its default view (no
#   --draw, no --camera) shows navmesh: it differs from the input alone, and with the floor tint
#   left off the navmesh's cyan (hue 190) shows;
# - floor tint: by default on (several floors) on indoor.obj, and its three storeys seen through a
#   section read as three distinct hues: band 0 (ground floor) 147, band 1 216, band 2 69 (the
#   navmesh's cyan under shaders/cut.glsl's green, blue and yellow); walls keep their orange (20);
# - bad --path-on-top / --floor-tint-auto values exit 2.
# usage: screenshots_sight.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR (GEN_SCENES: where gen_scenes is)
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"
indoor="$src/assets/indoor.obj"
gen=${GEN_SCENES:-$(dirname "$exe")/../tools/gen_scenes}

path_hue=315 nav=190 wall=20 band0=147 band1=216 band2=69
top="--camera 0,55,0.5,0,0,0"
outline="--area 0.345,0.335,0.677,0.68"
ground_path="--path -10,0.1,-6:10,0.1,6"

run() {  # name, mesh, navdebug arguments... -- checker arguments
  local name=$1 mesh=$2; shift 2
  local extra=()
  while [ "$1" != "--" ]; do extra+=("$1"); shift; done
  shift
  rm -f "$out/$name.png"
  if ! timeout 180 xvfb-run -a -s "-screen 0 1280x800x24" "$exe" "$mesh" "${extra[@]}" \
       --screenshot "$out/$name.png" --size 1280x800 > "$out/$name.log" 2>&1; then
    bad "$name: navdebug failed: $(tail -3 "$out/$name.log")"; return
  fi
  if msg=$($check "$out/$name.png" "$@"); then ok "$name: $msg"; else bad "$name: $msg"; fi
}

# ---- the path on top, through the roof and two floors ----
shell="--draw input,navmesh,path --cull off --hide-ceilings off"
run path_top "$indoor" $top $shell $ground_path -- $outline --flat-ok --hue $path_hue:0.004
run path_hidden "$indoor" $top $shell $ground_path --path-on-top off -- $outline --flat-ok --max-hue $path_hue:0.0003
# where the roof covers the path without "on top", the path's pixels are there with it
if msg=$($check "$out/path_top.png" $outline --flat-ok --differs "$out/path_hidden.png:0.004"); then ok "path_top_differs: $msg"
else bad "path_top_differs: $msg"; fi
# the path's hue is no region's: the demo's regions show none of it
shot regions_no_path_hue input,regions -- --hues 6 --max-hue $path_hue:0.0005

# ---- markers in pixels: near and far the start marker covers the same (the 18 px dot; the
# tint off, as its green band would match the marker's green) ----
start_green=40,220,90
run marker_far "$indoor" --draw input,navmesh,path --floor-tint-auto off $ground_path --camera -10,40,10,-10,0.1,-6 -- \
  --color $start_green:0.0003 --max-color $start_green:0.0008
run marker_near "$indoor" --draw input,navmesh,path --floor-tint-auto off $ground_path --camera -10,6,-3,-10,0.1,-6 -- \
  --color $start_green:0.0003 --max-color $start_green:0.0008

# ---- a house's default view shows the navmesh ----
mkdir -p "$out/bench"
if "$gen" --bench "$out/bench" > "$out/gen_scenes.log" 2>&1; then
  house="$out/bench/house.obj"
  run house_input "$house" --draw input --
  run house_default "$house" -- --differs "$out/house_input.png:0.03"
  run house_default_plain "$house" --floor-tint-auto off -- --hue $nav:0.03
else
  bad "gen_scenes --bench (build the gen_scenes target): $(tail -2 "$out/gen_scenes.log")"
fi

# ---- floor tint: on by default where there are several floors; three floors, three hues ----
section="--section 0,5,0,0,0,1 --camera 0,14,30,0,3,0"
run tint_auto "$indoor" --draw input,navmesh $section -- --hue $band0:0.03 --hue $band1:0.03 --hue $band2:0.03 --hue $wall:0.02
run tint_auto_off "$indoor" --draw input,navmesh $section --floor-tint-auto off -- \
  --hue $nav:0.05 --max-hue $band1:0.003 --max-hue $band2:0.003
# the demo level: its upper floors cover little of the ground, so no tint by default
shot demo_no_tint input,navmesh -- --hue $nav:0.05

# ---- bad flags ----
expect_exit2 bad_on_top "--path-on-top: expected on or off" "$indoor" --path-on-top maybe
expect_exit2 bad_tint_auto "--floor-tint-auto: expected on or off" "$indoor" --floor-tint-auto 1
expect_exit2 tint_both "--floor-tint sets the tint on" "$indoor" --floor-tint --floor-tint-auto on
finish
