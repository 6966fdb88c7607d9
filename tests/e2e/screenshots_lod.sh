#!/usr/bin/env bash
# Level of detail of the span layers (render/span_lod.h) under Xvfb, on the demo scene:
# - a small span budget (--span-budget 3000, far below the demo's voxels) merges the farther chunks:
#   the voxels still cover the view, and the view's top-left corner states the level of detail in
#   amber (kWarnColor) on its dark box;
# - no limit (--span-budget 0) draws every span: no statement; the default budget on the demo is
#   above its spans: no statement either, the same picture as no limit;
# - the merged picture differs from the full one (coarse columns), but not wholesale;
# - a bad budget is refused with exit 2.
# usage: screenshots_lod.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

warn=255,204,76               # kWarnColor (app/navdebug/ui_common.h): the statement's text
walkable=84,150,204           # voxels: walkable span (render/layers.h kSolidWalkable)
corner="--area 0.27,0.0,0.70,0.06 --flat-ok"   # the top-left of the 3D view, where the statement goes


shot lod_merged voxels --span-budget 3000 -- --color $walkable:0.03
check_shot lod_merged_stated lod_merged $corner --color $warn:0.004
shot lod_full voxels --span-budget 0 -- --color $walkable:0.03
check_shot lod_full_quiet lod_full $corner --max-color $warn:0
shot lod_default voxels -- --same "$out/lod_full.png" --area 0.30,0.06,0.72,0.94
check_shot lod_merged_differs lod_merged --differs "$out/lod_full.png:0.002"
expect_exit2 lod_bad_budget "span-budget" "$src/assets/demo.obj" --span-budget -5
finish
