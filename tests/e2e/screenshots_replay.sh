#!/usr/bin/env bash
# navdebug region replay under Xvfb (app/navdebug/replay.h, render/replay_draw.h): the watershed
# replayed headless at an early flood level, a middle one and past the end (the final regions).
# The three pictures differ pairwise; the early one is mostly the grey of spans the flood has
# not reached yet and the final one is not; a monotone sweep replays too; bad --replay values
# exit 2.
# usage: screenshots_replay.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

grey=150,120,90    # colors::kReplayPending (lighting scales it; the checker allows that)
# demo scene: max distance 48, so 24 flood levels + the final expansion, then filter and merge
# (the sand colour: the background no longer matches it; the walls' dark edges and shading match
# about 5% of the view in any picture of this scene, the unreached floors 13-20% more: measured
# 24% early, 20% middle, 18% monotone, 5% final)
shot replay_early  regions --replay watershed=2 -- --color $grey:0.18
shot replay_middle regions --replay watershed=14 -- --color $grey:0.15 --hues 5
shot replay_final  regions --replay watershed=999 -- --hues 8
shot replay_mono   regions --set partition=monotone --replay monotone=60 -- --color $grey:0.13 --hues 6

e=$out/replay_early.png m=$out/replay_middle.png f=$out/replay_final.png
for pair in "$e $m" "$m $f" "$e $f"; do
  set -- $pair
  if msg=$($check "$1" --differs "$2:0.02"); then ok "differs: $msg vs $(basename "$2")"
  else bad "differs: $msg"; fi
done
# the final step shows every region: no grey of unreached spans left
if [ -f "$f" ] && ! $check "$f" --color $grey:0.10 > /dev/null; then ok "final: no unreached grey"
else bad "final: still shows the grey of unreached spans (or is missing)"; fi
# the final step draws the regions layer's colours (seeds aside): mostly the same pixels
shot regions_layer regions -- --hues 8
if msg=$($check "$f" --differs "$out/regions_layer.png:0.05"); then bad "final replay differs from the regions layer in more than 5% of the view: $msg"
else ok "final replay matches the regions layer (up to the seed marks)"; fi

expect_exit2 replay_bad_level "watershed=N" "$src/assets/demo.obj" --replay watershed=abc
expect_exit2 replay_bad_kind "expected watershed=LEVEL" "$src/assets/demo.obj" --replay foo=3
expect_exit2 replay_negative "watershed=N" "$src/assets/demo.obj" --replay watershed=-1

finish
