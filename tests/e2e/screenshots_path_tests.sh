#!/usr/bin/env bash
# Path tests under Xvfb (core/runtime/path_tests.h, app/navdebug/path_tests_panel.cpp): navdebug
# --path-tests FILE lists the file's cases in the right panel's "Path tests" section with PASS
# (green) / FAIL (red) against the demo bake; --path-test N shows case N with the path tool (as a
# click on it does), its failures spelled out in red. A file of passing cases shows no red in the
# panel; the mixed file's failing case (straight across the water, avoid_area water) draws its path
# across the water. A missing file exits 2 naming it.
# usage: screenshots_path_tests.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

green=115,230,128  # kGoodColor (ui_common.h): PASS
red=255,107,97     # kErrorColor: FAIL, the failures
top="--camera 15,30,20,15,0,5"  # over the water volume (x 12.1..17.9, z 2.1..7.9)

# the demo's water at cost 1: straight across from (10, 5) to (20, 5); at cost 10 round it
cat > "$out/mixed.json" <<'JSON'
{"cases": [
  {"name": "across without water", "start": [10, 0, 5], "end": [20, 0, 5], "expect": {"avoid_area": "water"}},
  {"name": "round the water", "start": [10, 0, 5], "end": [20, 0, 5], "filter": {"costs": {"water": 10}},
   "expect": {"reached": true, "avoid_area": "water", "max_length": 20}},
  {"name": "short hop", "start": [10, 0, 5], "end": [10, 0, 9], "expect": {"max_length": 5}}
]}
JSON
cat > "$out/passing.json" <<'JSON'
{"cases": [
  {"name": "round the water", "start": [10, 0, 5], "end": [20, 0, 5], "filter": {"costs": {"water": 10}},
   "expect": {"reached": true, "avoid_area": "water", "max_length": 20}},
  {"name": "short hop", "start": [10, 0, 5], "end": [10, 0, 9], "expect": {"max_length": 5}}
]}
JSON


# the mixed file, its failing case 0 shown: PASS and FAIL rows; the path across the water (magenta)
shot path_tests_mixed navmesh,path --path-tests "$out/mixed.json" --path-test 0 $top -- --hue 315:0.001
panel_pixels path_tests_mixed_pass path_tests_mixed $green 60
panel_pixels path_tests_mixed_fail path_tests_mixed $red 60
if grep -q "error" "$out/path_tests_mixed.log"; then bad "path_tests_mixed: errors logged: $(grep error "$out/path_tests_mixed.log" | head -2)"
else ok "path_tests_mixed: no error logged"; fi
# the passing file, its case 0 shown (round the water): green, no red in the panel
shot path_tests_pass navmesh,path --path-tests "$out/passing.json" --path-test 0 $top -- --hue 315:0.001
panel_pixels path_tests_pass_green path_tests_pass $green 60
panel_pixels path_tests_pass_no_red path_tests_pass $red 0 0
# the two cases shown are different paths (across the water, round it)
if msg=$($check "$out/path_tests_mixed.png" --differs "$out/path_tests_pass.png:0.005"); then ok "path_tests_paths_differ: $msg"
else bad "path_tests_paths_differ: $msg"; fi

expect_exit2 path_tests_missing "--path-tests $out/missing.json: cannot open path test file" \
  "$src/assets/demo.obj" --path-tests "$out/missing.json"
finish
