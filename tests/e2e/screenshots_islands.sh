#!/usr/bin/env bash
# Islands under Xvfb (render/islands_draw.h, app/navdebug/islands.h): the islands layer colours
# each connected part of the navmesh (island_color); --prune at a point on the plaza keeps the
# plaza's island and draws the unreachable platform disabled (a muted olive, hatched with pale
# stripes: visible on the dark background), in the islands and the navmesh layers,
# and opens the Islands panel; a prune point off the mesh changes nothing in the view and says
# so in the panel; islands.obj shows one colour per platform; a bad --prune exits 2.
# usage: screenshots_islands.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

# island_color(0..5) (render/islands_draw.cpp, hash_color(i + 1)); disabled polygons are filled
# in colors::kNavDisabled and hatched in kNavDisabledHatch. They used to be near-black, the colour
# of the walls (kNavBoundary) and all but invisible on the background: the share of dark in the
# view must not grow when the platform is pruned.
isl0=78,142,204 isl1=185,225,88 isl2=173,68,220 isl3=54,249,169 isl4=189,119,49 isl5=52,55,235
disabled=140,128,76 hatch=240,232,196
dark=22,22,26
# dark is counted in the 3D view above the help line, whose translucent black box also matches it
above_help="--area 0.28,0.0,0.74,0.90"
warn=255,204,76    # the panel's warning text (kWarnColor in islands.cpp)
plaza=0,0.2,0      # assets/README.md: the plaza seed; the platform is x [14, 19], z [13, 19], top 6.1
near="--camera 8,20,34,20,3,13"   # the platform in the middle of the view, the plaza in front
# islands.obj stacks platforms, so the floor tint would be on by itself (several floors) and
# recolour the islands: these shots check the islands' own colours, untinted
SHOT_ARGS="--floor-tint-auto off"

# panel_pixels (shot_lib.sh) counts in the lower part of the right panel, where the Islands
# section is: its colour swatches and warning text
PANEL_TOP=0.70 PANEL_NAME="Islands panel"
shot_mesh() {  # name, mesh, navdebug arguments... -- checker arguments
  local name=$1 mesh=$2; shift 2
  local extra=()
  while [ "$1" != "--" ]; do extra+=("$1"); shift; done
  shift
  rm -f "$out/$name.png"
  if ! timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" "$exe" "$mesh" $SHOT_ARGS "${extra[@]}" \
       --screenshot "$out/$name.png" --size 1280x800 > "$out/$name.log" 2>&1; then
    bad "$name: navdebug failed: $(tail -3 "$out/$name.log")"; return
  fi
  if msg=$($check "$out/$name.png" "$@"); then ok "$name: $msg"; else bad "$name: $msg"; fi
}

# ---- demo.obj: two islands, the plaza's (98.7% of the area) and the unreachable platform ----
shot islands islands -- --hues 2 --color $isl0:0.10 --color $isl1:0.001
shot islands_near islands $near -- --color $isl0:0.05 --color $isl1:0.01
check_not islands_near_not_dark islands_near $above_help --color $dark:0.018
panel_pixels islands_panel_swatch0 islands_near $isl0 60
panel_pixels islands_panel_swatch1 islands_near $isl1 60

check_not islands_near_no_disabled islands_near $above_help --color $disabled:0.002

# prune from the plaza: the platform turns disabled (olive, hatched; not dark), the plaza's island
# keeps its colour
shot pruned islands $near --prune $plaza -- --color $isl0:0.05 $above_help --color $disabled:0.010 --color $hatch:0.006
check_not pruned_not_dark pruned $above_help --color $dark:0.018
check_not pruned_no_platform_colour pruned --color $isl1:0.0005
check_shot pruned_differs pruned --differs "$out/islands_near.png:0.01"
panel_pixels pruned_panel_swatch0 pruned $isl0 60
panel_pixels pruned_panel_no_warning pruned $warn 0 0

# the navmesh layer draws the pruned platform disabled too; the prune opens the Islands panel
shot navmesh_plain navmesh $near -- --color 0,192,255:0.03
check_not navmesh_plain_not_dark navmesh_plain $above_help --color $dark:0.018
panel_pixels navmesh_plain_panel_closed navmesh_plain $isl0 0 0
shot navmesh_pruned navmesh $near --prune $plaza -- --color 0,192,255:0.03 $above_help --color $disabled:0.010 \
  --color $hatch:0.006
check_not navmesh_pruned_not_dark navmesh_pruned $above_help --color $dark:0.018
panel_pixels navmesh_pruned_panel_open navmesh_pruned $isl0 60

# keeping the platform instead disables the plaza's island: most of the view turns olive, hatched
shot pruned_platform islands $near --prune 16.5,6.1,16.2 -- --color $isl1:0.01 $above_help --color $disabled:0.08 \
  --color $hatch:0.02
# (by hue: island 0's blue, shaded darker, is near the background's blue-grey, which --color matches)
check_shot pruned_platform_plaza_dark pruned_platform --max-hue 210:0.002
check_not islands_plaza_hue islands --max-hue 210:0.002

# a prune point with no polygon near: nothing pruned (the view is the unpruned one), the panel says why
shot pruned_off_mesh islands $near --prune 0,50,0 -- --color $isl1:0.01
check_shot pruned_off_mesh_same pruned_off_mesh --same "$out/islands_near.png" --area 0.30,0.06,0.72,0.94
panel_pixels pruned_off_mesh_warning pruned_off_mesh $warn 200

# ---- islands.obj: one colour per platform; island_e_small needs a smaller agent and smaller
# regions to become a sixth island (assets/README.md) ----
shot_mesh six "$src/assets/islands.obj" --set agent_radius=0.3 --set region_min_size=2 --draw islands -- \
  --hues 6:0.0003 --color $isl0:0.0003 --color $isl1:0.0003 --color $isl2:0.0003 --color $isl3:0.0003 \
  --color $isl4:0.0003 --color $isl5:0.0003
shot_mesh five "$src/assets/islands.obj" --draw islands -- --hues 5:0.0003 --color $isl4:0.0003
check_not five_no_sixth five --color $isl5:0.0003

expect_exit2 bad_prune "--prune: expected three numbers" "$src/assets/demo.obj" --prune 1,2
expect_exit2 nan_prune "--prune" "$src/assets/demo.obj" --prune 1,nan,2
expect_exit2 word_prune "--prune: expected three numbers" "$src/assets/demo.obj" --prune plaza
finish
