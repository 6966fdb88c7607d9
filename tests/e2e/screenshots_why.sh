#!/usr/bin/env bash
# The Why tool headless (--why x,y,z, --why-path s:e) on the why scenes (tools/why_scenes.h, written
# by gen_scenes --why next to navdebug's build): for three causes (low ceiling, erosion, slope) the
# Why panel over the view's lower left shows the verdict and the losing stage in red and the
# verified fix in green, and the view shows the losing stage's culprit (red) and the clicked point
# (magenta) around the point; for the step scene's failed path the gap between the two islands is
# drawn in lime green with both ends marked, and the panel explains it. The log names the stage and the
# fix. Bad --why / --why-path exit 2. GEN_SCENES overrides where gen_scenes is.
# usage: screenshots_why.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

gen=${GEN_SCENES:-$(dirname "$exe")/../tools/gen_scenes}
scenes="$out/scenes"
mkdir -p "$scenes"
if ! "$gen" --why "$scenes" > "$out/gen_scenes.log" 2>&1; then
  bad "gen_scenes --why (build the gen_scenes target): $(tail -2 "$out/gen_scenes.log")"
  finish
  exit 1
fi

# colours: WhyTool::kLostColor, kPointColor, kGapColor; the panel's kErrorColor and kGoodColor text
lost=255,30,30 point=255,40,255 gap=170,255,0 red_text=255,107,97 green_text=115,230,128
panel_area=0.0,0.30,0.30,1.0   # the Why window: over the left panel's lower part

why_shot() {  # name, scene, navdebug arguments... -- ; the log and the PNG are checked by the caller
  local name=$1 scene=$2; shift 2
  rm -f "$out/$name.png"
  if ! timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" "$exe" "$scenes/$scene.obj" --config "$scenes/$scene.json" \
       "$@" --screenshot "$out/$name.png" --size 1280x800 > "$out/$name.log" 2>&1; then
    bad "$name: navdebug failed: $(tail -3 "$out/$name.log")"; return 1
  fi
  ok "$name: screenshot taken"
}
log_has() {  # name, image name, text the log must hold
  if grep -q -- "$3" "$out/$2.log"; then ok "$1: log says '$3'"; else bad "$1: log lacks '$3': $(grep 'why' "$out/$2.log" | tail -3)"; fi
}

# One lost point per cause: the point projects to the middle of the view (the camera looks at it).
cause() {  # scene, x,y,z, camera eye, stage, parameter of the fix
  local scene=$1 p=$2 eye=$3 stage=$4 param=$5
  why_shot "why_$scene" "$scene" --draw input,navmesh --why "$p" --camera "$eye,$p" || return
  log_has "why_${scene}_stage" "why_$scene" "why: lost at $stage"
  log_has "why_${scene}_fix" "why_$scene" "why: fix $param"
  # the losing stage's culprit and the point, around the middle of the 3D view
  check_shot "why_${scene}_culprit" "why_$scene" --area 0.35,0.20,0.67,0.80 --flat-ok --color $lost:0.0004 --color $point:0.0002
  # the panel: the red verdict / losing stage and the green verified fix
  check_shot "why_${scene}_panel" "why_$scene" --area $panel_area --flat-ok --color $red_text:0.0015 --color $green_text:0.0008
}
cause low_height 0,0.1,0    6,2.2,7    filter agent_height
cause erosion    0,0.1,0    0,6,7      erode  agent_radius
cause slope      3,2.245,0  -3,6,9     input  agent_max_slope
cause volume     0,0.1,0    0,6,7      areas  ""

# A point on the navmesh: the green verdict, no losing culprit, no fix searched.
why_shot why_on_navmesh low_height --draw input,navmesh --why 6,0.1,6 --camera 6,6,13,6,0.1,6 && {
  log_has why_on_navmesh_log why_on_navmesh "why: on the navmesh: polygon"
  check_shot why_on_navmesh_panel why_on_navmesh --area $panel_area --flat-ok --color $green_text:0.0005
  check_shot why_on_navmesh_view why_on_navmesh --area 0.35,0.20,0.67,0.80 --flat-ok --color $point:0.0002 --max-color $lost:0.00005
  if grep -q "why: fix\|why: no fix" "$out/why_on_navmesh.log"; then bad "why_on_navmesh: a fix was searched"
  else ok "why_on_navmesh: no fix searched"; fi
}

# The step scene: the two rooms do not connect; the gap (lime green) between the islands, both ends marked.
why_shot why_path_step step --draw input,navmesh --why-path -5,0.1,0:4,1.1,0 --camera -3,4.5,7,0,0.7,0 && {
  log_has why_path_step_gap_log why_path_step "why: path from island"
  log_has why_path_step_fix why_path_step "why: path fix agent_max_climb"
  check_shot why_path_step_gap why_path_step --area 0.35,0.20,0.67,0.80 --flat-ok --color $gap:0.0004
  check_shot why_path_step_panel why_path_step --area $panel_area --flat-ok --color $red_text:0.0010
}

# the point is kept in the saved session, and a session without "why" still loads
why_shot why_session erosion --draw input,navmesh --why 0,0.1,0 --camera 0,6,7,0,0.1,0 --save-session "$out/why_session.json" &&
  if grep -q '"why"' "$out/why_session.json"; then ok "why_session: saved with its why point"; else bad "why_session: no \"why\" key"; fi
why_shot why_session_load erosion --session "$out/why_session.json" && {
  log_has why_session_load_story why_session_load "why: lost at erode"
  check_shot why_session_load_same why_session_load --area 0.35,0.20,0.67,0.80 --flat-ok --color $lost:0.0004
}

expect_exit2 bad_why "--why: expected three numbers" "$scenes/erosion.obj" --why 1,2
expect_exit2 bad_why_path "--why-path: expected sx,sy,sz:ex,ey,ez" "$scenes/step.obj" --why-path 1,2,3
finish
