#!/usr/bin/env bash
# Stress mode's result latency, --stress-late and --stress-every-ms on the demo scene: 30 moves of
# the late-stage parameters only, each given up to 10 s (a late bake of the demo takes well under
# one), from an explicit starting config. Every move is either timed (its result showed) or left
# its slider's value as it was: none superseded, none unresolved; 0 < p50 <= p99 <= max. The final
# config still holds the starting value of every parameter of a stage before contours, and the
# moves changed at least two late-stage ones. With a move every frame (no --stress-every-ms) most
# moves are superseded; timed, superseded, unchanged, unresolved and rejected add up to the moves.
# --stress-params names unknown or not tuning parameters, or with --stress-late, are refused (exit 2).
# usage: screenshots_stress_latency.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"
mesh="$src/assets/demo.obj"
start="$out/start.json"
cat > "$start" <<'JSON'
{"cell_size": 0.3, "cell_height": 0.2, "agent_height": 2.0, "agent_radius": 0.6, "agent_max_climb": 0.9,
 "agent_max_slope": 45.0, "region_min_size": 8, "region_merge_size": 20, "partition": "watershed",
 "filter_low_hanging": true, "filter_ledge": true, "filter_low_height": true, "edge_max_len": 12.0,
 "edge_max_error": 1.3, "verts_per_poly": 6, "detail_sample_dist": 6.0, "detail_sample_max_error": 1.0,
 "tile_size": 0, "threads": 0}
JSON

run() {  # name, navdebug stress arguments...
  local name=$1; shift
  rm -f "$out/$name.json"
  timeout 150 xvfb-run -a -s "-screen 0 1280x800x24" "$exe" "$mesh" --config "$start" --stress-sliders 30 --seed 3 \
    --max-memory 16 --stress-report "$out/$name.json" "$@" > "$out/$name.log" 2>&1
  local code=$?
  if [ $code -ne 0 ] || [ ! -s "$out/$name.json" ]; then
    bad "$name: navdebug exit $code: $(tail -3 "$out/$name.log")"; return 1
  fi
}

if run late --stress-late --stress-every-ms 10000; then
  if msg=$(python3 - "$out/late.json" "$start" <<'PY'
import json, sys
r, start = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
la, cfg = r.get("latency"), r["config"]
late = {"edge_max_len", "edge_max_error", "verts_per_poly", "detail_sample_dist", "detail_sample_max_error"}
bad = []
if not isinstance(la, dict): print(f"no latency object: {la}"); sys.exit(1)
if r["moves"] != 30 or r["moves_rejected"]: bad.append(f"{r['moves']} moves, {r['moves_rejected']} rejected")
if la["count"] + la["unchanged"] != 30: bad.append(f"{la['count']} timed + {la['unchanged']} unchanged != 30 moves")
if la["superseded"] or la["unresolved"]: bad.append(f"{la['superseded']} superseded, {la['unresolved']} unresolved")
if not (la["count"] > 0 and 0 < la["p50_ms"] <= la["p99_ms"] <= la["max_ms"]): bad.append(f"latency not measured: {la}")
early = [k for k in start if k not in late and cfg[k] != start[k]]
if early: bad.append(f"--stress-late moved {', '.join(f'{k} {start[k]} -> {cfg[k]}' for k in early)}")
moved = [k for k in late if cfg[k] != start[k]]
if len(moved) < 2: bad.append(f"only {moved} of the late-stage parameters changed")
print("; ".join(bad) if bad else
      f"{la['count']} late moves timed ({la['unchanged']} unchanged), result latency p50 {la['p50_ms']:.0f} ms, "
      f"p99 {la['p99_ms']:.0f} ms, max {la['max_ms']:.0f} ms; UI frames p50 {r['frames']['p50_ms']:.0f} ms; "
      f"changed {', '.join(sorted(moved))}, nothing before contours")
sys.exit(1 if bad else 0)
PY
  ); then ok "late: $msg"; else bad "late: $msg"; fi
fi

if run every_frame; then
  if msg=$(python3 - "$out/every_frame.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); la = r["latency"]
n = la["count"] + la["superseded"] + la["unchanged"] + la["unresolved"] + r["moves_rejected"]
bad = []
if n != 30: bad.append(f"timed {la['count']} + superseded {la['superseded']} + unchanged {la['unchanged']} + "
                       f"unresolved {la['unresolved']} + rejected {r['moves_rejected']} = {n}, not the 30 moves")
print("; ".join(bad) if bad else f"a move every frame: {la['count']} timed, {la['superseded']} superseded, "
      f"{la['unchanged']} unchanged")
sys.exit(1 if bad else 0)
PY
  ); then ok "every_frame: $msg"; else bad "every_frame: $msg"; fi
fi

bad_flags() {  # name, expected text, navdebug arguments...
  local name=$1 text=$2; shift 2
  timeout 60 xvfb-run -a -s "-screen 0 640x480x24" "$exe" "$mesh" "$@" > "$out/$name.log" 2>&1
  local code=$?
  if [ $code -eq 2 ] && grep -q -- "$text" "$out/$name.log"; then ok "$name: exit 2, '$text'"
  else bad "$name: exit $code, expected 2 with '$text': $(tail -2 "$out/$name.log")"; fi
}
bad_flags params_unknown "unknown parameter 'bogus'" --stress-sliders 3 --stress-report "$out/x.json" --stress-params cell_size,bogus
bad_flags params_mesh_fix "mesh_z_up is not a tuning parameter" --stress-sliders 3 --stress-report "$out/x.json" \
  --stress-params mesh_z_up
bad_flags params_and_late "stress-late excludes --stress-params" --stress-sliders 3 --stress-report "$out/x.json" --stress-params cell_size \
  --stress-late
bad_flags late_alone "stress-late requires --stress-sliders" --stress-late
bad_flags every_negative "stress-every-ms: Value -1 not in range" --stress-sliders 3 --stress-report "$out/x.json" \
  --stress-every-ms -1
finish
