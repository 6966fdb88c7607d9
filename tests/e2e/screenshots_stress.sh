#!/usr/bin/env bash
# The UI stays responsive: navdebug's stress mode moves 200 random sliders in a row (one per frame,
# through the real frame loop under Xvfb, cancelling and restarting the worker as a drag does),
# waits for the last bake and writes a report. navbake with the report's final config must give
# the same counts, stage by stage (or fail the same way when the final parameters cannot bake),
# nothing crashes, and memory goes back near its starting level once the parameters are back where
# they started; the report states UI frame time p50 / p99 and no frame built a draw layer on the UI
# thread (the worker builds them with each bake). --max-memory bounds the grids the random parameters may ask for (the pipeline
# refuses bigger ones, in navdebug and navbake alike; navbake keeps its intermediates as navdebug
# does, so a tiled bake needs the same memory in both).
# usage: screenshots_stress.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"
navbake="$(dirname "$exe")/navbake"
mesh="$src/assets/demo.obj"
max_mb=16

stress() {  # name, seed, expect (ok | fails): the final bake of this seed bakes or is refused
  local name=$1 seed=$2 expect=$3
  local report="$out/$name.json" log="$out/$name.log"
  rm -f "$report"
  local t0=$SECONDS
  timeout 150 xvfb-run -a -s "-screen 0 1280x800x24" "$exe" "$mesh" --stress-sliders 200 --seed "$seed" \
    --stress-report "$report" --max-memory $max_mb > "$log" 2>&1
  local code=$?
  if [ $code -ne 0 ] || [ ! -s "$report" ]; then
    bad "$name: navdebug exit $code after $((SECONDS - t0)) s: $(tail -3 "$log")"; return
  fi
  ok "$name: 200 moves, navdebug exit 0 in $((SECONDS - t0)) s"
  python3 - "$report" "$out/$name.config.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
json.dump(r["config"], open(sys.argv[2], "w"), indent=2)
PY
  timeout 120 "$navbake" "$mesh" --config "$out/$name.config.json" --max-memory $max_mb --keep-intermediates > "$out/$name.navbake.txt" \
    2> "$out/$name.navbake.err"
  local bcode=$?
  timeout 120 "$navbake" "$mesh" --config "$out/$name.config.json" --max-memory $max_mb --keep-intermediates --json > "$out/$name.navbake.json" \
    2> /dev/null
  if msg=$(python3 - "$report" "$out/$name.navbake.txt" "$out/$name.navbake.err" "$out/$name.navbake.json" "$bcode" "$expect" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
text, err, bjson, bcode, expect = open(sys.argv[2]).read(), open(sys.argv[3]).read(), sys.argv[4], int(sys.argv[5]), sys.argv[6]
b = r["bake"]
problems = []
if r["moves"] != 200: problems.append(f"{r['moves']} moves done, expected 200")
if r["moves_rejected"]: problems.append(f"{r['moves_rejected']} moves rejected (slider values the table refuses)")
if r["timed_out"]: problems.append("timed out")
if not b.get("params_match"): problems.append("the final bake is not of the final parameters")
if not r.get("restored_bake_matches_first"): problems.append("going back to the first parameters did not give the first bake")
if (expect == "ok") != bool(b["ok"]):
    problems.append(f"expected the final bake to {'succeed' if expect == 'ok' else 'fail'}, report says ok={b['ok']} ({b['error']})")
if b["ok"]:
    if bcode != 0: problems.append(f"navbake exit {bcode}: {err.strip()}")
    # navbake's table: "stage  ms  name=value name=value ..."
    stages = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] in b["stages"]:
            stages[parts[0]] = {k: int(v) for k, v in (p.split("=") for p in parts[2:])}
    for s, counts in b["stages"].items():
        if stages.get(s) != counts: problems.append(f"stage {s}: navdebug {counts}, navbake {stages.get(s)}")
    nb = json.load(open(bjson))["counts"]
    if nb != b["counts"]: problems.append(f"counts: navdebug {b['counts']}, navbake {nb}")
    what = f"{len(b['stages'])} stages' counts match navbake ({b['counts']['polys']} polygons)"
else:
    if bcode != 2: problems.append(f"navdebug's final bake failed ({b['error']}) but navbake exit {bcode}")
    if f"stage {b['error_stage']} failed" not in err: problems.append(f"navbake did not fail in stage {b['error_stage']}: {err.strip()}")
    if b["error"] not in err: problems.append(f"navbake's error differs: {err.strip()} vs {b['error']}")
    what = f"final bake refused in {b['error_stage']} as by navbake (exit 2)"
fr = r.get("frames")
if not isinstance(fr, dict) or not all(k in fr for k in ("p50_ms", "p99_ms", "ui_waits_on_layers")):
    problems.append(f"no frames object with p50_ms, p99_ms, ui_waits_on_layers in the report: {fr}")
    fr = {"p50_ms": 0, "p99_ms": 0, "ui_waits_on_layers": -1, "timed": 0}
else:
    if fr["timed"] < 200 or not (0 < fr["p50_ms"] <= fr["p99_ms"]):
        problems.append(f"frame times not measured: {fr}")
    if fr["ui_waits_on_layers"] != 0:
        problems.append(f"{fr['ui_waits_on_layers']} frames built a draw layer on the UI thread (the worker should have)")
start, end = r["rss_start_kib"], r["rss_end_kib"]
limit = max(start * 1.5, start + 64 * 1024)
if end > limit: problems.append(f"RSS {end} KiB at the end, over {limit:.0f} (start {start})")
mem = (f"RSS start {start // 1024} MiB, final bake {r['rss_final_bake_kib'] // 1024}, end {end // 1024} "
       f"(limit {limit / 1024:.0f}), {r['bakes_published']} bakes published, {r['wall_ms'] / 1000:.1f} s; "
       f"UI frames p50 {fr['p50_ms']:.1f} ms, p99 {fr['p99_ms']:.1f} ms, {fr['ui_waits_on_layers']} UI layer builds")
print("; ".join(problems) if problems else what + "; " + mem)
sys.exit(1 if problems else 0)
PY
  ); then ok "$name: $msg"; else bad "$name: $msg"; fi
}

stress stress_seed2 2 ok      # the final parameters bake (a tile_size above the grid: one tile)
stress stress_seed3 3 fails   # the final grid is over the memory limit: refused, by navbake too (seed 7 before the link parameters joined the table)

bad_flags() {  # name, expected text, navdebug arguments... (no --screenshot: stress mode excludes it)
  local name=$1 text=$2; shift 2
  timeout 60 xvfb-run -a -s "-screen 0 640x480x24" "$exe" "$@" > "$out/$name.log" 2>&1
  local code=$?
  if [ $code -eq 2 ] && grep -q -- "$text" "$out/$name.log"; then ok "$name: exit 2, '$text'"
  else bad "$name: exit $code, expected 2 with '$text': $(tail -2 "$out/$name.log")"; fi
}
bad_flags stress_no_report "stress-report OUT.json is required" "$mesh" --stress-sliders 10
bad_flags stress_zero "stress-sliders: Value 0 not in range" "$mesh" --stress-sliders 0 --stress-report "$out/x.json"
bad_flags stress_too_many "not in range 1 to 100000" "$mesh" --stress-sliders 100001 --stress-report "$out/x.json"
bad_flags stress_seed_alone "seed requires --stress-sliders" "$mesh" --seed 3
bad_flags stress_with_shot "excludes --stress-sliders" "$mesh" --stress-sliders 5 --stress-report "$out/x.json" \
  --screenshot "$out/x.png"
finish
