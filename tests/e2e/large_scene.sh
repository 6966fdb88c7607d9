#!/usr/bin/env bash
# The large generated level end to end (issue: tiles): gen_scenes --large writes it (not committed);
# navbake bakes it tiled on every core without intermediates and solo, and the test asserts what
# the benchmark stands on: over 5 M solid spans, every tile of the grid baked (none failed), the
# same level baked solo and tiled gives polygons of the same walkable area (within 2%: tiles cut
# polygons at their edges, they do not add or lose floor), and the tiled bake's peak memory is
# below the solo bake's. Usage: large_scene.sh NAVBAKE GEN_SCENES WORKDIR
set -euo pipefail
navbake=$1 gen=$2 work=$3
mkdir -p "$work"
obj="$work/large.obj"
"$gen" --large "$obj"
"$navbake" "$obj" --set tile_size=64 --set threads=0 --json >"$work/tiled.json"
"$navbake" "$obj" --json >"$work/solo.json"
python3 - "$work/tiled.json" "$work/solo.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1])); s = json.load(open(sys.argv[2]))
tiles = t["tiles"]
spans = s["counts"]["solid_spans"]
print(f"large level: {s['mesh']['tris']} triangles, {spans} solid spans (solo); "
      f"tiles {tiles['cols']} x {tiles['rows']}, built {tiles['built']}, empty {tiles['empty']}, "
      f"per-tile ms min {tiles['ms']['min']:.2f} median {tiles['ms']['median']:.2f} max {tiles['ms']['max']:.2f}")
print(f"polys solo {s['counts']['polys']} tiled {t['counts']['polys']}; walkable area solo {s['walkable_area']:.0f} m2 "
      f"tiled {t['walkable_area']:.0f} m2; total ms solo {s['timings_ms']['total']:.0f} tiled {t['timings_ms']['total']:.0f}; "
      f"peak RSS solo {s['peak_rss_mib']:.0f} MiB tiled {tiles['peak_rss_mib']:.0f} MiB")
bad = []
if spans < 5_000_000: bad.append(f"only {spans} solid spans (the level must have over 5 M)")
if tiles["built"] + tiles["empty"] != tiles["cols"] * tiles["rows"]:
    bad.append("not every tile was baked")
if abs(t["walkable_area"] - s["walkable_area"]) > 0.02 * s["walkable_area"]:
    bad.append("tiled and solo walkable areas differ by more than 2%")
if not tiles["peak_rss_mib"] < s["peak_rss_mib"]:
    bad.append("the tiled bake (no intermediates) does not peak below the solo bake")
for b in bad: print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
