#!/usr/bin/env bash
# Seeing inside, under Xvfb, on assets/indoor.obj (tools/gen_scenes.cpp, assets/README.md): a
# closed three-storey building whose shell faces inward, ring-shaped upper floors around an atrium
# (x, z in [-5, 5]), floors at y 0.1, 3.7 and 7.3, roof at 10.5.
# - default settings (back faces culled, ceilings hidden): the view into the building shows the
#   navmesh; from straight above, the navmesh covers most of the building's outline and the atrium
#   shows the ground floor's navmesh (its floor-tint colour proves the floor);
# - culling off (and ceilings shown) gives the shell back: walls, and the roof from above;
# - --clip-floor on floor 2 shows floor 2's navmesh and none of the other floors' (floor tint);
#   --clip with the same range draws the same picture;
# - --section cuts away the side its normal points to;
# - --floor-tint gives each storey its own colour;
# - the settings survive a session round trip; bad flags exit 2.
# Colours are matched by hue (check_png.py --hue, 15 degrees either side): the navmesh over the
# floor reads as hue 190 (cyan), the too-steep input (walls, roof) as hue 20. With the floor tint
# (shaders/cut.glsl) the navmesh of band 0 (ground floor) reads as hue 147, band 1 (floor 2) as
# 216, band 2 (floor 3) as 69. The tint is on by default here (several floors: issue 23); the views
# that check the plain colours turn it off ($plain).
# usage: screenshots_indoor.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"
mesh="$src/assets/indoor.obj"

nav=190 wall=20 band0=147 band1=216 band2=69
plain="--floor-tint-auto off"
top="--camera 0,55,0.5,0,0,0"   # straight above the building's centre
# in the top view (1280x800): the inside of the building's outline, the middle of the atrium
# (x in [-4.5, 4.5], z in [-1.7, 1.7], between the two stair flights: only the ground floor lies below it), its east and west halves
outline="--area 0.345,0.335,0.677,0.68"
atrium="--area 0.45,0.47,0.57,0.545"
east="--area 0.53,0.335,0.677,0.68"
west="--area 0.345,0.335,0.49,0.68"

indoor() {  # name, navdebug arguments... -- checker arguments
  local name=$1; shift
  local extra=()
  while [ "$1" != "--" ]; do extra+=("$1"); shift; done
  shift
  rm -f "$out/$name.png"
  if ! timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" "$exe" "$mesh" "${extra[@]}" \
       --screenshot "$out/$name.png" --size 1280x800 > "$out/$name.log" 2>&1; then
    bad "$name: navdebug failed: $(tail -3 "$out/$name.log")"; return
  fi
  if msg=$($check "$out/$name.png" "$@"); then ok "$name: $msg"; else bad "$name: $msg"; fi
}

# ---- culling: the default camera frames the building from above one corner ----
indoor default --draw input,navmesh $plain -- --hue $nav:0.10 --max-hue $wall:0.16
indoor cull_off --draw input,navmesh $plain --cull off -- --hue $wall:0.20 --differs "$out/default.png:0.05"

# ---- from straight above: the default shows the ground floor's navmesh through the atrium ----
# stated share: the navmesh colour covers at least 55% of the outline (67% when written) and 75%
# of the atrium's middle (84%)
indoor top_default $top --draw input,navmesh $plain -- $outline --hue $nav:0.55
check_shot top_default_atrium top_default $atrium --flat-ok --hue $nav:0.75
# the same view tinted: the atrium's navmesh has the ground floor's colour
indoor top_tint $top --draw input,navmesh --floor-tint -- $atrium --flat-ok --hue $band0:0.70 --max-hue $band1:0.005
check_shot top_tint_floor3 top_tint $outline --hue $band2:0.40
# culling off and ceilings shown: the roof covers the building again
indoor top_shell $top --draw input,navmesh $plain --cull off --hide-ceilings off -- $outline --flat-ok --hue $wall:0.95 --max-hue $nav:0.005

# ---- clip to floor 2 (y 3.7): its navmesh only ----
indoor clip_floor2 $top --draw input,navmesh --clip-floor 0,3.7,0 --floor-tint -- \
  $outline --hue $band1:0.35 --max-hue $band0:0.003 --max-hue $band2:0.003
check_shot clip_floor2_atrium_empty clip_floor2 $atrium --flat-ok --max-hue $band0:0.001 --max-hue $nav:0.001
indoor clip_floor2_plain $top --draw input,navmesh $plain --clip-floor 0,3.7,0 -- $outline --hue $nav:0.35
check_shot clip_floor2_no_ground clip_floor2_plain $atrium --flat-ok --max-hue $nav:0.001
# --clip-floor 0,3.7,0 keeps heights 3.4 .. 6.0 (app/navdebug/session.h floor_clip)
indoor clip_range $top --draw input,navmesh $plain --clip 3.4,6.0 -- $outline --hue $nav:0.35
check_shot clip_range_same clip_range --same "$out/clip_floor2_plain.png" --area 0.30,0.06,0.72,0.94

# ---- section plane x = 0, normal +x: the east half is cut away ----
indoor section_x $top --draw input,navmesh $plain --section 0,0,0,1,0,0 -- $west --hue $nav:0.55
check_shot section_x_east_gone section_x $east --flat-ok --max-hue $nav:0.002 --max-hue $wall:0.002

# ---- a section from the south with the floor tint: the three storeys, one colour each ----
indoor section_tint --draw input,navmesh --floor-tint --section 0,5,0,0,0,1 --camera 0,14,30,0,3,0 -- \
  --hue $band0:0.03 --hue $band1:0.03 --hue $band2:0.03

# ---- sessions keep the view settings ----
indoor session_save $top --draw input,navmesh --clip-floor 0,3.7,0 --floor-tint --hide-ceilings off \
  --section 0,0,0,1,0,0 --save-session "$out/indoor_session.json" -- --hue $band1:0.05
if grep -q '"view"' "$out/indoor_session.json" && grep -q '"floor_tint": true' "$out/indoor_session.json"; then
  ok "session_view_key: the session holds the view settings"
else bad "session_view_key: no view settings in $out/indoor_session.json"; fi
indoor session_load --session "$out/indoor_session.json" -- --hue $band1:0.05
check_shot session_same session_load --same "$out/session_save.png" --area 0.30,0.06,0.72,0.94

# ---- bad flags ----
expect_exit2 bad_clip "--clip: expected two heights" "$mesh" --clip 5,1
expect_exit2 bad_clip_floor "--clip-floor: expected three numbers" "$mesh" --clip-floor 1,2
expect_exit2 clip_twice "--clip and --clip-floor" "$mesh" --clip 0,1 --clip-floor 0,0,0
expect_exit2 bad_section "--section: the normal must not be zero" "$mesh" --section 0,0,0,0,0,0
expect_exit2 bad_cull "--cull: expected on or off" "$mesh" --cull maybe
expect_exit2 bad_floor_height "--floor-height: expected metres" "$mesh" --floor-tint --floor-height 0.1
finish
