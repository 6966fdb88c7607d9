#!/usr/bin/env bash
# The UI frame time on the large generated level while bakes and layer builds run (issue 11):
# gen_scenes --large writes the level (~283 k triangles, 7.3 M solid spans at the defaults) into
# this test's own directory, and navdebug's stress mode edits it tiled (tile_size 64: 35 x 35 tiles,
# how a level this size is edited), MOVES random sliders spaced by --stress-every-ms (the next move
# once the last one's result shows or EVERY_MS passed, so tiled bakes run, publish the tiles done
# so far and the worker builds their layers while the UI keeps drawing), with the input, voxels,
# compact, regions, contours and navmesh layers shown (DRAW overrides; the span layers are drawn
# with their level of detail, render/span_lod.h). The report's frames also give the UI thread's
# layer work per frame (uploads) and the layers' GPU parts uploaded and kept: each tiled layer is
# drawn in parts, one per block of 5 x 5 tiles on this level (render/layers.h), and a publish
# re-uploads only the parts whose tiles changed. --max-memory bounds
# what random parameters may ask for: the level at the default parameters, tiled with every tile's
# intermediates kept (as navdebug keeps them), is estimated at about 2.5 GiB, so 3000 MiB lets it
# bake and refuses more (a large agent_radius widens every tile's border: seed 1 ends at 4.9 GiB,
# refused).
# Asserted: exit 0, the report written, frames timed with 0 < p50 <= p99, and no frame in which
# the UI thread built a draw layer itself (ui_waits_on_layers == 0), and parts kept across publishes
# (layer_parts_kept > 0: the tiles a publish did not change were not uploaded again). The frame times themselves
# are reported, not asserted (they depend on the machine), as are the result latency and peak RSS.
# Usage: [DRAW=LAYERS] stress_large.sh NAVDEBUG GEN_SCENES WORKDIR [MOVES [EVERY_MS]]
set -uo pipefail
exe=$1 gen=$2 work=$3 moves=${4:-24} every_ms=${5:-1500} draw=${DRAW:-input,voxels,compact,regions,contours,navmesh}
max_mb=3000
params=agent_height,agent_radius,agent_max_climb,agent_max_slope,region_min_size,region_merge_size
params+=,partition,filter_low_hanging,filter_ledge,filter_low_height,edge_max_len,edge_max_error,verts_per_poly
params+=,detail_sample_dist,detail_sample_max_error
mkdir -p "$work"
obj="$work/large.obj" report="$work/stress.json" log="$work/stress.log"
rm -f "$report"
"$gen" --large "$obj" || { echo "FAIL: gen_scenes --large"; exit 1; }
t0=$SECONDS
timeout 600 xvfb-run -a -s "-screen 0 1280x800x24" "$exe" "$obj" --set tile_size=64 \
  --draw "$draw" --stress-params "$params" --stress-sliders "$moves" --seed 1 --stress-every-ms "$every_ms" \
  --stress-report "$report" --max-memory $max_mb >"$log" 2>&1
code=$?
echo "navdebug stress: $moves moves, layers $draw, exit $code in $((SECONDS - t0)) s"
if [ $code -ne 0 ] || [ ! -s "$report" ]; then
  echo "FAIL: navdebug exit $code, report $( [ -s "$report" ] && echo written || echo missing ): $(tail -5 "$log")"
  exit 1
fi
python3 - "$report" "$moves" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); moves = int(sys.argv[2])
fr, la = r.get("frames"), r.get("latency", {})
bad = []
if not isinstance(fr, dict) or not all(k in fr for k in ("timed", "p50_ms", "p99_ms", "max_ms", "ui_waits_on_layers")):
    print(f"FAIL: no frames object with timed, p50_ms, p99_ms, max_ms, ui_waits_on_layers: {fr}")
    sys.exit(1)
if r.get("moves") != moves: bad.append(f"{r.get('moves')} moves done, expected {moves}")
if r.get("timed_out"): bad.append("a bake did not finish in time")
if not fr["timed"] > 0: bad.append("no frame timed")
if not (0 < fr["p50_ms"] <= fr["p99_ms"]): bad.append(f"frame times not measured: p50 {fr['p50_ms']}, p99 {fr['p99_ms']}")
if fr["ui_waits_on_layers"] != 0:
    bad.append(f"{fr['ui_waits_on_layers']} frames built a draw layer on the UI thread (the worker should have)")
b = r.get("bake", {})
tiles = b.get("stages", {})
print(f"large level tiled, {r.get('moves')} moves ({r.get('moves_rejected')} rejected), {r.get('bakes_published')} bakes "
      f"published in {r.get('wall_ms', 0) / 1000:.1f} s; final bake ok={b.get('ok')} {b.get('error') or ''}")
print(f"UI frames: {fr['timed']} timed, p50 {fr['p50_ms']:.1f} ms, p99 {fr['p99_ms']:.1f} ms, max {fr['max_ms']:.1f} ms; "
      f"{fr['ui_waits_on_layers']} UI layer builds; layer work on the UI thread p99 {fr.get('layer_work_p99_ms', -1):.1f} ms, "
      f"max {fr.get('layer_work_max_ms', -1):.1f} ms, {fr.get('layer_work_over_33ms', -1)} frames over 33 ms")
if "layer_work_p99_ms" not in fr: bad.append("no layer_work_p99_ms in the frames object")
print(f"layer parts: {fr.get('layer_parts_uploaded')} uploaded, {fr.get('layer_parts_kept')} kept (tiles unchanged)")
if not fr.get("layer_parts_kept", 0) > 0:
    bad.append(f"no layer part was kept across publishes ({fr.get('layer_parts_uploaded')} uploaded): every tile re-uploaded")
print(f"result latency: {la.get('count')} moves timed ({la.get('failed_results')} of them a failed or refused bake), "
      f"{la.get('superseded')} superseded, {la.get('unchanged')} unchanged; "
      f"p50 {la.get('p50_ms', 0):.0f} ms, p99 {la.get('p99_ms', 0):.0f} ms, max {la.get('max_ms', 0):.0f} ms")
print(f"RSS: start {r['rss_start_kib'] // 1024} MiB, final bake {r['rss_final_bake_kib'] // 1024} MiB, "
      f"peak {r['rss_peak_kib'] // 1024} MiB, end {r['rss_end_kib'] // 1024} MiB")
for m in bad: print("FAIL:", m)
sys.exit(1 if bad else 0)
PY
