#!/usr/bin/env bash
# Sessions (navdebug --session / --save-session): a saved session reopens the same picture, saving
# it again writes the same file, the same settings given as flags draw the same picture, a relative
# mesh path is read from the session's folder, and bad sessions exit 2 naming the problem.
# usage: screenshots_session.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

run() {  # name, navdebug arguments...: renders $out/NAME.png (1280x800), log in $out/NAME.log
  local name=$1; shift
  rm -f "$out/$name.png"
  if timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" "$exe" "$@" --screenshot "$out/$name.png" --size 1280x800 \
       > "$out/$name.log" 2>&1; then return 0; fi
  bad "$name: navdebug failed: $(tail -3 "$out/$name.log")"
  return 1
}
same() {  # name, image, other image, [checker arguments]
  local name=$1 a=$2 b=$3; shift 3
  if msg=$($check "$a" --same "$b" "$@"); then ok "$name: $msg"; else bad "$name: $msg"; fi
}

mesh="$src/assets/demo.obj"
# 1. flags -> save -> load -> save again
if run flags "$mesh" --config "$src/assets/demo.json" --draw regions,navmesh,path \
     --path 0,0.2,0:10.2,0.2,-12 --camera 2,24,14,8,0,-6 --no-ui --save-session "$out/s1.json"; then
  if msg=$($check "$out/flags.png" --hues 6 --color 255,30,200:0.0005); then ok "flags: $msg"; else bad "flags: $msg"; fi
fi
if run session --session "$out/s1.json" --no-ui --save-session "$out/s2.json"; then
  same session_roundtrip "$out/session.png" "$out/flags.png"
  if cmp -s "$out/s1.json" "$out/s2.json"; then ok "session file: saving a loaded session writes the same file"
  else bad "session file: s1.json and s2.json differ: $(diff "$out/s1.json" "$out/s2.json" | head -5)"; fi
fi
# the session's keys as flags: config object -> file, camera -> --camera, layers -> --draw
if python3 - "$out/s1.json" "$out" > "$out/flags.args" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
cfg = dict(s["config"])
if "volumes" in s:
    cfg["volumes"] = s["volumes"]
json.dump(cfg, open(sys.argv[2] + "/s1_config.json", "w"))
c = s["camera"]
p = s["path"]
print(s["mesh"])
print(",".join(map(repr, c["eye"] + c["target"])))
print(",".join(map(repr, p["start"])) + ":" + ",".join(map(repr, p["end"])))
print(",".join(s["layers"]))
PY
then
  mapfile -t a < "$out/flags.args"
  if run as_flags "${a[0]}" --config "$out/s1_config.json" --camera "${a[1]}" --path "${a[2]}" --draw "${a[3]}" --no-ui; then
    same session_as_flags "$out/as_flags.png" "$out/session.png"
  fi
else
  bad "as_flags: cannot read $out/s1.json"
fi
# with the panels: the 3D view is the same (the panels show times that differ run to run)
if run session_ui --session "$out/s1.json"; then
  if run flags_ui "$mesh" --config "$src/assets/demo.json" --draw regions,navmesh,path \
       --path 0,0.2,0:10.2,0.2,-12 --camera 2,24,14,8,0,-6; then
    same session_ui "$out/session_ui.png" "$out/flags_ui.png" --area 0.31,0.06,0.70,0.94
  fi
fi
# 2. a relative mesh path is taken from the session file's folder; keys absent keep their defaults
mkdir -p "$out/sub"
rel=$(python3 -c "import os,sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))" "$mesh" "$out/sub")
printf '{"mesh": "%s", "layers": ["input"], "camera": {"eye": [2,24,14], "target": [8,0,-6]}}\n' "$rel" > "$out/sub/rel.json"
if run relative --session "$out/sub/rel.json" --no-ui; then
  if run relative_flags "$mesh" --draw input --camera 2,24,14,8,0,-6 --no-ui; then
    same relative_mesh "$out/relative.png" "$out/relative_flags.png"
  fi
fi
# 3. flags override the session's keys
if run override --session "$out/s1.json" --draw input --no-ui; then
  same override_draw "$out/override.png" "$out/relative_flags.png"
fi
# 4. bad sessions
printf '{"mesh": "%s", "camra": {}}\n' "$mesh" > "$out/bad_key.json"
expect_exit2 session_unknown_key 'unknown key "camra"' --session "$out/bad_key.json"
printf '{"camera": {"eye": [1,2], "target": [0,0,0]}}\n' > "$out/bad_camera.json"
expect_exit2 session_bad_camera 'camera.eye: expected \[x, y, z\]' --session "$out/bad_camera.json"
printf '{"layers": ["regoins"]}\n' > "$out/bad_layers.json"
expect_exit2 session_bad_layer 'unknown draw layer' --session "$out/bad_layers.json"
printf '{"config": {"agent_radius": -1}}\n' > "$out/bad_config.json"
expect_exit2 session_bad_config 'agent_radius' --session "$out/bad_config.json"
printf '{"mesh": \n' > "$out/bad_json.json"
expect_exit2 session_bad_json 'not valid JSON' --session "$out/bad_json.json"
expect_exit2 session_missing 'no_such_session.json: file not found' --session "$out/no_such_session.json"
# a number beyond double was an uncaught out_of_range (abort); a directory read as "unexpected end"
printf '{"camera": {"eye": [1e400, 2, 3], "target": [0,0,0]}}\n' > "$out/huge_number.json"
expect_exit2 session_huge_number 'huge_number.json: not valid JSON' --session "$out/huge_number.json"
expect_exit2 session_directory 'is a directory, expected a navdebug session' --session "$out"
printf '{"path": {"start": [1e300, 0, 0], "end": [0,0,0]}}\n' > "$out/far_point.json"
expect_exit2 session_far_point 'path.start: coordinates must be finite and within' --session "$out/far_point.json"
finish
