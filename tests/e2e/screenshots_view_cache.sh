#!/usr/bin/env bash
# The view's own framebuffer (issue 23), in the real window loop under Xvfb on the demo scene,
# through the panel benchmark (--bench-frames, app/navdebug/bench.h):
# - camera still, nothing changing: no frame draws the scene (the panels redraw over its image);
# - camera orbiting: every frame draws it;
# - --no-view-cache: every frame draws it, as before the view had its framebuffer;
# - bad --bench-camera / a missing --bench-report: exit 2 naming the flag.
# usage: screenshots_view_cache.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

frames=30
bench() {  # name, navdebug arguments...: runs the benchmark, report in $out/NAME.json
  local name=$1; shift
  if ! timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" "$exe" "$src/assets/demo.obj" --config "$src/assets/demo.json" \
       --bench-frames $frames --bench-report "$out/$name.json" "$@" > "$out/$name.log" 2>&1; then
    bad "$name: navdebug failed: $(tail -3 "$out/$name.log")"; return 1
  fi
}
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$out/$1.json" "$2"; }
expect_draws() {  # name, expected scene draws
  local got frames_got
  got=$(field "$1" scene_draws) frames_got=$(field "$1" frames)
  if [ "$frames_got" = "$frames" ] && [ "$got" = "$2" ]; then ok "$1: $got scene draws in $frames_got frames"
  else bad "$1: $got scene draws in $frames_got frames, expected $2 in $frames"; fi
}

bench still --bench-camera still && expect_draws still 0
bench orbit --bench-camera orbit && expect_draws orbit $frames
bench still_nocache --bench-camera still --no-view-cache && expect_draws still_nocache $frames

exit2() {  # name, expected text, navdebug arguments...
  local name=$1 text=$2; shift 2
  timeout 60 "$exe" "$src/assets/demo.obj" "$@" > "$out/$name.log" 2>&1
  local code=$?
  if [ $code -eq 2 ] && grep -q -- "$text" "$out/$name.log"; then ok "$name: exit 2, '$text'"
  else bad "$name: exit $code, expected 2 with '$text': $(tail -2 "$out/$name.log")"; fi
}
exit2 bad_camera "--bench-camera" --bench-frames 5 --bench-camera spin --bench-report "$out/x.json"
exit2 no_report "--bench-report" --bench-frames 5
finish
