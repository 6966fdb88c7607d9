#!/usr/bin/env bash
# Honest state under Xvfb, on the demo scene. --hold-bake N (test only) stops the bake worker
# before its N-th run and takes the screenshot while it waits:
# - N = 1, the first bake: the input is drawn at once (the worker publishes it before the other
#   stages), no regions yet, and the status box at the top of the view and the Stages panel say
#   "first bake" with the stage being built, its time and a Cancel button (amber text);
# - N = 2 with --diff-from-set: the first bake's regions stay on screen while the second waits,
#   marked "STALE, re-baking" in an amber box across the top of the view and in the Stages panel;
# - without --hold-bake the screenshot waits for the bake: no status box.
# usage: screenshots_state.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

warn=255,204,76        # kWarnColor (app/navdebug/ui_common.h): the status text
stale_bg=77,56,5       # the stale box's background (app.cpp, ui_overlays)
steep=214,116,46       # input: too steep (walls)
top_box="--area 0.30,0.0,0.72,0.08 --flat-ok"      # the top of the 3D view, where the status box goes
stages="--area 0.755,0.08,1.0,0.16 --flat-ok"      # the top of the Stages panel


# the finished bake: regions, no status box
shot done input,regions -- --hues 5 --color $steep:0.03
check_shot done_no_status done $top_box --max-color $warn:0 --max-color $stale_bg:0
check_shot done_panel_quiet done $stages --max-color $warn:0

# the first bake, held after the input: the input at once, no regions, the progress shown
shot first input,regions --hold-bake 1 -- --color $steep:0.03
check_not first_no_regions first --hues 3
check_shot first_status first $top_box --color $warn:0.005 --max-color $stale_bg:0.001
check_shot first_panel first $stages --color $warn:0.01

# a re-bake held: the old regions on screen, marked stale in the view and the panel
shot stale input,regions --diff-from-set agent_radius=1.2 --hold-bake 2 -- --hues 5
check_shot stale_mark stale $top_box --color $stale_bg:0.30 --color $warn:0.03
check_shot stale_panel stale $stages --color $warn:0.01

expect_exit2 hold_bad_count "--hold-bake" "$src/assets/demo.obj" --hold-bake 0
finish
