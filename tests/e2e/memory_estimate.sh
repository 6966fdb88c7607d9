#!/usr/bin/env bash
# navbake's memory estimate (Pipeline::estimate_memory, what --max-memory refuses on) against the
# peak resident set GNU time measures (issue 23): for every mesh and every configuration (solo,
# tiled at tile_size 32 and 64 on 1 and 2 threads), the estimate must be an upper bound of the
# peak and at most 25% above it: estimate >= peak (less 2 MiB of run-to-run noise) and
# estimate <= 1.25 * peak.
# Usage: memory_estimate.sh NAVBAKE WORKDIR [MESH.obj ...]
# Always adds a generated level of many small triangles (WORKDIR/small_tris.obj: 60 x 60 m of 0.1 m
# quads, 720 k triangles, whose peak is the load); a MESH that does not exist (the shared meshes)
# is skipped with a line on screen and in $NAV_TEST_SUMMARY (scripts/test.sh's summary). The large
# generated level is checked by large_scene.sh, which bakes it anyway. Prints one table row per
# bake (mesh, config, estimate, peak, ratio) and fails on any row out of the bound.
set -euo pipefail
navbake=$1 work=$2
shift 2
[ -x /usr/bin/time ] || { echo "memory_estimate: /usr/bin/time missing (Debian package 'time', scripts/setup.sh)" >&2; exit 1; }
mkdir -p "$work"
python3 - "$navbake" "$work" "$@" <<'PY'
import json, math, os, re, subprocess, sys
navbake, work, meshes = sys.argv[1], sys.argv[2], sys.argv[3:]
small = os.path.join(work, "small_tris.obj")
if not os.path.exists(small):
    n, st = 600, 0.1
    with open(small + ".tmp", "w") as f:
        for j in range(n + 1):
            for i in range(n + 1):
                x, z = i * st, j * st
                f.write(f"v {x:.3f} {0.5 * math.sin(x / 3) * math.cos(z / 4):.4f} {z:.3f}\n")
        for j in range(n):
            for i in range(n):
                a = 1 + i + j * (n + 1); b = a + n + 1
                f.write(f"f {a} {b} {b + 1}\nf {a} {b + 1} {a + 1}\n")
    os.rename(small + ".tmp", small)
present = [m for m in meshes if os.path.exists(m)]
missing = [os.path.basename(m) for m in meshes if not os.path.exists(m)]
if missing:  # said on screen and in scripts/test.sh's summary (the shared meshes are optional)
    line = (f"memory_estimate: {len(missing)} of {len(meshes) + 1} meshes skipped: {', '.join(missing)} "
            f"not found in {os.path.dirname(meshes[0])}, not checked")
    print(line)
    if os.environ.get("NAV_TEST_SUMMARY"):
        with open(os.environ["NAV_TEST_SUMMARY"], "a") as f: f.write(line + "\n")
meshes = present + [small]
configs = [("solo", []),
           ("tile 32, 1 thread", ["--set", "tile_size=32", "--set", "threads=1"]),
           ("tile 32, 2 threads", ["--set", "tile_size=32", "--set", "threads=2"]),
           ("tile 64, 1 thread", ["--set", "tile_size=64", "--set", "threads=1"]),
           ("tile 64, 2 threads", ["--set", "tile_size=64", "--set", "threads=2"])]
only = os.environ.get("MEMORY_ESTIMATE_CONFIGS")  # e.g. "solo;tile 64, 1 thread": only these
bad = []
# the peak's own noise (the allocator's and the loader's pages from run to run): 2 MiB under it passes
SLACK = 2 * 2**20
print(f"{'mesh':<16} {'config':<20} {'estimate MiB':>12} {'peak MiB':>9} {'ratio':>6}")
for mesh in meshes:
    for name, flags in configs:
        if only and name not in only.split(";"): continue
        out = os.path.join(work, "bake.json")
        with open(out, "w") as f:
            r = subprocess.run(["/usr/bin/time", "-v", navbake, mesh, "--json"] + flags,
                               stdout=f, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            bad.append(f"{mesh} {name}: navbake exit {r.returncode}: {r.stderr[-400:]}")
            continue
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr)
        peak = int(m.group(1)) * 1024
        est = json.load(open(out))["memory"]["estimate"]
        ratio = est / peak
        print(f"{os.path.basename(mesh):<16} {name:<20} {est / 2**20:12.1f} {peak / 2**20:9.1f} {ratio:6.2f}", flush=True)
        if not (peak - SLACK <= est <= 1.25 * peak):
            bad.append(f"{os.path.basename(mesh)} {name}: estimate {est / 2**20:.1f} MiB, peak {peak / 2**20:.1f} MiB "
                       f"(ratio {ratio:.2f}, expected 1.00 (less 2 MiB) to 1.25)")
for b in bad: print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
